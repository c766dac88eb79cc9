"""Digests of many bot-played hands, to show that two builds play the same hands bit for bit (issue 36).

    python bench/hand_fingerprint.py [--hands 300]

For every variant and player mix, plays ``--hands`` hands (seeds 0.., the dealer ``seed % seats``, the
policies' ``random.Random(seed)``), hashes every event (seq, type, public, private), the action list and so
the result (the ``hand_end`` event), and checks that each hand replays from its seed and actions to the same
events.  Run it in two checkouts (or with and without ``make compiled``) and compare the lines: one digest
per variant and mix, then a total.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.bots import get_policy  # noqa: E402
from engine.state import HandState  # noqa: E402
from engine.variants import find_variant  # noqa: E402

MIXES = {
    "random": ["random"] * 4,
    "greedy": ["easy"] * 4,
    "normal": ["normal"] * 4,
    "table": ["normal", "random", "easy", "random"],
    "strong": ["strong", "normal", "strong", "easy"],  # a third of the hands: strong is the slowest
}


def hand_digest(variant_name: str, seed: int, players: list[str]) -> str:
    """The digest of one hand's events and actions; raises if its replay differs."""
    variant = find_variant(variant_name)
    dealer = seed % variant.n_seats
    hand = HandState.deal(variant, seed=seed, dealer=dealer)
    rng = random.Random(seed)
    policies = [get_policy(name) for name in players]
    while not hand.is_over:
        seat = hand.awaiting()[0]
        hand.apply(policies[seat](hand, seat, rng))
    h = hashlib.sha256()
    for e in hand.events:
        private = {str(k): v for k, v in e.private.items()}
        h.update(json.dumps([e.seq, e.type, e.public, private], sort_keys=True, default=str).encode())
    h.update(json.dumps([a.to_json() for a in hand.actions]).encode())
    again = HandState.replay(variant, hand.actions, seed=seed, dealer=dealer)
    if [(e.seq, e.type, e.public, e.private) for e in again.events] != \
            [(e.seq, e.type, e.public, e.private) for e in hand.events]:
        raise AssertionError(f"{variant_name} seed {seed}: the replay differs")
    return h.hexdigest()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=300)
    args = p.parse_args()
    total = hashlib.sha256()
    for variant in ("tiantai", "taipao", "taiwan"):
        for mix, players in MIXES.items():
            n = args.hands // 3 if mix == "strong" else args.hands
            digest = hashlib.sha256()
            for seed in range(n):
                digest.update(hand_digest(variant, seed, players).encode())
            print(f"{variant:8} {mix:7} {n:5} hands  {digest.hexdigest()[:16]}", flush=True)
            total.update(digest.digest())
    print(f"total {total.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
