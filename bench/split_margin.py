"""How far from 分牌 台炮 hands end (issue 12: why 分牌 and 黄牌 are rare with normal / strong players).

    python bench/split_margin.py --hands 1000 --policy normal

Every seat plays ``--policy``; for each hand it records how many tiles were still in the wall above the
分牌 point (24 + 2K, docs/rules/taipao.md#split-deal) when the hand ended (negative: it went into 分牌), and how many
normal draws the table made.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.bots import POLICIES  # noqa: E402
from engine.state import HandState  # noqa: E402
from engine.variants import find_variant  # noqa: E402


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--policy", default="normal")
    args = p.parse_args(argv)
    v = find_variant("taipao")
    policy = POLICIES[args.policy]
    margin: list[int] = []
    draws: list[int] = []
    for i in range(args.hands):
        hand = HandState.deal(v, seed=f"left:{i}", dealer=i % 4)
        rng = random.Random(i)
        while not hand.is_over:
            seat = hand.awaiting()[0]
            hand.apply(policy(hand, seat, rng))
        margin.append(hand.wall.remaining - hand.reserve())
        draws.append(sum(s.draws for s in hand.seats))
    deciles = [round(x) for x in statistics.quantiles(margin, n=10)]
    print(f"{args.policy}: tiles above the 分牌 point when the hand ended: median {statistics.median(margin)}, "
          f"deciles {deciles}, min {min(margin)}")
    print(f"  normal draws per hand (all four seats): median {statistics.median(draws)}, max {max(draws)}; "
          f"hands that ended within 4 tiles of 分牌 or in it: {100 * sum(m <= 4 for m in margin) / len(margin):.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
