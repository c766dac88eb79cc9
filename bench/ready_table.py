"""The numbers behind the strong bot's defence (issue 12), measured over games of ``normal`` bots.

    python bench/ready_table.py --variant taiwan --hands 300

Prints three tables (results in bench/results/bots.md):
* **readiness**: the share of hands that are ready (聽牌) right after their owner's discard, by melds (rows)
  and discards made // 2 (columns) — ``engine.bots.defence.READY_TABLES``;
* **win chance**: the share of discards after which the discarder went on to win the hand, by its 向聽 after
  the discard (rows) and own draws left // 2 (columns) — ``engine.bots.strong.win_chance``;
* **deal-in calibration**: the predicted deal-in chance of each discard (``deal_in_chance`` from the
  discarder's sight) against how often it really dealt in.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.actions import ActionKind  # noqa: E402
from engine.bots import POLICIES  # noqa: E402
from engine.bots.defence import deal_in_chance, threat_map  # noqa: E402
from engine.bots.shanten import codes, exchange_shanten, need, remove, sight  # noqa: E402
from engine.state import HandState  # noqa: E402
from engine.variants import find_variant  # noqa: E402


def table(rows: dict[tuple[int, int], list[int]], n_rows: int, n_cols: int) -> list[str]:
    out = []
    for r in range(n_rows):
        cells = []
        for c in range(n_cols):
            hit, n = rows.get((r, c), [0, 0])
            cells.append(f"{100 * hit / n:4.0f}({n:5d})" if n >= 20 else "     -     ")
        out.append(f"{r} " + " ".join(cells))
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--variant", required=True)
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--policy", default="normal")
    args = p.parse_args(argv)
    v = find_variant(args.variant)
    policy = POLICIES[args.policy]
    ready: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    wins: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    risk: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for i in range(args.hands):
        hand = HandState.deal(v, seed=f"ready:{i}", dealer=i % v.n_seats)
        rng = random.Random(i)
        records: list[tuple[int, int, int, int]] = []  # seat, 向聽, draws-left bucket, risk bucket
        while not hand.is_over:
            seat = hand.awaiting()[0]
            a = policy(hand, seat, rng)
            if a.kind is ActionKind.DISCARD and a.tile is not None:
                view = sight(hand, seat)
                chance = deal_in_chance(view, int(a.tile), threat_map(hand, seat))
                c = codes(view.natural())
                remove(c, int(a.tile))
                sh = min(exchange_shanten(c, view.jokers), 4)
                hand.apply(a)
                s = hand.seats[seat]
                key = (len(s.melds), min(s.discards_made, 16) // 2)
                ready[key][0] += need(c, view.jokers) <= 1
                ready[key][1] += 1
                left = (hand.wall.remaining - hand.reserve()) / hand.n
                records.append((seat, sh, min(int(left // 2), 8), min(int(chance / 0.01), 15)))
            else:
                hand.apply(a)
        result = hand.result
        assert result is not None
        for k, (seat, sh, left_bucket, risk_bucket) in enumerate(records):
            wins[(sh, left_bucket)][0] += seat in result.winners
            wins[(sh, left_bucket)][1] += 1
            dealt = bool(result.winners) and result.discarder == seat and k == len(records) - 1
            risk[(risk_bucket, 0)][0] += dealt
            risk[(risk_bucket, 0)][1] += 1
    print(f"variant={args.variant} policy={args.policy} hands={args.hands}")
    print("readiness % (count) by melds (rows) and discards made // 2 (columns)")
    print("\n".join(table(ready, 6, 9)))
    print("win chance % (count) by 向聽 after the discard (rows) and own draws left // 2 (columns)")
    print("\n".join(table(wins, 5, 9)))
    print("deal-in calibration: predicted deal-in chance bucket (1% wide) → real deal-in %")
    for b in range(16):
        hit, n = risk.get((b, 0), [0, 0])
        if n:
            print(f"  {b:2d}%: {100 * hit / n:5.1f}% of {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
