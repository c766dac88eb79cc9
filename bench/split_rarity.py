"""How often 台炮 hands reach 分牌, per bot level (F-7: roughly 0.1–0.3 % of hands, depending on the level).

    python bench/split_rarity.py [--hands 20000] [--levels normal strong] [--seed 1]

Every seat plays the level's bot (engine.simulate, whole games, the first dealer at seat 0: the dealer does not
change the rate).  A hand counts when it reached 分牌 (won on a 分牌 tile or ended 黄牌).  Prints one Markdown row
per level with the rate and its binomial standard error; bench/results/split_rarity.md keeps the figures and
tests/engine/test_flow_split_deal_and_first_dealer.py checks them against F-7.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.simulate import simulate  # noqa: E402


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--levels", nargs="+", default=["normal", "strong"])
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    print("| bot level | hands | reached 分牌 | rate | standard error | CPU s |")
    print("|---|---|---|---|---|---|")
    for level in args.levels:
        started = time.process_time()
        tally = simulate("taipao", args.hands, seed=args.seed, players=level, check=False)
        rate = tally.split_reached / tally.hands
        error = math.sqrt(rate * (1 - rate) / tally.hands)
        print(f"| {level} | {tally.hands} | {tally.split_reached} | {100 * rate:.2f} % | {100 * error:.2f} % | "
              f"{time.process_time() - started:.0f} | <!-- rate: {100 * rate:.2f} % -->", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
