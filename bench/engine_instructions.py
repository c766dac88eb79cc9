"""The engine's cost in instructions, which do not drift with the hour as seconds do on a shared machine.

    python bench/engine_instructions.py                     # every variant, 40 hands each
    python bench/engine_instructions.py taipao --hands 100

For each variant it runs this file twice under ``valgrind --tool=callgrind`` (Debian's valgrind), once playing
``--hands`` random full-rule hands (``engine_bench``'s ``play_random_hand``, the same seeds every time) and once
playing none, and prints the difference per hand: the instructions one hand costs, start-up and imports
excluded.  Two builds (say, a checkout with the compiled engine and one without, or two commits) compare by
running it in each; with the hash seed fixed, the same build gives the same figure run after run.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VARIANTS = ("tiantai", "taipao", "taiwan")


def play(variant: str, hands: int) -> None:
    """The measured work: ``hands`` random hands of ``variant`` (after one more that loads the lazy tables)."""
    sys.path.insert(0, str(HERE.parent))  # this checkout's engine, whatever the environment installed
    sys.path.insert(0, str(HERE))
    import engine_bench

    engine_bench.play_random_hand(variant, 10_000)
    for seed in range(hands):
        engine_bench.play_random_hand(variant, seed)


def instructions(variant: str, hands: int) -> int:
    """Instructions callgrind counted for a whole run of this file that plays ``hands`` hands."""
    # A fixed hash seed: string hashes (so the order of sets and the work of some look-ups) vary between runs
    # otherwise, by about 2 % of a hand's instructions.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--play", variant, str(hands)], capture_output=True, text=True, check=True,
                         env=env)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count: {run.stderr[-500:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", help=f"any of {', '.join(VARIANTS)} (default: all)")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--play", nargs=2, metavar=("VARIANT", "HANDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play[0], int(args.play[1]))
        return 0
    unknown = set(args.variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variant(s): {', '.join(sorted(unknown))}")
    for variant in args.variants or VARIANTS:
        per_hand = (instructions(variant, args.hands) - instructions(variant, 0)) / args.hands
        print(f"{variant:8s} {per_hand:12,.0f} instructions a hand ({args.hands} hands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
