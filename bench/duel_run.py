"""A long duplicate duel (issue 12) split over worker processes, merged into one report.

    python bench/duel_run.py --variant taiwan --a strong --b normal --hands 20000 --seed 2026 [--jobs 2]

Exactly the walls and seatings of ``python -m engine duel`` with the same arguments (walls ``0 .. N−1`` of
``--seed``): the walls are cut into ``--jobs`` consecutive chunks, each played by ``engine.duel.duel`` in its
own process, and the per-wall samples are concatenated before the confidence intervals are computed, so the
printed report is the one a single process would print (only the hands/s differ).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.duel import DuelResult, arrangements, duel, report  # noqa: E402
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


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--variant", required=True)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    walls = max(1, -(-args.hands // len(arrangements(find_variant(args.variant).n_seats))))
    cuts = [walls * k // args.jobs for k in range(args.jobs + 1)]
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(duel, args.variant, args.a, args.b, cuts[k + 1] - cuts[k], args.seed, cuts[k])
                   for k in range(args.jobs)]
        result = merge([f.result() for f in futures])
    for line in report(result):
        print(line)
    print(f"  {result.plays / (time.perf_counter() - began):.0f} hands/s ({args.jobs} processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
