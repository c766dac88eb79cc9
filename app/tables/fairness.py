"""Provably fair walls (server-lessons §7.8): commit to each hand's seed before it is dealt, reveal it after.

Each hand's seed is ``secrets.token_hex(32)`` and its salt ``secrets.token_hex(16)``.  At hand start every
seat receives ``commitment = sha256((seed + salt).encode()).hexdigest()`` (the two hex strings joined,
UTF-8 encoded); at hand end the seed and salt are revealed.  The wall
is a pure function of the seed (``HandState.deal`` is deterministic), so anyone can check the commitment
and re-deal the hand, then replay the recorded actions: ``verify_hand`` does both.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.state import HandState
from engine.variants import find_variant


@dataclass(frozen=True, slots=True)
class WallSeed:
    seed: str
    salt: str

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.salt)


def new_wall_seed() -> WallSeed:
    return WallSeed(secrets.token_hex(32), secrets.token_hex(16))


def commitment(seed: str, salt: str) -> str:
    return hashlib.sha256((seed + salt).encode()).hexdigest()


def verify_hand(*, variant: str, seed: str, salt: str, commitment_hex: str, dealer: int, round_wind: int,
                dealer_streak: int, options: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> HandState:
    """Check the commitment, re-deal the hand from its seed and replay its actions.

    Returns the replayed hand (compare its ``result`` with the published one); raises ``ValueError`` when
    the commitment does not match the seed and salt, or an action does not replay.
    """
    if commitment(seed, salt) != commitment_hex:
        raise ValueError("commitment does not match sha256(seed ‖ salt)")
    hand = HandState.deal(find_variant(variant), seed=seed, dealer=dealer, round_wind=round_wind,
                          dealer_streak=dealer_streak, options=options)
    for data in actions:
        hand.apply(Action.from_json(dict(data)))
    return hand
