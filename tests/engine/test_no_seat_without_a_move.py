"""docs/rules/common.md#always-a-move D-7: every seat the hand waits on has at least one legal action.

The reproduction is the one in issue 8: in 台炮 a seat offered both a win and a pong takes the pong, which would
leave only 財神 concealed (a 財神 can be neither discarded nor claimed with, docs/rules/taipao.md#caishen-use), so the seat would have
no legal action and the table would wait for ever.  D-7: such a claim is not offered.
"""

from __future__ import annotations

import pytest

from engine.invariants import InvariantViolation, check_awaited_can_act
from tests.engine.flow_helpers import TAIPAO, K, Phase, do, hand, offers, rig

# 財神 = 9p and 9s (the two tail tiles).  Seat 1 holds four pairs it will pong, 66m and the two 財神.
FREEZE_HANDS = ["1m 123456s 777s 123p 4678p", "11m22m33m44m66m 9p9s 1z2z3z4z",
                "2m3m4m6m 555z666z 23s8s 2p3p5p", ""]
FREEZE_DRAWS = ["2s", "3s", "2s", "3s"]


def _pass_others(state, claimer):
    """Everyone but ``claimer`` passes the open claim window."""
    while state.phase is Phase.CLAIMS and [s for s in state.awaiting() if s != claimer]:
        do(state, K.PASS, next(s for s in state.awaiting() if s != claimer))


def _to_the_last_claim(hands=FREEZE_HANDS):
    """Seat 1 pongs 1m, 2m, 3m, 4m (discarding 1z..4z); seat 2 discards 6m."""
    state = rig(TAIPAO, hands, draws=FREEZE_DRAWS, tail="9s 9p")
    assert {str(x) for x in state.wildcards} == {"9p", "9s"}
    do(state, K.DISCARD, 0, "1m")
    for pong, throw, next_discard in [("1m", "1z", "2m"), ("2m", "2z", "3m"), ("3m", "3z", "4m"),
                                      ("4m", "4z", "6m")]:
        _pass_others(state, 1)
        do(state, K.PONG, 1, pong)
        do(state, K.DISCARD, 1, throw)
        while state.phase is Phase.CLAIMS:
            do(state, K.PASS, state.awaiting()[0])
        assert state.current == 2
        do(state, K.DISCARD, 2, next_discard)
    _pass_others(state, 1)
    return state


def test_d7_freeze_reproduction_the_pong_that_leaves_only_caishen_is_not_offered():
    """D-7, issue 8's reproduction: seat 1 (66m + 財神 9p 9s concealed) is offered the win on 6m and a pass,
    but not the pong, after which only the two 財神 would remain and nothing could be discarded."""
    state = _to_the_last_claim()
    assert hand(state, 1) == "66m9p9s"
    assert state.awaiting() == [1]
    assert offers(state, 1, K.WIN)
    assert not offers(state, 1, K.PONG)
    assert {a.kind for a in state.legal_actions(1)} == {K.WIN, K.PASS}
    check_awaited_can_act(state)
    do(state, K.PASS, 1)  # passing goes on: the next seat draws and has a move
    assert state.awaiting() and state.default_action(state.awaiting()[0]) is not None


def test_d7_near_miss_a_pong_that_keeps_a_natural_tile_is_offered():
    """D-7 near miss: with one 財神 and a natural 7m beside 66m, the pong of 6m leaves 7m to discard, so it is
    offered (with the win and the pass); after it the seat's only move is to discard 7m."""
    hands = [FREEZE_HANDS[0], "11m22m33m44m66m 9p 7m 1z2z3z4z", *FREEZE_HANDS[2:]]
    state = _to_the_last_claim(hands)
    assert hand(state, 1) == "667m9p"
    assert {a.kind for a in state.legal_actions(1)} == {K.WIN, K.PONG, K.PASS}
    do(state, K.PONG, 1, "6m")
    assert [(a.kind, str(a.tile)) for a in state.legal_actions(1) if a.declare is None] == [(K.DISCARD, "7m")]
    check_awaited_can_act(state)


def test_d7_the_invariant_names_a_seat_left_without_a_move():
    """The check used by the simulator, the property tests and the table actor fails loudly on a stuck seat
    (here a stand-in that offers nothing)."""
    state = _to_the_last_claim()

    class Stuck:
        def __init__(self, real):
            self.real = real

        def awaiting(self):
            return self.real.awaiting()

        def legal_actions(self, seat):
            return []

        def default_action(self, seat, auto_play=False):
            return None

    with pytest.raises(InvariantViolation, match="seat 1 "):
        check_awaited_can_act(Stuck(state))  # type: ignore[arg-type]
