"""docs/rules/README.md#decisions "Amendments of 2026-12-01" that concern the hand flow: D-6, D-8, D-9 and D-10 (D-1 and D-7 have
their own modules; D-2 … D-5 are scoring rows in tests/scoring).  Each amendment has a case and a near miss."""

from __future__ import annotations

import pytest

from engine.actions import Declare
from engine.scoring.situation import KongKind, WinKind
from tests.engine.flow_helpers import (
    TAIPAO,
    TAIWAN,
    TIANTAI,
    K,
    Phase,
    discard,
    do,
    offers,
    pass_all,
    rig,
    run_defaults,
    t,
)

# --------------------------------------------------------------------------------------------------
# D-6: 台炮 kong → flower replacement → win is 杠上开花


def test_d6_kong_then_flower_replacement_win_is_gangkai():
    """D-6: the dealer's 暗槓 5m draws 1f from the tail, whose replacement 1z completes the hand: the chain began
    with the kong, so it is a kong-replacement win (杠上开花 after 暗杠, +8), not a flower-replacement one."""
    state = rig(TAIPAO, ["5555m 123p 456p 789p 123s 1z", "", "", ""], tail="9s 8s 1f 1z")
    do(state, K.KONG, 0, "5m")
    assert state.seats[0].flowers == [t("1f")] and state.seats[0].drawn == t("1z")
    do(state, K.WIN, 0)
    r = state.result
    assert r.win_kind is WinKind.KONG_REPLACEMENT and r.situation.kong_kind is KongKind.CONCEALED
    assert {i.key: i.value for i in r.score.seats[0].items}["gangkai_concealed"] == 8


def test_d6_near_miss_a_flower_replacement_without_a_kong_is_not_gangkai():
    """D-6 / B-9 near miss: seat 1 draws 3f (no kong in the chain) and wins on its replacement: a flower-
    replacement win, no 杠上开花."""
    hands = ["111z 222z 333z 444z 555z 6z 7m", "123m 456m 789m 123p 456p 9p", "", ""]
    state = rig(TAIPAO, hands, draws=["3f"], tail="8s 9s 9p")
    discard(state, 0, "7m")
    do(state, K.WIN, 1)
    r = state.result
    assert r.win_kind is WinKind.FLOWER_REPLACEMENT and r.situation.kong_kind is None
    assert not {i.key for i in r.score.seats[1].items} & {"gangkai", "gangkai_concealed", "gangkai_special"}


def test_d6_is_taipao_data_taiwan_keeps_a_flower_replacement_after_a_claimed_kong():
    """D-6 is 台炮's rule (variant data), D-4 台灣's: after a 明槓 on a discard, a flower replacement and then a
    winning replacement, 台灣 scores a flower-replacement win, which is 槓上開花 there (seed 003:L56-60)."""
    assert TAIPAO.kong_chain_through_bonus and not TAIWAN.kong_chain_through_bonus
    hands = ["5m 111z 222z 333z 555z 66z 7z", "555m 123p 456p 789p 123s 9s", "", ""]
    state = rig(TAIWAN, hands, tail="1f 9s")
    discard(state, 0, "5m", pass_claims=False)
    for seat in [s for s in state.awaiting() if s != 1]:
        do(state, K.PASS, seat)
    do(state, K.KONG, 1, "5m")
    assert state.seats[1].flowers == [t("1f")]
    do(state, K.WIN, 1)
    r = state.result
    assert r.win_kind is WinKind.FLOWER_REPLACEMENT
    assert "kong_bloom" in {i.key for i in r.score.seats[1].items}


# --------------------------------------------------------------------------------------------------
# D-8: 台炮 kongs only while the 分牌 reserve stays exact

# Each seat holds four of a kind; playing the timeout action (discard the drawn tile, pass every claim)
# brings each seat's turn round with the wall at dealer 79, 75, …, 27; seat 1 78 … 26; seat 2 77 … 25.
D8_HANDS = ["7777m 111z 222z 333z 4z 5z", "5555m 111p 222p 333p 4p", "6666m 111s 222s 333s 4s", ""]


def _turn_of(seat, remaining):
    state = rig(TAIPAO, D8_HANDS, tail="8f 7f 9s")  # a kong's replacement is 9s (no flower chain)
    run_defaults(state, lambda s: s.phase is Phase.TURN and s.current == seat and s.wall.remaining == remaining)
    return state


D8_CASES = [
    # (seat, tiles left at its turn, 暗槓 offered): K = 0, so K′ = 1 and 24 + 2K′ = 26 must remain after the
    # replacement draw, 27 before the kong
    (1, 26, False),  # 25 would remain: the old wording ("24 + 2K", K = 0) allowed it and delayed 分牌
    (2, 25, False),
    (0, 27, True),  # exactly 26 remain after the replacement
    (1, 30, True),
    (2, 29, True),
]


@pytest.mark.parametrize(("seat", "left", "offered"), D8_CASES)
def test_d8_e5_a_kong_needs_24_plus_2k_prime_after_its_replacement(seat, left, offered):
    """docs/rules/taipao.md#own-turn D-8 as worded by E-5: after a kong's replacement at least 24 + 2K′ tiles must remain (K′ counts
    this kong), so that 分牌 still starts at exactly 24 + 2K′."""
    assert offers(_turn_of(seat, left), seat, K.KONG) is offered


def test_d8_near_miss_a_kong_with_27_tiles_left_keeps_the_reserve_exact():
    """D-8 / E-5 near miss: the dealer at 27 may kong; 分牌 then starts at exactly 24 + 2K′ = 26 tiles."""
    state = _turn_of(0, 27)
    assert offers(state, 0, K.KONG, "7m")
    do(state, K.KONG, 0, "7m")
    assert state.kongs == 1 and state.reserve() == 26 and state.wall.remaining == 26
    run_defaults(state, lambda s: s.phase in (Phase.SPLIT, Phase.ENDED))
    split = next(e for e in state.events if e.type == "split_deal")
    assert split.public["wall"] == 26


# --------------------------------------------------------------------------------------------------
# D-9: 加槓 with a tile held since before the pong


def test_d9_added_kong_with_a_tile_held_before_the_pong_on_a_later_turn():
    """D-9: seat 1 holds 555m, pongs the dealer's 5m keeping the third 5m; on its next own turn (after drawing
    something else) it may add that 5m to the pong."""
    hands = ["5m 222z 333z 444z 66z 77z", "555m 123p 456p 789p 1z", "111m 999m 444p 777p 2m"]
    state = rig(TIANTAI, hands, draws=["9p", "1p", "8p"])
    discard(state, 0, "5m", pass_claims=False)
    do(state, K.PONG, 1, "5m")
    assert not offers(state, 1, K.KONG)  # near miss: right after the claim only a discard
    discard(state, 1, "1z")
    discard(state, 2, "9p")
    discard(state, 0, "1p")
    assert state.current == 1 and state.seats[1].drawn == t("8p")
    assert offers(state, 1, K.KONG, "5m")
    do(state, K.KONG, 1, "5m")
    pass_all(state)
    assert state.seats[1].melds[0].kind.value == "kong" and state.seats[1].melds[0].added


# --------------------------------------------------------------------------------------------------
# D-10: what the first build already did


def test_d10_taipao_ready_is_offered_only_on_a_discard_that_leaves_the_hand_ready():
    """D-10 (台炮 聽, docs/rules/taipao.md#ting): 聽 comes only with the discard of 1z, which leaves 123m 456m 789m 123p 99p 11s
    waiting on 9p / 1s; the other discards (near misses) carry no 聽."""
    state = rig(TAIPAO, ["123m 456m 789m 123p 99p 11s 1z", "", "", ""])
    ready = {a.tile for a in state.legal_actions(0) if a.declare is Declare.READY}
    plain = {a.tile for a in state.legal_actions(0) if a.kind is K.DISCARD and a.declare is None}
    assert ready == {t("1z")} and len(plain) > 1


def test_d10_a_win_on_the_replacement_of_a_last_tile_flower_is_not_haidi():
    """D-10: the 海底 draw (the last drawable tile) of 台灣 is a flower; seat 3 wins on its replacement: a
    flower-replacement win (槓上開花 in 台灣), not 海底撈月."""
    hands = ["", "", "", "123m 456m 789m 123p 456p 9s"]
    # 海底 = wall index 144 − 16 − 1 = 127 (no replacement before it): drawn by seat 3
    state = rig(TAIWAN, hands, tail="9s 8f", head_at={127: "1f"})
    run_defaults(state, lambda s: bool(s.seats[3].flowers))
    assert state.phase is Phase.TURN and state.current == 3 and state.context.last
    assert state.seats[3].flowers == [t("1f")] and state.seats[3].drawn == t("9s")
    do(state, K.WIN, 3)
    r = state.result
    assert r.win_kind is WinKind.FLOWER_REPLACEMENT and not r.situation.last_tile
    keys = {i.key for i in r.score.seats[3].items}
    assert "kong_bloom" in keys and "last_tile" not in keys
