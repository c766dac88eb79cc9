"""docs/rules/README.md#decisions "Amendments of 2026-12-03" that concern the hand flow: E-4 (flower 財神 indicators), E-5 (the D-8
reserve wording: tests/engine/test_flow_kongs_and_replacements.py), E-8 (why 台炮 分牌 is rare) and E-9 (the
Miji window).  E-1 … E-3 are scoring rows in tests/scoring/test_caishen_pair_and_win_conditions.py; E-6 and
E-7 are server rules in tests/app."""

from __future__ import annotations

import pytest

from engine.actions import Declare
from engine.state import HandState
from engine.tiles import FLOWER_BASE
from tests.engine.flow_helpers import TAIPAO, TAIWAN, K, Phase, discard, do, rig, run_defaults, t

# --------------------------------------------------------------------------------------------------
# E-4 (with E-8's "about six live 財神"): a flower indicator yields no 財神 face and is not re-turned


def live_caishen(state: HandState) -> int:
    """財神 copies that can come into play: every tile of a 財神 face except the indicators (out of play)."""
    in_play = list(state.wall.tiles)
    for indicator in state.indicators:
        in_play.remove(indicator)
    return sum(1 for x in in_play if x in state.wildcards)


E4_CASES = [
    # (tail: the two indicators, faces in play, live 財神 copies)
    ("5m 9s", {"5m", "9s"}, 6),  # two-face mode: 3 + 3 live copies (E-8: "about six live 財神")
    ("5m 5m", {"5m"}, 2),  # same-face mode (docs/rules/taipao.md#caishen)
    ("1f 5m", {"5m"}, 3),  # E-4: the flower yields no face; the hand has one 財神 face
    ("1f 2f", set(), 0),  # E-4: both indicators flowers: no 財神 at all
]


@pytest.mark.parametrize(("tail", "faces", "live"), E4_CASES, ids=[c[0] for c in E4_CASES])
def test_e4_a_flower_indicator_yields_no_caishen_face_and_is_not_returned(tail: str, faces: set[str],
                                                                          live: int) -> None:
    """docs/rules/taipao.md#caishen E-4: a flower turned up as a 財神 indicator gives no face that can be held (each flower exists
    once and the indicators are out of play), and no other tile is turned up in its place: the indicators are
    still the last two tiles and the first replacement is the tile before them."""
    state = rig(TAIPAO, ["", "", "", ""], tail=f"{tail} 3z")  # the tail is listed from the last tile back
    in_play = {str(f) for f in state.wildcards if f < FLOWER_BASE}
    assert in_play == faces
    assert live_caishen(state) == live
    assert sorted(str(x) for x in state.indicators) == sorted(tail.split())  # not re-turned
    assert len(state.wall.out_of_play) == 2 and state.wall.tiles[state.wall.tail - 1] == t("3z")
    flowers_turned = [x for x in state.indicators if x >= FLOWER_BASE]
    assert not any(x in seat.tiles() or x in seat.flowers for seat in state.seats for x in flowers_turned)


# --------------------------------------------------------------------------------------------------
# E-8: 分牌 is rare because the reserve is 24 + 2K (杠一过二), not because it is unreachable


@pytest.mark.parametrize(("kongs", "reserve"), [(0, 24), (1, 26), (2, 28), (3, 30)])
def test_e8_the_split_deal_reserve_is_24_plus_2k(kongs: int, reserve: int) -> None:
    """docs/rules/taipao.md#split-deal E-8: 分牌 starts when 24 + 2K tiles remain (K kongs declared so far)."""
    state = rig(TAIPAO, ["", "", "", ""])
    state.kongs = kongs
    assert state.reserve() == reserve


def test_e8_a_hand_nobody_wins_reaches_the_split_deal_at_24() -> None:
    """docs/rules/taipao.md#split-deal E-8: a hand that nobody wins (every seat discards its draw) does reach 分牌, at exactly 24 tiles,
    and ends 黄牌 when no 分牌 tile wins."""
    state = rig(TAIPAO, ["111z 222z 333z 444z 5z 6z 1m", "", "", ""])
    run_defaults(state, lambda s: s.phase is Phase.ENDED)
    split = [e for e in state.events if e.type == "split_deal"]
    assert len(split) == 1 and split[0].public["wall"] == 24
    assert state.result is not None and state.result.winners == ()


# --------------------------------------------------------------------------------------------------
# E-9: 台灣 Miji counts the discards made before the declaring discard


def _at_discards(n: int) -> HandState:
    """A 台灣 hand (nobody claims) at the turn after ``n`` discards in total."""
    state = rig(TAIWAN, ["111z 222z 333z 444z 555z 66z", "", "", ""])
    run_defaults(state, lambda s: s.phase is Phase.TURN and s.discards_total == n)
    return state


E9_CASES = [
    # (discards made before the declaring discard, the declaration 眼牌 is)
    (0, Declare.MIJI),
    (7, Declare.MIJI),  # the declaring discard would be the 8th: it does not count (E-9)
    (8, Declare.EYE),
    (9, Declare.EYE),
]


@pytest.mark.parametrize(("before", "declaration"), E9_CASES)
def test_e9_miji_window_counts_the_discards_before_the_declaring_one(before: int, declaration: Declare) -> None:
    """docs/rules/taiwan.md#miji E-9 / C-11: "fewer than 8 tiles discarded" counts the discards made before the declaring
    discard; the declaring discard itself does not count."""
    state = _at_discards(before)
    seat = state.current
    offered = {a.declare for a in state.legal_actions(seat) if a.kind is K.DISCARD} - {None}
    assert offered == {declaration}
    tile = next(a.tile for a in state.legal_actions(seat) if a.declare is declaration)
    do(state, K.DISCARD, seat, str(tile), declare=declaration)
    assert state.seats[seat].declaration is declaration and state.discards_total == before + 1


def test_e9_near_miss_a_claim_closes_the_window_whatever_the_count() -> None:
    """docs/rules/taiwan.md#miji E-9 with C-11: the count is not the only condition: after a pong, 眼牌 is plain 眼牌 even with
    one discard made."""
    state = rig(TAIWAN, ["9p 111z 222z 333z 444z 555z 6z", "", "99p 123s 456s 789s 66z 5s 7s 1p", ""])
    discard(state, 0, "9p", pass_claims=False)
    do(state, K.PONG, 2, "9p")
    assert state.discards_total == 1
    assert {a.declare for a in state.legal_actions(2) if a.kind is K.DISCARD} - {None} == {Declare.EYE}
