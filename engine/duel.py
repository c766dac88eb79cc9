"""``python -m engine duel``: duplicate play (複式) between two bot policies.

Every wall (one seed) is dealt several times with the two policies rotated through the seats, so each
policy sits in every seat equally often on the same tiles and the luck of the deal cancels.  A wall's
plays form one sample; the report gives each policy's mean points per seat per hand with a 95%
confidence interval over walls, the difference A − B with its interval, and win, deal-in (放銃), draw
rates and the average 台 (and 胡) of wins.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.bots import POLICIES, Policy
from engine.state import HandState
from engine.variants import Variant, find_variant

MAX_STEPS = 5000  # a hand of any variant ends well before this many actions


def arrangements(n_seats: int) -> list[str]:
    """Seatings of policies ``A`` / ``B`` for one wall; each policy takes every seat equally often.

    4 seats: ABAB and BABA (each policy always sits between two of the other).  3 seats: one A against
    two B in each seat, then one B against two A in each seat (6 plays).
    """
    if n_seats % 2 == 0:
        half = "AB" * (n_seats // 2)
        return [half, half[1:] + half[0]]
    one = ["".join("A" if s == k else "B" for s in range(n_seats)) for k in range(n_seats)]
    return one + ["".join("B" if c == "A" else "A" for c in p) for p in one]


@dataclass
class PolicyTally:
    """One policy's totals over every seat it played."""

    seat_hands: int = 0
    points: int = 0
    wins: int = 0
    deal_ins: int = 0
    tai: int = 0
    hu: int = 0
    per_wall: list[float] = field(default_factory=list)  # mean points per seat-hand, per wall


@dataclass
class DuelResult:
    variant: str
    names: tuple[str, str]
    walls: int = 0
    plays: int = 0
    draws: int = 0
    tallies: dict[str, PolicyTally] = field(default_factory=lambda: {"A": PolicyTally(), "B": PolicyTally()})
    diffs: list[float] = field(default_factory=list)  # per wall: mean(A) − mean(B)


def play_once(variant: Variant, seed: str, dealer: int, seating: str, policies: dict[str, Policy],
              rng: random.Random) -> HandState:
    """Deal the wall ``seed`` and play it to the end with ``seating[s]``'s policy in seat ``s``."""
    hand = HandState.deal(variant, seed=seed, dealer=dealer)
    steps = 0
    while not hand.is_over:
        for seat in hand.awaiting():
            if hand.is_over or seat not in hand.awaiting():
                continue
            hand.apply(policies[seating[seat]](hand, seat, rng))
            steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"hand {seed} does not end")
    return hand


def _score_totals(hand: HandState, seat: int) -> tuple[int, int]:
    """(台, 胡) of a winner as the variant's scorer names them (台炮 calls its 台 total ``total``)."""
    assert hand.result is not None
    totals = hand.result.score.seats[seat].totals
    return totals.get("tai", totals.get("total", 0)), totals.get("hu", 0)


def duel(variant_name: str, a: str, b: str, walls: int, seed: int, start: int = 0) -> DuelResult:
    """Play walls ``start .. start+walls-1`` of ``seed`` with every seating of ``arrangements``."""
    variant = find_variant(variant_name)
    policies = {"A": POLICIES[a], "B": POLICIES[b]}
    out = DuelResult(variant_name, (a, b))
    seatings = arrangements(variant.n_seats)
    for i in range(start, start + walls):
        wall_seed = f"duel:{seed}:{i}"
        wall_points = {"A": 0, "B": 0}
        wall_seats = {"A": 0, "B": 0}
        for seating in seatings:
            hand = play_once(variant, wall_seed, i % variant.n_seats, seating, policies,
                             random.Random(wall_seed))
            result = hand.result
            assert result is not None
            out.plays += 1
            out.draws += result.is_draw
            net = result.score.net
            for seat, who in enumerate(seating):
                t = out.tallies[who]
                t.seat_hands += 1
                t.points += net[seat]
                wall_points[who] += net[seat]
                wall_seats[who] += 1
                if seat in result.winners:
                    t.wins += 1
                    tai, hu = _score_totals(hand, seat)
                    t.tai += tai
                    t.hu += hu
                if result.discarder == seat and result.winners:
                    t.deal_ins += 1
        means = {w: wall_points[w] / wall_seats[w] for w in "AB"}
        for w in "AB":
            out.tallies[w].per_wall.append(means[w])
        out.diffs.append(means["A"] - means["B"])
        out.walls += 1
    return out


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    m = sum(xs) / n
    if n == 1:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def report(r: DuelResult) -> list[str]:
    """The printed lines of a duel (also written to bench/ result files)."""
    lines = [f"variant={r.variant} A={r.names[0]} B={r.names[1]} walls={r.walls} hands={r.plays} "
             f"draw rate {100 * r.draws / max(1, r.plays):.1f}%"]
    for who, name in zip("AB", r.names, strict=True):
        t = r.tallies[who]
        m, h = mean_ci(t.per_wall)
        n = max(1, t.seat_hands)
        avg = f"avg 台 {t.tai / t.wins:.2f}" if t.wins else "avg 台 -"
        if t.hu and t.wins:
            avg += f", avg 胡 {t.hu / t.wins:.1f}"
        lines.append(f"  {who} {name:<8} points/hand {m:+8.3f} ± {h:.3f}  win {100 * t.wins / n:5.1f}%  "
                     f"deal-in {100 * t.deal_ins / n:5.1f}%  {avg}")
    m, h = mean_ci(r.diffs)
    verdict = "A better" if m - h > 0 else "B better" if m + h < 0 else "no significant difference"
    lines.append(f"  A − B points/hand {m:+.3f} ± {h:.3f} (95% CI [{m - h:+.3f}, {m + h:+.3f}]): {verdict}")
    return lines


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m engine duel", description=__doc__)
    p.add_argument("--variant", required=True, choices=["tiantai", "taipao", "taiwan"])
    p.add_argument("--a", required=True, choices=sorted(POLICIES))
    p.add_argument("--b", required=True, choices=sorted(POLICIES))
    p.add_argument("--hands", type=int, default=1000,
                   help="duplicate hands to play in all (rounded up to whole walls of every seating)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start", type=int, default=0, help="first wall index (to run a long duel in chunks)")
    args = p.parse_args(argv)
    seatings = len(arrangements(find_variant(args.variant).n_seats))
    walls = max(1, -(-args.hands // seatings))
    began = time.perf_counter()
    result = duel(args.variant, args.a, args.b, walls, args.seed, args.start)
    for line in report(result):
        print(line)
    print(f"  {result.plays / (time.perf_counter() - began):.0f} hands/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
