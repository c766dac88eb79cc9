"""A long duplicate duel (issue 12) split over worker processes, merged into one report.

    python bench/duel_run.py --variant taiwan --a strong --b normal --hands 20000 --seed 2026 [--jobs 2]

Exactly the walls and seatings of ``python -m engine duel`` with the same arguments (walls ``0 .. N−1`` of
``--seed``): the walls are cut into ``--jobs`` consecutive chunks, each played by ``engine.duel.duel`` in its
own process, and the per-wall samples are concatenated before the confidence intervals are computed, so the
printed report is the one a single process would print (only the hands/s differ).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.duel import DuelResult, arrangements, duel, mean_ci, report  # noqa: E402
from engine.variants import find_variant  # noqa: E402


def merge(parts: list[DuelResult]) -> DuelResult:
    """One result from consecutive chunks of walls (tallies summed, per-wall samples concatenated)."""
    out = DuelResult(parts[0].variant, parts[0].names)
    for p in parts:
        out.walls += p.walls
        out.plays += p.plays
        out.draws += p.draws
        out.diffs.extend(p.diffs)
        for who in "AB":
            t, u = out.tallies[who], p.tallies[who]
            t.seat_hands += u.seat_hands
            t.points += u.points
            t.wins += u.wins
            t.deal_ins += u.deal_ins
            t.tai += u.tai
            t.hu += u.hu
            t.per_wall.extend(u.per_wall)
    return out


def pooled(parts: list[tuple[int, float, float]]) -> tuple[float, float]:
    """Mean and 95% half-width of the per-wall A − B over runs given as (walls, mean, sd): the exact pooled
    sample variance, so two runs over disjoint walls report what one run over all of them would."""
    n = sum(p[0] for p in parts)
    mean = sum(p[0] * p[1] for p in parts) / n
    ss = sum((k - 1) * sd * sd + k * (m - mean) ** 2 for k, m, sd in parts)
    return mean, 1.96 * math.sqrt(ss / (n - 1) / n)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--variant")
    p.add_argument("--a")
    p.add_argument("--b")
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--start", type=int, default=0, help="first wall index (to extend an earlier run)")
    p.add_argument("--pool", nargs="+", metavar="N,MEAN,SD",
                   help="only combine earlier runs' per-wall A − B figures (walls,mean,sd) and print the result")
    args = p.parse_args(argv)
    if args.pool:
        parts = [(int(n), float(m), float(sd)) for n, m, sd in (x.split(",") for x in args.pool)]
        m, h = pooled(parts)
        print(f"pooled over {sum(x[0] for x in parts)} walls: A − B points/hand {m:+.3f} ± {h:.3f} "
              f"(95% CI [{m - h:+.3f}, {m + h:+.3f}])")
        return 0
    if not (args.variant and args.a and args.b):
        p.error("--variant, --a and --b are required (unless --pool)")
    walls = max(1, -(-args.hands // len(arrangements(find_variant(args.variant).n_seats))))
    cuts = [args.start + walls * k // args.jobs for k in range(args.jobs + 1)]
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(duel, args.variant, args.a, args.b, cuts[k + 1] - cuts[k], args.seed, cuts[k])
                   for k in range(args.jobs)]
        result = merge([f.result() for f in futures])
    for line in report(result):
        print(line)
    m, h = mean_ci(result.diffs)
    sd = h / 1.96 * math.sqrt(len(result.diffs))
    print(f"  walls {args.start}..{args.start + walls - 1}: per-wall A − B mean {m:+.6f}, sd {sd:.6f}, n {len(result.diffs)}")
    print(f"  {result.plays / (time.perf_counter() - began):.0f} hands/s ({args.jobs} processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
