"""Commit–reveal walls: the commitment binds the seed, and the revealed seed re-deals and replays the hand."""

from __future__ import annotations

import hashlib
import random

import pytest

from app.bots import TableBots
from app.tables.fairness import commitment, new_wall_seed, verify_hand
from engine.state import HandState
from engine.variants import find_variant


def test_seeds_come_from_a_csprng_and_commit_with_sha256():
    a, b = new_wall_seed(), new_wall_seed()
    assert len(a.seed) == 64 and len(a.salt) == 32 and a.seed != b.seed
    assert a.commitment == hashlib.sha256((a.seed + a.salt).encode()).hexdigest() == commitment(a.seed, a.salt)


@pytest.mark.parametrize("variant", ["tiantai", "taipao", "taiwan"])
def test_the_revealed_seed_re_deals_and_replays_the_hand(variant):
    wall = new_wall_seed()
    hand = HandState.deal(find_variant(variant), seed=wall.seed, dealer=1, dealer_streak=2)
    bots, rng = TableBots(seed=3), random.Random(3)
    while not hand.is_over:
        hand.apply(bots.choose(hand, rng.choice(hand.awaiting())))
    replay = verify_hand(variant=variant, seed=wall.seed, salt=wall.salt, commitment_hex=wall.commitment,
                         dealer=1, round_wind=0, dealer_streak=2, options=hand.options,
                         actions=[a.to_json() for a in hand.actions])
    assert replay.result.public_json(replay) == hand.result.public_json(hand)
    assert [e.for_seat(None) for e in replay.events] == [e.for_seat(None) for e in hand.events]
    with pytest.raises(ValueError, match="commitment"):
        verify_hand(variant=variant, seed=wall.seed, salt="0" * 32, commitment_hex=wall.commitment, dealer=1,
                    round_wind=0, dealer_streak=2, options=hand.options, actions=[])
