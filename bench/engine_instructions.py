"""The engine's cost in instructions, which do not drift with the hour as seconds do on a shared machine.

    python bench/engine_instructions.py                     # every variant, 40 hands each
    python bench/engine_instructions.py taipao --hands 100
    python bench/engine_instructions.py --policy normal --cache 16M   # the server's bots; a 16 MB last-level cache

For each variant it runs this file twice under ``valgrind --tool=callgrind`` (Debian's valgrind), once playing
``--hands`` random full-rule hands (``engine_bench``'s ``play_random_hand``, the same seeds every time) and once
playing none, and prints the difference per hand: the instructions one hand costs, start-up and imports
excluded.  Two builds (say, a checkout with the compiled engine and one without, or two commits) compare by
running it in each; with the hash seed fixed, the same build gives the same figure run after run.

``--policy LEVEL`` has every seat play that bot level instead of random moves (``normal`` is what the server's
bots play).  ``--cache SIZE`` runs ``valgrind --tool=cachegrind`` with its cache simulation instead, a
last-level cache of ``SIZE`` bytes (16-way, 64-byte lines; ``K``/``M`` suffixes), and prints the data reads
that missed the first-level cache and the last-level one per hand too: what a hand costs in memory traffic,
which instructions do not show and which no clock here measures steadily (two processes share this machine's
last-level cache, so each may keep about half of it).
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VARIANTS = ("tiantai", "taipao", "taiwan")


def play(variant: str, hands: int, policy: str) -> None:
    """The measured work: ``hands`` hands of ``variant``, every seat playing ``policy`` (after one more hand
    that loads the lazy tables)."""
    sys.path.insert(0, str(HERE.parent))  # this checkout's engine, whatever the environment installed
    sys.path.insert(0, str(HERE))
    import engine_bench

    one = engine_bench.play_random_hand if policy == "random" else functools.partial(_bot_hand, policy)
    one(variant, 10_000)
    for seed in range(hands):
        one(variant, seed)


def _bot_hand(level: str, variant_name: str, seed: int) -> None:
    """One hand of ``variant_name`` dealt from ``seed`` with every seat played by the bot ``level``, as the
    server asks its bots (the legal actions first)."""
    from engine.bots import POLICIES
    from engine.state import HandState
    from engine.variants import find_variant

    variant, policy = find_variant(variant_name), POLICIES[level]
    hand = HandState.deal(variant, seed=seed, dealer=seed % variant.n_seats)
    rng = random.Random(seed)
    while not hand.is_over:
        seat = hand.awaiting()[0]
        hand.legal_actions(seat)
        hand.apply(policy(hand, seat, rng))


def counts(variant: str, hands: int, policy: str, cache: int | None) -> dict[str, int]:
    """What valgrind counted for a whole run of this file that plays ``hands`` hands: instructions, and with
    ``cache`` (a last-level cache of that many bytes) the data reads missing the first and the last level."""
    # A fixed hash seed: string hashes (so the order of sets and the work of some look-ups) vary between runs
    # otherwise, by about 2 % of a hand's instructions.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    tool = (["--tool=callgrind", "--callgrind-out-file=/dev/null"] if cache is None else
            ["--tool=cachegrind", "--cachegrind-out-file=/dev/null", "--cache-sim=yes", f"--LL={cache},16,64"])
    run = subprocess.run(["valgrind", *tool, sys.executable, __file__, "--play", variant, str(hands), policy],
                         capture_output=True, text=True, check=True, env=env)
    patterns = {"instructions": r"Collected : (\d+)"} if cache is None else {
        "instructions": r"I\s+refs:\s+([\d,]+)", "D1 read misses": r"D1\s+misses:\s+[\d,]+\s+\(\s*([\d,]+) rd",
        "LL read misses": r"LLd misses:\s+[\d,]+\s+\(\s*([\d,]+) rd"}
    found = {}
    for name, pattern in patterns.items():
        match = re.search(pattern, run.stderr)
        if match is None:
            raise RuntimeError(f"valgrind printed no {name}: {run.stderr[-800:]}")
        found[name] = int(match.group(1).replace(",", ""))
    return found


def _size(text: str) -> int:
    """Bytes from ``16M``, ``512K`` or a plain number."""
    scale = {"K": 1 << 10, "M": 1 << 20}.get(text[-1:].upper(), 1)
    return int(text[:-1] if scale > 1 else text) * scale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", help=f"any of {', '.join(VARIANTS)} (default: all)")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--policy", default="random", help="random (default) or a bot level: easy, normal, strong")
    parser.add_argument("--cache", type=_size, help="simulate a last-level cache of this size (e.g. 16M)")
    parser.add_argument("--play", nargs=3, metavar=("VARIANT", "HANDS", "POLICY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.play[0], int(args.play[1]), args.play[2])
        return 0
    unknown = set(args.variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variant(s): {', '.join(sorted(unknown))}")
    for variant in args.variants or VARIANTS:
        full, none = (counts(variant, n, args.policy, args.cache) for n in (args.hands, 0))
        figures = ", ".join(f"{(full[k] - none[k]) / args.hands:,.0f} {k}" for k in full)
        print(f"{variant:8s} {figures} a hand ({args.hands} hands, {args.policy})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
