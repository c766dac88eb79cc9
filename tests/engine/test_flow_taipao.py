"""台炮麻将 hand flow: docs/rules/taipao.md and ambiguities B-3, B-7, B-9, B-15, B-16, B-17, B-18, B-23.

Seats: 4 players, dealer 0 unless a test says otherwise.  The rigged walls put the flowers at the tail, so
unless a test chooses the tail, the two 財神 indicators (the last two tiles) are 7f and 8f: flower faces
that no hand holds.  The indicators are out of play (docs/rules/taipao.md#caishen as amended, D-1): replacement draws take the tail
from the third tile from the end.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.actions import Declare
from engine.invariants import tile_places
from engine.match import Match
from engine.scoring.situation import KongKind, WinKind
from engine.state import HandState
from engine.tiles import TILES
from tests.engine.flow_helpers import (
    TAIPAO,
    FinishedHand,
    K,
    Phase,
    Refusal,
    act,
    assert_refused,
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
# Tiles, seats, 財神 (docs/rules/taipao.md)


def test_r1_r2_r3_four_players_144_tiles_16_tile_hands():
    """docs/rules/taipao.md#tiles, docs/rules/taipao.md#winning-hand, seed 002:L2-L4: 4 players; 1-9 m/p/s ×4, 東南西北中發白 ×4, f1-f8 ×1; 16 tiles,
    the dealer 17."""
    assert TAIPAO.n_seats == 4
    expected = Counter({x: 4 for x in ts("123456789m 123456789p 123456789s 1234567z")})
    expected.update(ts("12345678f"))
    assert Counter(TAIPAO.kinds) == expected and sum(expected.values()) == 144
    for seed in range(5):
        state = HandState.deal(TAIPAO, seed=seed, dealer=seed % 4)
        assert tile_places(state) == expected
        for s, seat in enumerate(state.seats):
            assert seat.concealed_count() == (17 if s == state.dealer else 16)
            assert not any(TAIPAO.is_bonus(x, state.wildcards) for x in seat.tiles())


def test_r3_eight_pairs_do_not_win_but_five_sets_and_a_pair_do():
    """docs/rules/taipao.md#winning-hand: a win is 5 sets + 1 pair; no 八对."""
    state = rig(TAIPAO, ["11m 22m 33m 44p 55p 66p 11s 22s 9s", "", "", ""])
    assert K.WIN not in kinds(state, 0)
    control = rig(TAIPAO, ["111m 222m 333m 444p 666s 55p", "", "", ""])
    assert K.WIN in kinds(control, 0)


@pytest.mark.parametrize("dealer", range(4))
def test_r4_seat_winds_follow_the_dealer(dealer):
    """docs/rules/taipao.md#seat-winds: dealer 東, 下家 南, 對家 西, 上家 北, recomputed every hand."""
    state = HandState.deal(TAIPAO, seed=11, dealer=dealer)
    assert [state.seat_winds[(dealer + i) % 4] for i in range(4)] == [0, 1, 2, 3]
    assert state.open_seat is None


def test_r5_two_dice():
    """docs/rules/taipao.md#wall: the break is chosen by (2) dice, display only."""
    state = HandState.deal(TAIPAO, seed=4)
    assert len(state.dice) == 2 and all(1 <= d <= 6 for d in state.dice)


@pytest.mark.parametrize("tail, faces", [
    ("3m 5z", {"3m", "5z"}),  # two-face mode
    ("3m 3m", {"3m"}),  # same-face mode: one face (seed 002:L53)
    ("1f 7z", {"1f", "7z"}),  # any face: a flower, 白 (seed 002:L7, L41-42)
])
def test_r6_b3_caishen_faces_from_the_two_tail_tiles(tail, faces):
    """docs/rules/taipao.md#caishen / B-3: the two tiles of the last stack at the tail are turned up; their faces are
    財神; the two tiles stay in the wall."""
    state = rig(TAIPAO, ["", "", "", ""], tail=tail)
    assert {str(x) for x in state.wildcards} == faces
    assert len(state.wildcards) == len(faces)
    assert sorted(str(x) for x in state.indicators) == sorted(tail.split())
    assert sorted(str(x) for x in state.wall.remaining_tiles()[-2:]) == sorted(tail.split())
    view = state.view(1)
    assert set(view["wildcards"]) == faces and sorted(view["indicators"]) == sorted(tail.split())


@pytest.mark.parametrize("seed", range(8))
def test_r6_b3_caishen_faces_on_random_walls(seed):
    """docs/rules/taipao.md#caishen / B-3: on a shuffled wall too, the 財神 faces are the faces of the last two tiles."""
    state = HandState.deal(TAIPAO, seed=seed)
    last_two = state.wall.tiles[-2:]
    assert set(state.wildcards) == set(last_two) and len(state.wildcards) == len(set(last_two))


def test_r6_d1_indicator_tiles_are_out_of_play():
    """docs/rules/taipao.md#caishen as amended by D-1, docs/rules/taipao.md#bonus-tiles: the two turned tiles are never drawn; the dealer's flower is
    replaced by the tile before them (1z), and at the end of the hand both indicators are still in the wall."""
    state = rig(TAIPAO, ["1f 111m 222m 333m 444p 55p 66p", "", "", ""], tail="9s 8s 1z")
    assert state.seats[0].flowers == [t("1f")]
    assert state.seats[0].counts[t("1z")] == 1  # the replacement: the stack before the indicators
    assert state.seats[0].counts[t("9s")] == 0 and t("9s") in state.wildcards
    assert sorted(state.wall.out_of_play) == sorted(ts("9s 8s")) and state.wall.remaining == 144 - 65 - 1
    run_defaults(state, lambda s: s.is_over)
    assert sorted(state.wall.out_of_play) == sorted(ts("9s 8s"))
    assert state.wall.remaining_tiles()[-2:] == state.wall.out_of_play
    held = [x for s in state.seats for x in [*s.tiles(), *s.river, *s.set_aside, *s.flowers]]
    assert held.count(t("9s")) <= 3 and held.count(t("8s")) <= 3  # the turned copies never left the wall


@pytest.mark.parametrize("tail, white_is_bonus", [("", True), ("7z 9s", False)])
def test_r7_b7_white_is_a_bonus_tile_unless_it_is_caishen(tail, white_is_bonus):
    """docs/rules/taipao.md#bonus-tiles / B-7: 白板 is shown and replaced like a flower, unless 白 is a 財神 face."""
    state = rig(TAIPAO, ["7z 111m 222m 333m 444p 5p 6p 7p 8p", "", "", ""], tail=tail)
    seat = state.seats[0]
    assert (t("7z") in seat.flowers) is white_is_bonus
    assert (seat.counts[t("7z")] == 1) is not white_is_bonus
    assert seat.concealed_count() == 17


def test_r8_initial_bonus_replacement_order_and_caishen_flowers_kept():
    """docs/rules/taipao.md#bonus-tiles: dealer first then counterclockwise, in passes; a bonus received as a replacement
    waits for the next pass; a bonus tile that is a 財神 face (here 白) is not replaced."""
    # indicators 7z (the very last tile) and 9s: 白 is 財神.  Replacements (D-1: before them): 3f, 5m, 6m.
    state = rig(TAIPAO, ["7z 2f 111m 222m 333m 444p 55p 6p", "4f 123p 456p 789p 55s 66s 7s", "", ""],
                tail="7z 9s 3f 5m 6m")
    flow = [(e.type, e.public.get("seat")) for e in state.events[1:]]
    assert flow == [("flower", 0), ("draw", 0),  # pass 1: dealer 2f (its 7z is 財神)
                    ("flower", 1), ("draw", 1),  # pass 1: 下家 4f
                    ("flower", 0), ("draw", 0)]  # pass 2: the dealer's replacement 3f
    assert [e.public["tile"] for e in state.events if e.type == "flower"] == ["2f", "4f", "3f"]
    assert state.seats[0].counts[t("7z")] == 1 and state.seats[0].counts[t("6m")] == 1
    assert state.seats[0].flowers == [t("2f"), t("3f")] and state.seats[1].flowers == [t("4f")]


def test_r19_eight_flowers_give_no_special_win_by_default():
    """docs/rules/taipao.md#eight-flowers / B-26: 花胡 is off by default; all 8 flowers in one hand just play on."""
    state = rig(TAIPAO, ["12345678f 111m 222m 333m", "", "", ""], tail="9s 9s")
    assert state.result is None and state.phase is Phase.TURN
    assert sum(x.is_flower for x in state.seats[0].flowers) == 8


# 財神 = 5m and 9s (indicators), as wildcards in the hands below.
WILD_TAIL = "5m 9s"


def test_r9_caishen_cannot_be_discarded():
    """docs/rules/taipao.md#caishen-use: a 財神 can not be discarded."""
    state = rig(TAIPAO, ["5m 9s 111m 222m 333m 444p 66p 7p", "", "", ""], tail=WILD_TAIL)
    discards = {a.tile for a in state.legal_actions(0) if a.kind is K.DISCARD}
    assert t("5m") not in discards and t("9s") not in discards and t("7p") in discards
    assert_refused(state, act(state, K.DISCARD, 0, "5m"), Refusal.NOT_LEGAL)


def test_r9_caishen_cannot_be_used_to_chow_or_pong():
    """docs/rules/taipao.md#caishen-use: the 下家 holding 5m(財神) 6m and 23m may chow 4m only as 234m; a seat holding one
    natural 9p and a 財神 may not pong 9p, one with two natural 9p may."""
    hands = ["4m 9p 111z 222z 333z 444z 555z",  # dealer discards 4m, or (second deal) 9p
             "5m 6m 23m 111p 222p 333p 7p 88s",  # 下家
             "9p 9s 123s 456s 678p 66z 34p 1m",  # one natural 9p + 財神 9s
             "99p 777s 444s 555p 666m 7m 1m"]
    state = rig(TAIPAO, hands, tail=WILD_TAIL)
    discard(state, 0, "4m", pass_claims=False)
    chows = [a.tiles for a in state.legal_actions(1) if a.kind is K.CHOW]
    assert chows == [tuple(ts("234m"))]
    do(state, K.PASS, 1)
    assert state.current == 1
    state = rig(TAIPAO, ["9p 4m 111z 222z 333z 444z 555z", *hands[1:]], tail=WILD_TAIL)
    discard(state, 0, "9p", pass_claims=False)
    assert not offers(state, 2, K.PONG)
    assert offers(state, 3, K.PONG, "9p")


def test_r9_caishen_cannot_be_used_to_kong():
    """docs/rules/taipao.md#caishen-use: no 暗槓 of three natural tiles plus a 財神, nor of three 財神 plus one (four of a 財神
    face cannot meet in a hand since the indicator is out of play, D-1)."""
    state = rig(TAIPAO, ["999p 555m 1f 111s 222s 333s 1z", "", "", ""], tail=WILD_TAIL + " 2z")
    assert state.seats[0].counts[t("5m")] == 3 and state.seats[0].counts[t("9p")] == 3
    assert not offers(state, 0, K.KONG)
    control = rig(TAIPAO, ["9999p 555m 1f 111s 222s 1z 2z 3z", "", "", ""], tail=WILD_TAIL)
    assert offers(control, 0, K.KONG, "9p") and not offers(control, 0, K.KONG, "5m")


# --------------------------------------------------------------------------------------------------
# Claims (docs/rules/taipao.md#turn-order, docs/rules/taipao.md#claims, docs/rules/taipao.md#own-turn)


def test_r10_dealer_discards_first():
    """docs/rules/taipao.md#turn-order: the dealer starts by discarding; nobody else may act."""
    state = rig(TAIPAO, ["4m 9p 111z 222z 333z 444z 6z", "", "", ""])
    assert state.current == 0 and state.awaiting() == [0]
    assert K.DISCARD in kinds(state, 0)
    assert all(state.legal_actions(s) == [] for s in (1, 2, 3))


# --------------------------------------------------------------------------------------------------
# 杀猪 (docs/rules/taipao.md#kill-pig)


@pytest.mark.parametrize("tail, dealer_hand, offered", [
    ("5m 9s", "555m 9s 111p 222p 333p 1z 2z 3z 4z", True),  # 3 + 1
    ("5m 9s", "5m 999s 111p 222p 333p 1z 2z 3z 4z", True),  # 1 + 3
    ("5m 9s", "55m 99s 111p 222p 333p 1z 2z 3z 4z", False),  # 2 + 2
    ("5m 9s", "555m 111p 222p 333p 1z 2z 3z 4z 6z", False),  # 3 + 0
    ("5m 5m", "55m 111p 222p 333p 1z 2z 3z 4z 6z 6z", True),  # same face, 2
    ("5m 5m", "5m 111p 222p 333p 1z 2z 3z 4z 6z 6z 6z", False),  # same face, 1
])
def test_r17_kill_pig_qualifying_holding(tail, dealer_hand, offered):
    """docs/rules/taipao.md#kill-pig, seed 002:L31, L39: 杀猪 needs 3 of one face and 1 of the other (two-face mode) or 2
    of the face (same-face mode); declaring is optional."""
    state = rig(TAIPAO, [dealer_hand, "", "", ""], tail=tail)
    assert offers(state, 0, K.KILL_PIG) is offered
    if offered:
        assert K.DISCARD in kinds(state, 0)  # optional ("也可以选择不胡")
        do(state, K.KILL_PIG, 0)
        r = state.result
        assert r.winners == (0,) and r.win_kind is WinKind.KILL_PIG and r.discarder is None


# --------------------------------------------------------------------------------------------------
# 聽 (docs/rules/taipao.md#ting, B-23)

READY = ["123m 456m 789m 123p 99p 11s 1z",  # 聽 after discarding 1z: waits 9p / 1s
         "222s 333s 444s 555s 666s 7s", "222m 333m 444m 555m 666m 7m", "444p 555p 666p 777p 888p 3p"]


def _ready_hand(draws):
    state = rig(TAIPAO, READY, draws=draws)
    ready = {a.tile for a in state.legal_actions(0) if a.declare is Declare.READY}
    assert ready == {t("1z")}  # only a discard that leaves the hand ready
    do(state, K.DISCARD, 0, "1z", declare=Declare.READY)
    assert state.seats[0].locked
    return state


def test_r13_b23_ready_locks_the_hand_and_discards_draws_automatically():
    """docs/rules/taipao.md#ting / B-23, seed 002:L106: after 聽 the hand is locked: no chow on the 上家's 4p, and
    a drawn tile that does not win is discarded by the server."""
    state = _ready_hand(["2z", "3z", "4p", "5z"])
    discard(state, 1, "2z")
    discard(state, 2, "3z")
    events = discard(state, 3, "4p", pass_claims=False)
    assert event_types(events) == ["discard", "draw", "discard", "draw"]  # dealer drew 5z and threw it
    assert events[2].public == {"seat": 0, "tile": "5z"}
    assert state.current == 1 and state.seats[0].river == [t("1z"), t("5z")]


def test_r13_b23_ready_hand_may_still_win_on_a_discard_but_not_pong():
    """docs/rules/taipao.md#ting / B-23: the locked hand is offered the win on 9p, not the pong."""
    state = _ready_hand(["9p"])
    discard(state, 1, "9p", pass_claims=False)
    assert kinds(state, 0) == {K.WIN, K.PASS}
    do(state, K.WIN, 0)
    assert state.result.winners == (0,) and state.result.win_kind is WinKind.DISCARD


def test_r13_b23_ready_hand_self_draw_offers_win_or_discarding_the_drawn_tile():
    """docs/rules/taipao.md#ting / B-23: a winning draw is not discarded automatically; the player may win (or throw
    the drawn tile, nothing else)."""
    state = _ready_hand(["2z", "3z", "5z", "1s"])
    discard(state, 1, "2z")
    discard(state, 2, "3z")
    discard(state, 3, "5z")
    assert state.current == 0 and state.seats[0].drawn == t("1s")
    legal = state.legal_actions(0)
    assert {(a.kind, a.tile) for a in legal} == {(K.WIN, None), (K.DISCARD, t("1s"))}
    do(state, K.WIN, 0)
    assert state.result.win_kind is WinKind.SELF_DRAW


def test_r13_ready_not_offered_twice():
    """docs/rules/taipao.md#ting: 聽 is declared once; a locked hand has no declaration to make."""
    state = _ready_hand(["2z", "3z", "5z", "1s"])
    discard(state, 1, "2z")
    discard(state, 2, "3z")
    discard(state, 3, "5z")
    assert not any(a.declare for a in state.legal_actions(0))


# --------------------------------------------------------------------------------------------------
# 分牌 and 黄牌 (docs/rules/taipao.md#split-deal, B-15, B-16)

SPLIT_DEALER_INDEX = 65 + 55  # draw #56, the first 分牌 tile (24 left, no kong): dealer due to draw
SPLIT_HANDS = ["111z 222z 333z 444z 555z 66z", "123m 456m 789m 123p 456p 9p", "123s 456s 789s 234p 567p 1s", ""]


def _to_split(hands=SPLIT_HANDS, at=None, tail=""):
    state = rig(TAIPAO, hands, head_at=at or {}, tail=tail)
    run_defaults(state, lambda s: s.phase in (Phase.SPLIT, Phase.ENDED))
    return state


def test_r15_b15_split_deal_win_is_its_own_kind_not_self_draw():
    """docs/rules/taipao.md#split-deal / B-15, seed 002:L68: with 24 tiles left the 分牌 starts with the player due to draw;
    the 下家 wins on its 分牌 tile: SPLIT_DEAL (+3), not 自摸."""
    state = _to_split(at={SPLIT_DEALER_INDEX: "5s", SPLIT_DEALER_INDEX + 1: "9p"})
    split = next(e for e in state.events if e.type == "split_deal")
    assert split.public == {"from": 0, "wall": 24}
    assert state.phase is Phase.SPLIT and state.current == 1
    assert state.seats[0].set_aside == [t("5s")]  # the dealer could not win: set aside, not discarded
    assert {a.kind for a in state.legal_actions(1)} == {K.WIN, K.PASS}
    do(state, K.WIN, 1)
    r = state.result
    assert r.winners == (1,) and r.win_kind is WinKind.SPLIT_DEAL
    assert r.winning_tile == t("9p") and r.discarder is None
    items = {i.key for i in r.score.seats[1].items}
    assert "fenpai" in items and "zimo" not in items


def test_r15_b15_first_winner_in_order_ends_the_split():
    """docs/rules/taipao.md#split-deal / B-15: the first player in order who declares a win ends the hand; later players
    do not draw."""
    state = _to_split(at={SPLIT_DEALER_INDEX: "5s", SPLIT_DEALER_INDEX + 1: "9p", SPLIT_DEALER_INDEX + 2: "1s"})
    do(state, K.WIN, 1)
    assert state.result.winners == (1,)
    assert state.wall.remaining == 22 and state.seats[2].set_aside == []


def test_r15_b15_pass_on_a_split_tile_goes_to_the_next_player():
    """docs/rules/taipao.md#split-deal / B-15: a player who does not declare passes the 分牌 on to the next one."""
    state = _to_split(at={SPLIT_DEALER_INDEX: "5s", SPLIT_DEALER_INDEX + 1: "9p", SPLIT_DEALER_INDEX + 2: "1s"})
    do(state, K.PASS, 1)
    assert state.phase is Phase.SPLIT and state.current == 2
    do(state, K.WIN, 2)
    assert state.result.winners == (2,) and state.result.win_kind is WinKind.SPLIT_DEAL


def test_r15_s8_split_prompt_timeout_passes_and_auto_play_wins():
    """docs/rules/taipao.md#split-deal with docs/rules/timing.md#auto-play: a 分牌 prompt that times out passes; 托管 declares the win."""
    state = _to_split(at={SPLIT_DEALER_INDEX: "5s", SPLIT_DEALER_INDEX + 1: "9p"})
    assert state.default_action(1) == act(state, K.PASS, 1)
    assert state.default_action(1, auto_play=True) == act(state, K.WIN, 1)
    assert_refused(state, act(state, K.DISCARD, 1, "9p"), Refusal.NOT_LEGAL)  # no discard of a 分牌 tile
    assert_refused(state, act(state, K.KONG, 1, "9p"), Refusal.NOT_LEGAL)


def test_r15_r16_yellow_hand_when_nobody_wins_and_bonus_tiles_are_set_aside():
    """docs/rules/taipao.md#split-deal, docs/rules/taipao.md#dealer-rotation, seed 002:L68, L73: if nobody wins on the 4 分牌 tiles the hand is 黄牌: nothing
    is paid and the dealer passes; a bonus tile drawn now is set aside, not replaced."""
    state = _to_split(at={SPLIT_DEALER_INDEX: "2f", SPLIT_DEALER_INDEX + 1: "5s",
                          SPLIT_DEALER_INDEX + 2: "5s", SPLIT_DEALER_INDEX + 3: "5s"})
    r = state.result
    assert r is not None and r.is_draw and r.win_kind is None
    assert r.score.payments == () and r.score.net == [0, 0, 0, 0]
    assert state.seats[0].set_aside == [t("2f")] and t("2f") not in state.seats[0].flowers
    assert state.wall.remaining == 20
    assert [len(s.set_aside) for s in state.seats] == [1, 1, 1, 1]
    m = Match(TAIPAO, first_dealer=0)
    m.record(state)
    assert m.dealer == 1


def test_r15_b16_each_kong_keeps_two_more_tiles():
    """docs/rules/taipao.md#split-deal / B-16, seed 002:L68 "杠一过二": every declared kong (here a 暗槓) moves the 分牌 start
    to 24 + 2K tiles."""
    hands = ["5555m 111z 222z 333z 444z 6z", "123m 46m 789m 123p 456p 9p 1s", "", ""]
    state = rig(TAIPAO, hands, tail="9s 8s")
    assert state.reserve() == 24
    do(state, K.KONG, 0, "5m")
    assert state.reserve() == 26 and state.view(2)["reserve"] == 26
    run_defaults(state, lambda s: s.phase in (Phase.SPLIT, Phase.ENDED))
    split = next(e for e in state.events if e.type == "split_deal")
    assert split.public["wall"] == 26


def test_b16_exposed_kong_counts_flower_sets_do_not():
    """docs/rules/taipao.md#split-deal / B-16: a 明槓 from a discard counts; initial flower replacements do not."""
    hands = ["1234f 5m 111z 222z 333z 4z 66z", "555m 123p 456p 789p 123s 5s", "111s 222s 333s 444s 666s 7s",
             "111p 222p 333p 444p 666p 7p"]
    state = rig(TAIPAO, hands, tail="9s 8s")
    assert len(state.seats[0].flowers) >= 4 and state.kongs == 0 and state.reserve() == 24
    discard(state, 0, "5m", pass_claims=False)
    assert state.awaiting() == [1]
    do(state, K.KONG, 1, "5m")
    assert state.kongs == 1 and state.reserve() == 26


# --------------------------------------------------------------------------------------------------
# 天胡 / 地胡 (docs/rules/taipao.md#heavenly-earthly), flower replacement (B-9)


@pytest.mark.parametrize("hands, tail", [
    (["123m 456m 789m 123p 456p 99p", "", "", ""], ""),
    (["123m 456m 789m 123p 456p 9p 1f", "", "", ""], "9p 8s"),  # replacement 9p (a 財神 face, 归位)
])
def test_r18_heavenly(hands, tail):
    """docs/rules/taipao.md#heavenly-earthly: the dealer's 17 tiles after the initial replacement form a winning hand: 天胡."""
    state = rig(TAIPAO, hands, tail=tail)
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.heavenly and not sit.earthly and sit.win_kind is WinKind.SELF_DRAW


EARTHLY = ["9p 111z 222z 333z 444z 555z 6z", "123m 456m 789m 123p 456p 9p", "111s 222s 333s 444s 555s 6s",
           "123m 456m 789m 234p 567p 9p"]


def test_r18_b18_earthly_on_the_dealers_first_discard_single_winner():
    """docs/rules/taipao.md#heavenly-earthly / B-18: a non-dealer wins on the dealer's first discard: 地胡; two claimants → only
    the first counterclockwise (截胡)."""
    state = rig(TAIPAO, EARTHLY)
    discard(state, 0, "9p", pass_claims=False)
    assert offers(state, 1, K.WIN) and offers(state, 3, K.WIN)
    do(state, K.WIN, 3)
    do(state, K.WIN, 1)
    r = state.result
    assert r.winners == (1,) and r.situation.earthly and r.discarder == 0


def test_r18_no_earthly_on_a_later_discard():
    """docs/rules/taipao.md#heavenly-earthly: the dealer's second discard gives no 地胡."""
    state = rig(TAIPAO, EARTHLY, draws=["6z", "6z", "6z", "1z"])
    discard(state, 0, "5z")
    for seat in (1, 2, 3):
        discard(state, seat, "6z")
    discard(state, 0, "9p", pass_claims=False)
    do(state, K.WIN, 1)
    do(state, K.PASS, 3)
    assert state.result.winners == (1,) and not state.result.situation.earthly


@pytest.mark.parametrize("drawn", ["3f", "7z"])
def test_b9_win_on_a_flower_or_white_replacement_is_not_a_kong_win(drawn):
    """docs/rules/taipao.md#bonus-tiles / B-9: a win on the replacement of a flower (or 白板) is FLOWER_REPLACEMENT, not
    杠上开花 (kong_kind None, no 杠上开花 item); it is self-drawn (自摸)."""
    hands = ["1f 2f 111z 222z 333z 444z 555z", "123m 456m 789m 123p 456p 9p", "", ""]
    state = rig(TAIPAO, hands, draws=[drawn], tail="8s 9s 6z 6z 9p")  # the dealer's flowers take 6z 6z
    discard(state, 0, "5z")
    assert state.current == 1 and state.seats[1].drawn == t("9p")
    assert state.seats[1].flowers == [t(drawn)]
    do(state, K.WIN, 1)
    r = state.result
    assert r.win_kind is WinKind.FLOWER_REPLACEMENT and r.situation.kong_kind is None
    items = {i.key for i in r.score.seats[1].items}
    assert not items & {"gangkai", "gangkai_concealed", "gangkai_special"} and "zimo" in items


def test_r12_kong_replacement_win_from_the_tail():
    """docs/rules/taipao.md#own-turn (kong replacements from the tail), docs/rules/taipao.md#winner-items 杠上开花: 暗槓, replacement wins."""
    state = rig(TAIPAO, ["5555m 123p 456p 789p 123s 1z", "", "", ""], tail="1z 9s 1z")
    do(state, K.KONG, 0, "5m")
    assert state.seats[0].drawn == t("1z")
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.win_kind is WinKind.KONG_REPLACEMENT and sit.kong_kind is KongKind.CONCEALED
    assert not sit.heavenly


# --------------------------------------------------------------------------------------------------
# Dealer rotation (docs/rules/taipao.md#dealer-rotation, B-17), timers (docs/rules/taipao.md#timers)


@pytest.mark.parametrize("winner_offset, stays", [(0, True), (1, False), (2, False), (3, False), (None, False)])
def test_r16_b17_dealer_rotation(winner_offset, stays):
    """docs/rules/taipao.md#dealer-rotation / B-17, seed 002:L68-69: the dealer stays after winning; a non-dealer win or 黄牌
    passes the deal to the 下家."""
    for dealer in range(4):
        m = Match(TAIPAO, first_dealer=dealer)
        winners = () if winner_offset is None else ((dealer + winner_offset) % 4,)
        m.record(FinishedHand(winners))
        assert m.dealer == (dealer if stays else (dealer + 1) % 4)


def test_r14_timer_defaults():
    """docs/rules/taipao.md#timers, docs/rules/timing.md#timers: 30 s to discard, 10 s claim window."""
    opts = TAIPAO.resolve_options(None)
    assert opts["discard_seconds"] == 30.0 and opts["claim_seconds"] == 10.0


def test_r14_timeout_never_discards_a_caishen():
    """docs/rules/taipao.md#caishen-use, docs/rules/taipao.md#timers, docs/rules/timing.md#timeout: the drawn tile is discarded on timeout, but a drawn 財神 cannot be, so the
    rightmost other tile goes instead."""
    state = rig(TAIPAO, ["1z 111m 222m 333m 444p 55p 66s", "", "", ""], draws=["9s"], tail="9s 8s")
    discard(state, 0, "1z")
    assert state.seats[1].drawn == t("9s")
    a = state.default_action(1)
    assert a.kind is K.DISCARD and a.tile != t("9s") and a in state.legal_actions(1)
    assert a.tile == max(x for x in state.seats[1].tiles() if x not in state.wildcards)


def test_r6_random_seeds_deal_consistent_caishen_and_hands():
    """docs/rules/taipao.md#caishen, docs/rules/taipao.md#bonus-tiles on shuffled walls: no bonus tile stays in a hand, 財神 flowers stay."""
    rng = random.Random(3)
    for _ in range(10):
        state = HandState.deal(TAIPAO, seed=rng.randrange(10**6))
        for seat in state.seats:
            for x in seat.flowers:
                assert x not in state.wildcards and (x.is_flower or x == t("7z"))
            for x in seat.tiles():
                assert not (x.is_flower or x == t("7z")) or x in state.wildcards
    assert TILES[33] == t("7z")
