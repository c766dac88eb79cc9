"""The strong bot's 台炮 value choices (issue 12), against normal on the same dealt hands (engine.rigging).

* docs/rules/taipao.md#scoring: every kong scores 台 in every seat's B (明杠 3 / 暗杠 4), in the winner's total and in the
  losers' pairwise settlement, so strong declares an 暗槓 that normal (tile efficiency only) declines —
  unless it would turn a ready hand unready.
* docs/rules/taipao.md#kill-pig / docs/rules/taipao.md#winner-items: plain 杀猪 is worth 13 台 alone, 杀猪胡 adds the same 13 to the hand's own B and
  X; the holding can be declared on any later turn.  A ready strong hand waits for 杀猪胡; a far one kills
  now.  Normal declares it at once (it takes every win).

The 財神 faces are chosen with the two turned-up tail tiles (``tail``).
"""

from __future__ import annotations

import random

import pytest

from engine.bots import POLICIES
from engine.bots.normal import best_after_discard
from engine.bots.shanten import codes, need, sight
from tests.engine.flow_helpers import TAIPAO, K, kinds, rig


def _choose(level: str, state) -> object:
    return POLICIES[level](state, 0, random.Random(0))


@pytest.mark.parametrize(("dealer_hand", "strong_kongs"), [
    ("5555m 46m 129p 7p 3s 1s 5s 9s 1z 2z 3z", True),  # far from ready: the kong's 4 台 cost no chance
    ("5555m 67m 129p 7p 3s 1s 5s 9s 1z 2z 3z", True),
    ("5555m 4m 6m 3m 7m 123p 456p 11s 9s", False),  # ready with 9s out; the kong would unready it
])
def test_strong_declares_the_kongs_that_pay(dealer_hand, strong_kongs):
    state = rig(TAIPAO, [dealer_hand, "", "", ""], tail="2s 8s")
    assert K.KONG in kinds(state, 0)
    assert _choose("normal", state).kind is K.DISCARD  # efficiency alone keeps the four
    assert (_choose("strong", state).kind is K.KONG) is strong_kongs


@pytest.mark.parametrize(("dealer_hand", "ready"), [
    ("555m 9s 111p 222p 1z 1z 3z 6z 13s 8s", True),  # 3 + 1 財神, ready after throwing 8s: wait for 杀猪胡
    ("555m 9s 111p 222p 1z 2z 3z 6z 13s 8s", False),  # 3 + 1 財神, far: take the 13 台 now
    ("555m 9s 123p 456p 1z 3z 4z 6z 2s 8s 9p", False),
])
def test_strong_waits_for_the_pig_win_only_when_ready(dealer_hand, ready):
    state = rig(TAIPAO, [dealer_hand, "", "", ""], tail="5m 9s")
    assert K.KILL_PIG in kinds(state, 0) and K.WIN not in kinds(state, 0)
    view = sight(state, 0)
    nat = view.natural()
    assert (best_after_discard(nat, codes(nat), view.jokers, need) <= 1) is ready
    assert _choose("normal", state).kind is K.KILL_PIG
    strong = _choose("strong", state)
    assert strong.kind is (K.DISCARD if ready else K.KILL_PIG)
    if ready:
        state.apply(strong)
        assert not state.is_over and state.seats[0].jokers == 4  # the holding is kept for a later turn
