"""docs/rules/common.md#always-a-move D-7 as a property: in every reachable state, every seat in ``awaiting()`` has at least one legal
action and a non-None ``default_action``, under several bot policies (issue 8).

The stress policies (engine.bots.stress) each exaggerate one habit: claims over wins (the habit that found the
freeze), never winning unless forced, declaring 聽 / 眼牌 / Miji whenever offered, kongs whenever possible; plus
the uniform ``random`` player and ``easy``.  This is the small sample run by ``make test``; the long run
(≥ 10,000 hands per variant per policy) is recorded in ``bench/results/d7_stress.md``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import get_policy
from engine.invariants import check_all, check_awaited_can_act
from engine.simulate import MIXES, parse_players, play_hand
from engine.state import HandState
from tests.engine.flow_helpers import ALL_VARIANTS

STRESS = ("claimer", "nowin", "declarer", "konger", "random", "easy")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(ALL_VARIANTS), seed=st.integers(0, 2**32 - 1),
       policies=st.lists(st.sampled_from(STRESS), min_size=4, max_size=4), policy_seed=st.integers(0, 2**16))
def test_d7_every_awaited_seat_can_act_under_every_policy(variant, seed, policies, policy_seed):
    """D-7: after the deal and after every action, each awaited seat has a legal action and a timeout action
    (check_awaited_can_act), with a random mix of stress policies at the table; the hand always ends."""
    hand = HandState.deal(variant, seed=seed, dealer=seed % variant.n_seats)
    rng = random.Random(policy_seed)
    seat_policies = [get_policy(p) for p in policies[:variant.n_seats]]
    check_awaited_can_act(hand)
    for _ in range(5000):
        if hand.is_over:
            break
        seat = rng.choice(hand.awaiting())
        hand.apply(seat_policies[seat](hand, seat, rng))
        check_awaited_can_act(hand)
    assert hand.is_over


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("policy", STRESS)
def test_d7_a_few_full_hands_per_policy_keep_every_invariant(variant, policy):
    """A small fixed sample per variant and policy with every invariant (D-7 included) after every action."""
    rng = random.Random(8)
    for seed in range(4):
        hand = HandState.deal(variant, seed=f"d7:{policy}:{seed}", dealer=seed % variant.n_seats)
        play_hand(hand, get_policy(policy), rng, check=True)
        check_all(hand)
        assert hand.is_over and hand.result is not None


def test_players_accepts_one_name_one_per_seat_or_a_mix():
    """``simulate --players``: any registered policy names, one for all seats or one per seat, or a mix."""
    assert parse_players("claimer", 3) == ["claimer"] * 3
    assert parse_players("normal,nowin,easy,random", 4) == ["normal", "nowin", "easy", "random"]
    assert parse_players("table", 4) == MIXES["table"].split(",")
    assert parse_players("table", 3) == MIXES["table"].split(",")[:3]
    with pytest.raises(ValueError, match="unknown bot policy 'nosuch'"):
        parse_players("easy,nosuch,easy,easy", 4)
    with pytest.raises(ValueError, match="1 or 3 policy names"):
        parse_players("easy,easy", 3)
