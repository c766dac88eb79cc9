"""台灣16張 hand flow: docs/rules/taiwan.md and ambiguities C-4, C-5, C-9, C-10, C-11, C-12, C-16, C-17.

Seats: 4 players, dealer 0 unless a test says otherwise; the 下家 of seat i is i+1 (mod 4), and only the
下家 of a discarder may chow.  In 台灣 白 (7z) is an ordinary tile; only f1-f8 are bonus tiles.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.invariants import check_all, tile_places
from engine.match import Match
from engine.scoring.situation import Declaration, WinKind
from engine.state import HandState
from engine.tiles import TILES
from tests.engine.flow_helpers import (
    TAIWAN,
    Declare,
    FinishedHand,
    K,
    Phase,
    discard,
    do,
    event_types,
    kinds,
    offers,
    rig,
    run_defaults,
    t,
    ts,
)

# --------------------------------------------------------------------------------------------------
# Tiles, winds, deal (docs/rules/taiwan.md)


def test_r1_144_tiles_four_players_16_tile_hands():
    """docs/rules/taiwan.md#tiles: 144 tiles, 4 players, 16 tiles (dealer 17); no 財神."""
    expected = Counter({x: 4 for x in ts("123456789m 123456789p 123456789s 1234567z")})
    expected.update(ts("12345678f"))
    assert Counter(TAIWAN.kinds) == expected and TAIWAN.n_seats == 4
    for seed in range(5):
        state = HandState.deal(TAIWAN, seed=seed, dealer=seed % 4)
        assert tile_places(state) == expected and state.wildcards == ()
        for s, seat in enumerate(state.seats):
            assert seat.concealed_count() == (17 if s == state.dealer else 16)
            assert not any(x.is_flower for x in seat.tiles())


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("dealer", [0, 3])
def test_r2_c5_open_seat_from_three_dice_every_hand(seed, dealer):
    """docs/rules/taiwan.md#winds / C-5, seed 003:L31: 3 dice, counted counterclockwise from the dealer as 1:
    open_seat = (dealer + sum − 1) mod 4 is 東, its 下家 南, 對家 西, 上家 北."""
    state = HandState.deal(TAIWAN, seed=seed, dealer=dealer)
    assert len(state.dice) == 3 and all(1 <= d <= 6 for d in state.dice)
    open_seat = (dealer + sum(state.dice) - 1) % 4
    assert state.open_seat == open_seat
    assert [state.seat_winds[(open_seat + i) % 4] for i in range(4)] == [0, 1, 2, 3]
    assert state.view(None)["open_seat"] == open_seat
    assert state.events[0].public["open_seat"] == open_seat


def test_c5_open_seat_changes_from_hand_to_hand():
    """docs/rules/taiwan.md#winds C-5: 隨開門 is thrown per hand, not fixed for the game."""
    m = Match(TAIWAN, first_dealer=0)
    seen = {m.new_hand(seed).open_seat for seed in range(30)}
    assert len(seen) > 1


def test_r4_deal_four_at_a_time_then_the_dealers_17th():
    """docs/rules/taiwan.md#deal: 4 tiles at a time until each has 16 (dealer first, counterclockwise), then the
    dealer's 17th."""
    import random

    plain = [TILES[k] for k in TAIWAN.kinds if k < 34]
    random.Random(8).shuffle(plain)
    wall = plain + [TILES[k] for k in TAIWAN.kinds if k >= 34]
    dealer = 2
    state = HandState.deal(TAIWAN, seed=0, dealer=dealer, wall=wall)
    for s in range(4):
        k = (s - dealer) % 4
        mine = Counter(x for p in range(4) for x in wall[16 * p + 4 * k: 16 * p + 4 * k + 4])
        if s == dealer:
            mine[wall[64]] += 1
        assert Counter(state.seats[s].tiles()) == mine


def test_r5_initial_flowers_dealer_first_until_none_left():
    """docs/rules/taiwan.md#flowers: flowers are replaced from the tail, dealer first then counterclockwise, repeatedly
    until nobody holds one."""
    state = rig(TAIWAN, ["1f 123m 456m 789m 123p 456p 9p", "", "2f 123s 456s 789s 234p 567p", ""],
                tail="3f 5m 6m")
    flow = [(e.type, e.public.get("seat"), e.public.get("tile")) for e in state.events[1:]]
    assert flow == [("flower", 0, "1f"), ("draw", 0, None), ("flower", 2, "2f"), ("draw", 2, None),
                    ("flower", 0, "3f"), ("draw", 0, None)]
    assert all(not any(x.is_flower for x in s.tiles()) for s in state.seats)


def test_r6_r18_reserve_16_and_exhaustive_draw_pays_nothing():
    """docs/rules/taiwan.md#reserve, docs/rules/taiwan.md#exhaustive-draw: a normal draw is allowed while more than 16 tiles remain; then 流局, no
    payment."""
    state = rig(TAIWAN, ["111z 222z 333z 444z 555z 66z", "", "", ""])
    run_defaults(state, lambda s: False)
    r = state.result
    assert r.is_draw and state.wall.remaining == 16
    assert len([e for e in state.events if e.type == "draw" and not e.public["tail"]]) == 144 - 65 - 16
    assert r.score.payments == () and r.score.net == [0, 0, 0, 0]


# --------------------------------------------------------------------------------------------------
# Claims (docs/rules/taiwan.md#claims, docs/rules/taiwan.md#robbing, C-17)

JIEHU = ["4m 111z 222z 333z 444z 555z 6z", "111p 222p 333p 999s 123s 5s", "23m 444p 555p 666p 777p 11s",
         "56m 888p 999p 222s 333s 66z"]


@pytest.mark.parametrize("dealer", [0, 1])
def test_r7_c17_two_winners_only_the_first_counterclockwise_wins(dealer):
    """docs/rules/taiwan.md#claims / C-17: several 胡 claims on one discard: 截胡, the first counterclockwise from the
    discarder (not the lowest seat number)."""
    hands = [JIEHU[(s - dealer) % 4] for s in range(4)]
    state = rig(TAIWAN, hands, dealer=dealer)
    discard(state, dealer, "4m", pass_claims=False)
    w1, w2 = (dealer + 2) % 4, (dealer + 3) % 4
    assert offers(state, w1, K.WIN) and offers(state, w2, K.WIN)
    do(state, K.WIN, w2)
    do(state, K.WIN, w1)
    assert state.result.winners == (w1,) and state.result.discarder == dealer


def test_r8_concealed_kong_cannot_be_robbed():
    """docs/rules/taiwan.md#robbing, seed 003:L66: only a 加槓 can be robbed."""
    state = rig(TAIWAN, ["5555m 111p 222p 333p 1z 2z 3z 4z", "34m 678m 456p 789p 678s 66z", "", ""],
                tail="9s")
    events = do(state, K.KONG, 0, "5m")
    assert event_types(events) == ["kong", "draw"] and state.phase is Phase.TURN


# --------------------------------------------------------------------------------------------------
# 過水 (docs/rules/taiwan.md#pass-lock)

GUOSHUI = ["5m 111p 222p 333p 1z 2z 3z 4z 5z 6z 7z", "5m 111s 222s 333s 444s 99s 6z",
           "789m 456p 789p 678s 555s 1z", "46m 111m 999m 567s 234p 77p"]


def _pass_then_second_5m(draws):
    state = rig(TAIWAN, GUOSHUI, draws=draws)
    discard(state, 0, "5m", pass_claims=False)
    assert kinds(state, 3) == {K.WIN, K.PASS}
    do(state, K.PASS, 3)
    events = discard(state, 1, "5m", pass_claims=False)
    assert event_types(events) == ["discard", "draw"]  # seat 3 was not offered the second 5m
    assert state.current == 2
    return state


def test_r9_passed_win_not_offered_again_on_a_discard():
    """docs/rules/taiwan.md#pass-lock: after passing a win on 5m, seat 3 is not offered 5m from the next discard."""
    _pass_then_second_5m(["2z"])


def test_r9_passed_win_blocks_self_draw_until_own_discard():
    """docs/rules/taiwan.md#pass-lock: 過水 also forbids a self-drawn win on that tile until after the player's own next
    discard (unlike 天台, docs/rules/tiantai.md#pass-locks)."""
    state = _pass_then_second_5m(["2z", "2z", "5m"])
    discard(state, 2, "2z")
    assert state.current == 3 and state.seats[3].drawn == t("5m")
    assert state.can_win_with(3)  # the shape wins...
    assert K.WIN not in kinds(state, 3)  # ...but 過水 forbids it


def test_r9_passed_win_unlocked_after_own_discard():
    """docs/rules/taiwan.md#pass-lock: after seat 3's own discard, a 5m discard may be won on again."""
    state = _pass_then_second_5m(["2z", "2z", "5m", "5m"])
    discard(state, 2, "2z")
    discard(state, 3, "5m")
    assert state.current == 0 and state.seats[0].drawn == t("5m")
    discard(state, 0, "5m", pass_claims=False)
    assert kinds(state, 3) == {K.WIN, K.PASS}


def test_r9_passed_pong_is_not_restricted():
    """docs/rules/taiwan.md#pass-lock: 過碰 is not restricted in 台灣: the next 9p may be ponged."""
    hands = ["9p 111z 222z 333z 444z 555z 6z", "9p 111s 222s 333s 444s 99s 6z", "99p 123m 456m 789m 567s 8s 1z",
             "234p 345p 567p 222m 333m 7z"]
    state = rig(TAIWAN, hands, draws=["7z"])
    discard(state, 0, "9p", pass_claims=False)
    assert kinds(state, 2) == {K.PONG, K.PASS}
    do(state, K.PASS, 2)
    discard(state, 1, "9p", pass_claims=False)
    assert kinds(state, 2) == {K.PONG, K.PASS}


def test_r8_r9_passed_win_also_blocks_robbing_a_kong():
    """docs/rules/taiwan.md#robbing, docs/rules/taiwan.md#pass-lock: seat 2 passed a win on 5m and has not discarded since; when the dealer adds the
    4th 5m to its pong, only seat 3 may rob it."""
    hands = ["55m 1m 111p 222p 333p 2z 3z 4z 5z 6z", "111s 222s 333s 444s 99s 6z 5z",
             "34m 678m 456p 789p 678s 66z", "456m 111m 999m 567s 234p 7p"]
    state = rig(TAIWAN, hands, draws=["1z", "3z", "7p", "5m"])
    discard(state, 0, "2z")
    discard(state, 1, "1z")
    discard(state, 2, "3z")
    discard(state, 3, "5m", pass_claims=False)
    assert kinds(state, 2) == {K.WIN, K.PASS}
    do(state, K.PASS, 2)
    do(state, K.PONG, 0, "5m")
    discard(state, 0, "1m", pass_claims=False)
    assert offers(state, 3, K.PONG, "1m")
    do(state, K.PONG, 3, "1m")
    discard(state, 3, "1m")
    assert state.current == 0 and state.seats[0].drawn == t("5m")
    do(state, K.KONG, 0, "5m")
    assert state.phase is Phase.ROB
    assert kinds(state, 2) == set() and kinds(state, 3) == {K.WIN, K.PASS}
    do(state, K.WIN, 3)
    assert state.result.winners == (3,) and state.result.win_kind is WinKind.ROB_KONG


# --------------------------------------------------------------------------------------------------
# Last tile (docs/rules/taiwan.md#last-tile)

HAIDI_INDEX = 65 + 63 - 1  # draw #63 is the last (16 left afterwards); seat 63 mod 4 = 3 draws it


@pytest.mark.parametrize("index, pong_offered", [(HAIDI_INDEX - 4, True), (HAIDI_INDEX, False)])
def test_r10_discard_after_the_last_draw_can_only_be_won_on(index, pong_offered):
    """docs/rules/taiwan.md#last-tile: the discard made after the 海底 draw can only be won on (no pong); 河底 is not a
    self-draw (no 海底撈月)."""
    hands = ["99p 111z 222z 333z 444z 5z 6z 7z", "123m 456m 789m 123p 456p 9p", "", ""]
    state = rig(TAIWAN, hands, head_at={index: "9p"})
    run_defaults(state, lambda s: s.phase is Phase.TURN and s.wall.head == index + 1)
    assert state.current == 3 and state.seats[3].drawn == t("9p")
    assert state.context.last is (index == HAIDI_INDEX)
    discard(state, 3, "9p", pass_claims=False)
    assert offers(state, 0, K.PONG) is pong_offered
    assert offers(state, 1, K.WIN)
    if not pong_offered:
        do(state, K.WIN, 1)
        assert "last_tile" not in {i.key for i in state.result.score.seats[1].items}


def test_r10_self_drawn_win_on_the_last_tile():
    """docs/rules/taiwan.md#last-tile, docs/rules/taiwan.md#tai-table 海底撈月 (seed 003:L43-47): self-drawn on the last drawable tile."""
    hands = ["111z 222z 333z 444z 555z 66z", "", "", "123m 456m 789m 123p 456p 9p"]
    state = rig(TAIWAN, hands, head_at={HAIDI_INDEX: "9p"})
    run_defaults(state, lambda s: s.phase is Phase.TURN and s.wall.head == HAIDI_INDEX + 1)
    assert state.current == 3 and state.wall.remaining == 16
    assert not offers(state, 3, K.KONG)
    do(state, K.WIN, 3)
    sit = state.result.situation
    assert sit.win_kind is WinKind.SELF_DRAW and sit.last_tile


# --------------------------------------------------------------------------------------------------
# 眼牌 / Miji (docs/rules/taiwan.md#eye, docs/rules/taiwan.md#miji, C-9, C-10, C-11)

EYE = ["123m 456m 789m 123p 456p 9s 1z", "111s 222s 333s 444s 555s 6z", "222m 333m 444m 555m 666m 7z",
       "777p 888p 999p 444p 3p 55z 6z"]


def _declare(draws, declare=Declare.MIJI):
    state = rig(TAIWAN, EYE, draws=draws)
    decl = {a.declare for a in state.legal_actions(0) if a.kind is K.DISCARD}
    assert decl == {None, Declare.MIJI}  # the first discard: Miji, not plain 眼牌
    not_ready = [a for a in state.legal_actions(0) if a.declare is declare and a.tile == t("1m")]
    assert not_ready  # 眼牌 may be declared whether or not the hand is ready (seed 003:L53)
    do(state, K.DISCARD, 0, "1z", declare=declare)
    return state


def test_r14_eye_reveals_other_hands_to_the_declarer_only():
    """docs/rules/taiwan.md#eye, seed 003:L53: the declarer sees the other three hands until the end, in its view
    and in later draw events; nobody else sees more than before."""
    state = _declare(["2z", "3z", "4z", "7s"])
    reveal = [e for e in state.events if e.type == "reveal"]
    assert len(reveal) == 1 and set(reveal[0].private) == {0}
    assert sorted(reveal[0].private[0]["hands"]) == [1, 2, 3]
    assert "hands" not in reveal[0].for_seat(1)
    discard(state, 1, "2z")
    view0 = state.view(0)
    assert all(p["concealed"] is not None for p in view0["players"])
    for viewer in (1, 2, 3, None):
        view = state.view(viewer)
        for p in view["players"]:
            assert (p["concealed"] is not None) is (p["seat"] == viewer)
    draw2 = [e for e in state.events if e.type == "draw" and e.public["seat"] == 2][-1]
    assert draw2.for_seat(0)["tile"] == "3z" and "tile" not in draw2.for_seat(1)


def test_r14_eye_locks_the_hand_and_discards_draws():
    """docs/rules/taiwan.md#eye: no chow after 眼牌 (the 上家's 4p), and a non-winning draw is discarded by the
    server."""
    state = _declare(["2z", "3z", "4z", "7s"])
    discard(state, 1, "2z")
    discard(state, 2, "3z")
    events = discard(state, 3, "4p", pass_claims=False)
    assert event_types(events)[:3] == ["discard", "draw", "discard"]
    assert events[2].public["seat"] == 0 and events[2].public["tile"] == "7s"
    assert state.current == 1


@pytest.mark.parametrize("how", ["discard", "self"])
def test_r14_c9_eye_declarer_wins_automatically(how):
    """docs/rules/taiwan.md#eye / C-9: the declarer cannot pass a winning tile: a discarded or self-drawn 9s is
    declared as a win by the server."""
    if how == "discard":
        state = _declare(["9s"])
        events = discard(state, 1, "9s", pass_claims=False)
        kind, discarder = WinKind.DISCARD, 1
    else:
        state = _declare(["2z", "3z", "4z", "9s"])
        discard(state, 1, "2z")
        discard(state, 2, "3z")
        events = discard(state, 3, "4z", pass_claims=False)
        kind, discarder = WinKind.SELF_DRAW, None
    assert events[-1].type == "hand_end"
    r = state.result
    assert r.winners == (0,) and r.win_kind is kind and r.discarder == discarder
    assert r.situation.seats[0].declaration is Declaration.MIJI


def test_r14_eye_penalty_declaration_reaches_the_scorer():
    """docs/rules/taiwan.md#eye: another player's win while the 眼牌 declarer has not won: the scorer sees the
    declaration (it charges the 1-台 penalty)."""
    hands = [*EYE[:3], "777p 888p 999p 444p 555z 8s"]  # seat 3 waits on 8s
    state = rig(TAIWAN, hands, draws=["8s"])
    do(state, K.DISCARD, 0, "1z", declare=Declare.MIJI)
    discard(state, 1, "8s", pass_claims=False)
    do(state, K.WIN, 3)
    sit = state.result.situation
    assert sit.winners == (3,) and sit.seats[0].declaration is Declaration.MIJI


def test_c11_miji_only_within_the_first_eight_discards():
    """docs/rules/taiwan.md#miji / C-11, seed 003:L168: 眼牌 counts as Miji while fewer than 8 tiles have been
    discarded in total (and nobody has claimed); from the 8th on it is plain 眼牌."""
    state = rig(TAIWAN, ["111z 222z 333z 444z 555z 66z", "", "", ""])
    seen = {}
    while state.discards_total <= 8:
        decl = {a.declare for a in state.legal_actions(state.current) if a.kind is K.DISCARD} - {None}
        seen[state.discards_total] = decl
        a = state.default_action(state.current)
        state.apply(a)
        while state.phase is Phase.CLAIMS:
            state.apply(state.default_action(state.awaiting()[0]))
    assert all(seen[n] == {Declare.MIJI} for n in range(8))
    assert seen[8] == {Declare.EYE}
    assert not state.any_claim


@pytest.mark.parametrize("claim", ["pong", "akong"])
def test_c11_no_miji_after_a_claim_or_kong(claim):
    """docs/rules/taiwan.md#miji / C-11, seed 003:L168 "另外三家不碰牌吃牌或槓牌": after a pong, or any kong, 眼牌 is
    no longer Miji."""
    if claim == "pong":
        state = rig(TAIWAN, ["9p 111z 222z 333z 444z 555z 6z", "", "99p 123s 456s 789s 66z 5s 7s 1p", ""])
        discard(state, 0, "9p", pass_claims=False)
        do(state, K.PONG, 2, "9p")
        seat = 2
    else:
        state = rig(TAIWAN, ["5555m 111z 222z 333z 444z 6z", "", "", ""], tail="7z")
        do(state, K.KONG, 0, "5m")
        seat = 0
    assert state.discards_total < 8
    decl = {a.declare for a in state.legal_actions(seat) if a.kind is K.DISCARD} - {None}
    assert decl == {Declare.EYE}


def test_c10_option_disables_eye_and_miji():
    """docs/rules/taiwan.md#eye / C-10, seed 003:L54 "不接受眼牌": the room toggle removes 眼牌 and Miji."""
    state = rig(TAIWAN, EYE, options={"accept_eye_declaration": False})
    assert not any(a.declare for a in state.legal_actions(0))
    assert TAIWAN.resolve_options(None)["accept_eye_declaration"] is True


# --------------------------------------------------------------------------------------------------
# 八仙過海 / 七搶一 (docs/rules/taiwan.md#eight-immortals, docs/rules/taiwan.md#seven-rob-one, C-12)


def test_r16_eight_flowers_during_the_initial_replacement():
    """docs/rules/taiwan.md#eight-immortals, seed 003:L174: all 8 flowers in one hand → the system declares the win at once,
    initial replacement included."""
    state = rig(TAIWAN, ["12345678f 123m 456m 789m", "", "", ""])
    r = state.result
    assert state.phase is Phase.ENDED and r.winners == (0,) and r.win_kind is WinKind.EIGHT_FLOWERS
    sit = r.situation
    assert sit.discarder is None and not (sit.heavenly or sit.earthly or sit.human)
    assert len(sit.seats[0].flowers) == 8
    check_all(state)


def test_r16_eighth_flower_drawn_in_play():
    """docs/rules/taiwan.md#eight-immortals: the 8th flower drawn in play ends the hand for its holder."""
    state = rig(TAIWAN, ["1z 111m 222m 333m 444p 555p 6p", "1234567f 123s 456s 789s", "", ""], draws=["8f"])
    assert state.result is None and len(state.seats[1].flowers) == 7
    events = discard(state, 0, "1z", pass_claims=False)
    assert events[-1].type == "hand_end"
    assert state.result.winners == (1,) and state.result.win_kind is WinKind.EIGHT_FLOWERS


def test_r17_c12_seven_and_one_during_the_initial_replacement():
    """docs/rules/taiwan.md#seven-rob-one / C-12, seed 003:L180: 7 flowers with one player and 1 with another → the 7-holder
    wins at once (initial replacement included)."""
    state = rig(TAIWAN, ["", "1234567f 123s 456s 78s", "8f 123p 456p 789p 123m 456m", ""])
    r = state.result
    assert r is not None and r.winners == (1,) and r.win_kind is WinKind.SEVEN_ROB_ONE
    assert [len(s.flowers) for s in r.situation.seats] == [0, 7, 1, 0]
    assert r.score.net[2] < 0 and r.score.net[0] == 0 and r.score.net[3] == 0  # only the 1-holder pays
    check_all(state)


def test_r17_c12_seven_rob_one_when_the_eighth_is_drawn_by_another():
    """docs/rules/taiwan.md#seven-rob-one / C-12: the holder of 7 robs the 8th flower drawn by another player."""
    state = rig(TAIWAN, ["1z 111m 222m 333m 444p 555p 6p", "1234567f 123s 456s 789s", "", ""],
                draws=["2z", "8f"])
    assert state.result is None
    discard(state, 0, "1z")
    events = discard(state, 1, "2z", pass_claims=False)
    assert events[-1].type == "hand_end"
    r = state.result
    assert r.winners == (1,) and r.win_kind is WinKind.SEVEN_ROB_ONE
    assert [len(s.flowers) for s in r.situation.seats] == [0, 7, 1, 0]


def test_r17_c12_seven_rob_one_when_the_seventh_arrives_and_another_holds_one():
    """docs/rules/taiwan.md#seven-rob-one / C-12 (the seed's order): seat 1 holds 6, seat 2 holds 1; seat 1 draws its 7th."""
    state = rig(TAIWAN, ["1z 111m 222m 333m 444p 555p 6p", "123456f 123s 456s 789s 1p", "8f", ""],
                draws=["7f"])
    assert state.result is None and [len(s.flowers) for s in state.seats] == [0, 6, 1, 0]
    discard(state, 0, "1z", pass_claims=False)
    r = state.result
    assert r.winners == (1,) and r.win_kind is WinKind.SEVEN_ROB_ONE


# --------------------------------------------------------------------------------------------------
# 天胡 / 地胡 / 人胡 (docs/rules/taiwan.md#heavenly-earthly, C-16)

FIRST = ["9p 5z 6z 7z 111s 222s 333s 444s 5s", "123m 456m 789m 123p 456p 9p", "123m 456m 789m 234p 567p 9p",
         "111p 888p 999s 666s 55z 8s 7s"]


def test_heavenly_dealer_on_the_dealt_hand():
    """docs/rules/taiwan.md#heavenly-earthly 天胡 (seed 003:L193): the dealer wins on the dealt hand (after flower replacement)."""
    state = rig(TAIWAN, ["123m 456m 789m 123p 456p 99s", "", "", ""])
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.heavenly and not sit.earthly and not sit.human


def test_c16_earthly_non_dealer_self_draw_on_first_draw():
    """docs/rules/taiwan.md#heavenly-earthly 地胡 / C-16, seed 003:L193: a non-dealer self-draws on its first draw, no claim before."""
    state = rig(TAIWAN, FIRST, draws=["9p"])
    discard(state, 0, "5z", pass_claims=False)
    assert offers(state, 3, K.PONG)
    do(state, K.PASS, 3)
    do(state, K.WIN, 1)
    sit = state.result.situation
    assert sit.earthly and not sit.heavenly and not sit.human and sit.win_kind is WinKind.SELF_DRAW


def test_c16_no_earthly_after_a_pong():
    """docs/rules/taiwan.md#heavenly-earthly 地胡: a pong before the first draw rules it out."""
    state = rig(TAIWAN, FIRST, draws=["1z", "9p"])
    discard(state, 0, "5z", pass_claims=False)
    do(state, K.PONG, 3, "5z")
    discard(state, 3, "8s")
    discard(state, 0, "1z")
    assert state.current == 1 and state.seats[1].draws == 1
    do(state, K.WIN, 1)
    assert not state.result.situation.earthly


def test_c16_no_earthly_for_the_dealer():
    """docs/rules/taiwan.md#heavenly-earthly C-16: the dealer's own first self-draw is not 地胡 (its case is 天胡, on the dealt hand)."""
    hands = ["111s 222s 333s 444s 555s 6z 7z", "", "", ""]
    state = rig(TAIWAN, hands, draws=["1z", "1z", "1z", "6z"])
    discard(state, 0, "7z")
    for seat in (1, 2, 3):
        discard(state, seat, "1z")
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.win_kind is WinKind.SELF_DRAW and not sit.earthly and not sit.heavenly


@pytest.mark.parametrize("winner", [1, 2])
def test_human_win_on_a_discard_before_own_first_draw(winner):
    """docs/rules/taiwan.md#heavenly-earthly 人胡 (seed 003:L186): a non-dealer wins on a discard before its first draw, no claim."""
    state = rig(TAIWAN, FIRST)
    discard(state, 0, "9p", pass_claims=False)
    for seat in (1, 2):
        do(state, K.WIN if seat == winner else K.PASS, seat)
    sit = state.result.situation
    assert sit.winners == (winner,) and sit.human and not sit.earthly


def test_human_on_the_second_players_first_discard():
    """docs/rules/taiwan.md#heavenly-earthly 人胡: seat 2 has not drawn yet when seat 1 discards 9p."""
    state = rig(TAIWAN, FIRST, draws=["9p"])
    discard(state, 0, "5z", pass_claims=False)
    do(state, K.PASS, 3)
    discard(state, 1, "9p", pass_claims=False)
    do(state, K.WIN, 2)
    assert state.result.situation.human


def test_no_human_after_own_first_draw():
    """docs/rules/taiwan.md#heavenly-earthly 人胡: after the winner's own first draw it is an ordinary discard win."""
    state = rig(TAIWAN, FIRST, draws=["6z", "7z", "9p"])
    discard(state, 0, "5z", pass_claims=False)
    do(state, K.PASS, 3)
    discard(state, 1, "6z")
    discard(state, 2, "7z")
    discard(state, 3, "9p", pass_claims=False)
    do(state, K.WIN, 1)
    do(state, K.PASS, 2)
    sit = state.result.situation
    assert sit.winners == (1,) and not sit.human and not sit.earthly


def test_no_human_for_the_dealer():
    """docs/rules/taiwan.md#heavenly-earthly 人胡, seed 003:L186 "莊家沒有人胡": the dealer winning on the 下家's first discard."""
    state = rig(TAIWAN, ["111s 222s 333s 444s 555s 6z 7z", "", "", ""], draws=["6z"])
    discard(state, 0, "7z")
    discard(state, 1, "6z", pass_claims=False)
    do(state, K.WIN, 0)
    assert state.seats[0].draws == 0
    assert not state.result.situation.human


# --------------------------------------------------------------------------------------------------
# Dealer, 連莊, 圈 (docs/rules/taiwan.md#rounds, docs/rules/taiwan.md#dealer-streak, C-4)


def test_r12_c4_dealer_streak():
    """docs/rules/taiwan.md#dealer-streak / C-4, seed 003:L13: the dealer stays on a win or a 流局 and n counts the stays; a
    non-dealer win passes the deal and resets n."""
    m = Match(TAIWAN, first_dealer=1)
    steps = [((1,), 1, 1), ((), 1, 2), ((1,), 1, 3), ((3,), 2, 0), ((), 2, 1), ((0,), 3, 0)]
    for winners, dealer, streak in steps:
        m.record(FinishedHand(winners))
        assert (m.dealer, m.dealer_streak) == (dealer, streak)
    hand = m.new_hand("x")
    assert hand.dealer == 3 and hand.dealer_streak == 0


def test_r3_round_wind_advances_when_every_seat_has_dealt_and_not_on_streaks():
    """docs/rules/taiwan.md#rounds, seed 003:L7: 東風圈 first; a 圈 ends when all 4 have dealt once; 連莊 does not
    advance it; 4 圈 end the game."""
    m = Match(TAIWAN, first_dealer=2)
    winds = []
    while not m.finished:
        hand = m.new_hand(len(winds))
        winds.append((hand.round_wind, hand.dealer))
        m.record(FinishedHand((hand.dealer,)))  # 連莊 once ...
        m.record(FinishedHand(((m.dealer + 1) % 4,)))  # ... then pass
    assert [w for w, _ in winds] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    assert [d for _, d in winds] == [2, 3, 0, 1] * 4


def test_r3_one_round_game():
    """docs/rules/taiwan.md#rounds: rooms may play 1 圈."""
    m = Match(TAIWAN, first_dealer=0, options={"rounds": 1})
    for _ in range(4):
        assert not m.finished
        m.record(FinishedHand(((m.dealer + 1) % 4,)))
    assert m.finished
    with pytest.raises(ValueError):
        m.new_hand(1)


def test_r12_real_draw_keeps_the_dealer():
    """docs/rules/taiwan.md#dealer-streak / C-4 on a real 流局; the next hand carries the streak into the scorer."""
    m = Match(TAIWAN, first_dealer=0)
    state = rig(TAIWAN, ["111z 222z 333z 444z 555z 66z", "", "", ""])
    run_defaults(state, lambda s: False)
    m.record(state)
    assert m.dealer == 0 and m.dealer_streak == 1
    nxt = m.new_hand(5)
    assert nxt.dealer_streak == 1 and nxt.dealer == 0
    run_defaults(nxt, lambda s: False)
    sit = nxt.result.situation
    assert sit.dealer_streak == 1 and sit.round_wind == 0 and sit.open_seat == nxt.open_seat


def test_r11_timer_defaults():
    """docs/rules/taiwan.md#timers, docs/rules/timing.md#timers: 30 s to discard, 10 s claim window."""
    opts = TAIWAN.resolve_options(None)
    assert opts["discard_seconds"] == 30.0 and opts["claim_seconds"] == 10.0
