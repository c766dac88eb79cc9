"""天台麻將 hand flow: docs/rules/tiantai.md and ambiguities A-1, A-4, A-5, A-11, A-12, A-13, A-14.

Seats: 3 players, dealer 0 unless a test says otherwise; 下家 of seat i is i+1 (mod 3).  Every scenario
deals a rigged wall (engine.rigging.build_wall) and checks the engine's invariants after every action.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.invariants import tile_places
from engine.match import Match
from engine.melds import MeldKind
from engine.scoring.situation import KongKind, WinKind
from engine.state import HandState
from engine.tiles import TILES
from tests.engine.flow_helpers import (
    TIANTAI,
    FinishedHand,
    K,
    Phase,
    discard,
    do,
    event_types,
    hand,
    kinds,
    offers,
    rig,
    run_defaults,
    t,
    ts,
)

# --------------------------------------------------------------------------------------------------
# Tiles, seats and deal (docs/rules/tiantai.md)


def test_r1_r2_three_players_and_108_tiles_without_bamboo_or_wildcards():
    """docs/rules/tiantai.md#tiles, seed 000:L2-L11: 3 players; 1-9m ×4, 1-9p ×4, winds ×4, 中發白 ×4, f1-f8 ×1."""
    assert TIANTAI.n_seats == 3
    expected = Counter()
    for code in ("123456789m", "123456789p", "1234567z"):
        for x in ts(code):
            expected[x] = 4
    for x in ts("12345678f"):
        expected[x] = 1
    assert Counter(TIANTAI.kinds) == expected
    assert sum(expected.values()) == 108
    state = HandState.deal(TIANTAI, seed=7)
    assert len(state.seats) == 3
    assert state.wildcards == ()  # seed 000:L13 "沒有財神"
    assert tile_places(state) == expected
    assert not any(TILES[k].suit == "s" for k in TIANTAI.kinds)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_r7_dealer_holds_14_others_13_after_replacement(seed):
    """docs/rules/tiantai.md#deal, seed 000:L4, L30-31: dealer 14 tiles, others 13 (flowers replaced, docs/rules/tiantai.md#flowers)."""
    state = HandState.deal(TIANTAI, seed=seed, dealer=seed % 3)
    for s in range(3):
        seat = state.seats[s]
        assert seat.concealed_count() == (14 if s == state.dealer else 13)
        assert not any(x.is_flower for x in seat.tiles())
    assert state.phase is Phase.TURN and state.current == state.dealer


def test_r7_deal_in_passes_of_four_from_the_dealer():
    """docs/rules/tiantai.md#deal, seed 000:L13: three passes of 4 (dealer, 下家, 上家) from the head, then single
    tiles: two for the dealer, one for each other player (the server deals the head in order)."""
    plain = [TILES[k] for k in TIANTAI.kinds if k < 34]
    random.Random(5).shuffle(plain)
    wall = plain + [TILES[k] for k in TIANTAI.kinds if k >= 34]  # no flower among the dealt tiles
    dealer = 1
    order = [dealer, (dealer + 1) % 3, (dealer + 2) % 3]
    state = HandState.deal(TIANTAI, seed=0, dealer=dealer, wall=wall)
    blocks: dict[int, Counter] = {s: Counter() for s in range(3)}
    for p in range(3):
        for k, seat in enumerate(order):
            blocks[seat].update(wall[12 * p + 4 * k: 12 * p + 4 * k + 4])
    singles: Counter = Counter()
    for s in range(3):
        held = Counter(state.seats[s].tiles())
        assert not blocks[s] - held, f"seat {s} lacks part of its 4-tile blocks"
        extra = held - blocks[s]
        assert sum(extra.values()) == (2 if s == dealer else 1)
        singles += extra
    assert singles == Counter(wall[36:40])
    assert state.wall.remaining == 108 - 40


@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize("option, upper", [(None, 3), ("ESN", 3), ("ESW", 2)])
def test_r5_a1_seat_winds_follow_the_dealer(dealer, option, upper):
    """docs/rules/tiantai.md#seat-winds / A-1, seed 000:L27: dealer 東, 下家 南, 上家 北 (西 with three_player_winds=ESW)."""
    options = {} if option is None else {"three_player_winds": option}
    state = HandState.deal(TIANTAI, seed=3, dealer=dealer, options=options)
    assert state.seat_winds[dealer] == 0
    assert state.seat_winds[(dealer + 1) % 3] == 1
    assert state.seat_winds[(dealer + 2) % 3] == upper
    assert [p["wind"] for p in state.view(dealer)["players"]] == state.seat_winds


def test_r6_two_dice():
    """docs/rules/tiantai.md#dice, seed 000:L13: the dealer throws 2 dice (display only online)."""
    for seed in range(20):
        state = HandState.deal(TIANTAI, seed=seed)
        assert len(state.dice) == 2 and all(1 <= d <= 6 for d in state.dice)


def test_r8_initial_flowers_replaced_from_tail_dealer_first_and_replacement_flowers_wait_a_pass():
    """docs/rules/tiantai.md#flowers, seed 000:L13-14: replacement from the tail in the order 東→南→北; a flower received
    as a replacement is replaced only after the others finish the current pass."""
    # tail (read from the end): dealer's replacement 3f (a flower again), 下家's 5m, then dealer's 6m
    state = rig(TIANTAI, ["1f 123m 456m 789m 11p 22p", "2f 234p 567p 78p 5z 6z 7z 1z", ""],
                tail="3f 5m 6m")
    flow = [(e.type, e.public.get("seat"), e.public.get("tail")) for e in state.events[1:]]
    assert flow == [
        ("flower", 0, None), ("draw", 0, True),  # pass 1: dealer 1f → 3f
        ("flower", 1, None), ("draw", 1, True),  # pass 1: 下家 2f → 5m
        ("flower", 0, None), ("draw", 0, True),  # pass 2: dealer 3f → 6m
    ]
    assert [str(x) for x in state.seats[0].flowers] == ["1f", "3f"]
    assert [str(x) for x in state.seats[1].flowers] == ["2f"]
    assert [state.events[i].private[s]["tile"] for i, s in [(2, 0), (4, 1), (6, 0)]] == ["3f", "5m", "6m"]
    assert state.seats[0].counts[t("6m")] == 2 and state.seats[1].counts[t("5m")] == 1
    assert state.wall.remaining == 108 - 40 - 3


def test_r8_flower_drawn_in_play_is_replaced_from_tail_repeatedly():
    """docs/rules/tiantai.md#flowers: a drawn flower is shown at once and replaced from the tail, repeatedly."""
    state = rig(TIANTAI, ["1z 222z 333z 444z 55z 66z", "123m 456m 789m 234p 8p", "111m 999m 444p 777p 5p"],
                draws=["1f"], tail="2f 9p")
    events = discard(state, 0, "1z")
    tail_draws = [e for e in events if e.type == "draw"]
    assert event_types(events)[-5:] == ["draw", "flower", "draw", "flower", "draw"]
    assert [e.public["tail"] for e in tail_draws] == [False, True, True]
    assert [e.private[1]["tile"] for e in tail_draws] == ["1f", "2f", "9p"]
    assert [str(x) for x in state.seats[1].flowers] == ["1f", "2f"]
    assert state.current == 1 and state.seats[1].drawn == t("9p")


def test_r33_eight_flowers_give_no_special_win_by_default():
    """docs/rules/tiantai.md#eight-flowers / A-16, seed 000:L23 "只有…": a player holding all 8 flowers just plays on."""
    state = rig(TIANTAI, ["12345678f 123m 456m", "", ""])
    assert state.result is None and state.phase is Phase.TURN
    assert len(state.seats[0].flowers) == 8
    assert state.seats[0].concealed_count() == 14


# --------------------------------------------------------------------------------------------------
# Scenarios

# 一炮多響 / 地胡: both non-dealers wait on 9p (單吊); the dealer discards 9p first.
MULTI = ["9p 222z 333z 444z 55z 66z", "123m 456m 789m 234p 9p", "123p 456p 777p 111z 9p"]
# 胡 > 碰: seat 1 can pong 9p (not win), seat 2 can win on 9p.
PRIO = ["9p 222z 333z 444z 55z 66z", "123m 456m 789m 99p 1p 3p", "123p 456p 777p 111z 9p"]


@pytest.mark.parametrize("answer_order", [(1, 2), (2, 1)])
def test_r16_r25_a5_a14_multiple_winners_on_the_dealers_first_discard(answer_order):
    """docs/rules/tiantai.md#multiple-wins (一炮多響, seed 000:L23) and docs/rules/tiantai.md#heavenly-earthly / A-14 (地胡 = a win on the dealer's first discard,
    seed 000:L44): both non-dealers win together, both with the 地胡 flag."""
    state = rig(TIANTAI, MULTI)
    discard(state, 0, "9p", pass_claims=False)
    assert state.phase is Phase.CLAIMS
    assert kinds(state, 1) == {K.WIN, K.PASS} and kinds(state, 2) == {K.WIN, K.PASS}
    first, second = answer_order
    do(state, K.WIN, first)
    assert state.phase is Phase.CLAIMS and state.awaiting() == [second]  # waits for every answer
    do(state, K.WIN, second)
    r = state.result
    assert r is not None and state.phase is Phase.ENDED
    assert r.winners == (1, 2) and r.win_kind is WinKind.DISCARD and r.discarder == 0
    sit = r.situation
    assert sit.winners == (1, 2) and sit.discarder == 0 and sit.winning_tile == t("9p")
    assert sit.earthly and not sit.heavenly and not sit.human
    assert t("9p") in sit.seats[1].concealed and t("9p") in sit.seats[2].concealed
    assert len(sit.seats[1].concealed) == 14 and len(sit.seats[2].concealed) == 14
    assert sum(r.score.net) == 0 and r.score.net[0] < 0 and r.score.net[1] > 0 and r.score.net[2] > 0


@pytest.mark.parametrize("winner", [1, 2])
def test_r16_one_winner_when_the_other_passes(winner):
    """docs/rules/tiantai.md#multiple-wins: 一炮多響 only for those who claim; a pass is a pass."""
    state = rig(TIANTAI, MULTI)
    discard(state, 0, "9p", pass_claims=False)
    do(state, K.WIN, winner)
    do(state, K.PASS, 3 - winner)
    assert state.result is not None and state.result.winners == (winner,)


def test_r25_a14_win_on_the_dealers_second_discard_is_not_earthly():
    """docs/rules/tiantai.md#heavenly-earthly / A-14, seed 000:L44: only the dealer's *first* discard gives 地胡."""
    state = rig(TIANTAI, MULTI, draws=["7z", "7z", "7z"])
    discard(state, 0, "2z")
    discard(state, 1, "7z")
    discard(state, 2, "7z")
    discard(state, 0, "9p", pass_claims=False)
    do(state, K.WIN, 1)
    do(state, K.PASS, 2)
    sit = state.result.situation
    assert sit.winners == (1,) and not sit.earthly and not sit.heavenly


def test_r25_a14_win_on_a_non_dealers_first_discard_is_not_earthly():
    """docs/rules/tiantai.md#heavenly-earthly / A-14: a win on the 下家's first discard is not 地胡 (not the dealer's discard)."""
    state = rig(TIANTAI, MULTI, draws=["9p"])
    discard(state, 0, "2z")
    assert offers(state, 1, K.WIN)  # seat 1 could self-draw; it discards instead
    discard(state, 1, "9p", pass_claims=False)
    do(state, K.WIN, 2)
    sit = state.result.situation
    assert sit.winners == (2,) and sit.discarder == 1 and not sit.earthly


@pytest.mark.parametrize("order", [("pong", "win"), ("win", "pong")])
def test_r15_win_beats_pong(order):
    """docs/rules/tiantai.md#claims: 胡 > 碰 whatever the order in which the answers arrive."""
    state = rig(TIANTAI, PRIO)
    discard(state, 0, "9p", pass_claims=False)
    assert kinds(state, 1) == {K.PONG, K.PASS}
    assert kinds(state, 2) == {K.WIN, K.PASS}
    for what in order:
        if what == "pong":
            do(state, K.PONG, 1, "9p")
        else:
            do(state, K.WIN, 2)
    assert state.result.winners == (2,)
    assert state.seats[1].melds == []


def test_r13_r21_pong_then_must_discard():
    """docs/rules/tiantai.md#claims, docs/rules/tiantai.md#turn-order, seed 000:L15-16: a pong is taken; the ponger must then discard (no draw, no
    win or kong on that turn)."""
    state = rig(TIANTAI, PRIO)
    discard(state, 0, "9p", pass_claims=False)
    do(state, K.PASS, 2)
    events = do(state, K.PONG, 1, "9p")
    assert "draw" not in event_types(events)
    assert state.phase is Phase.TURN and state.current == 1
    m = state.seats[1].melds[0]
    assert m.kind is MeldKind.PONG and m.from_seat == 0 and m.claimed == t("9p")
    assert kinds(state, 1) == {K.DISCARD}
    assert state.seats[0].river == []


def test_r13_a6_no_chow():
    """docs/rules/tiantai.md#claims / A-6, seed 000:L16-21: no 吃, not even for the 下家 holding 12m 45m on 3m."""
    state = rig(TIANTAI, ["3m 222z 333z 444z 55z 66z", "12m 45m 789m 123p 456p", "111z 56789p 77z 11p 9m"])
    events = discard(state, 0, "3m", pass_claims=False)
    assert state.phase is Phase.TURN and state.current == 1  # no window at all: seat 1 drew
    assert event_types(events) == ["discard", "draw"]
    assert not TIANTAI.has_chow


def test_r11_turn_order_counterclockwise_and_dealer_discards_first():
    """docs/rules/tiantai.md#turn-order, seed 000:L13: the dealer starts by discarding; then 下家, 上家, dealer."""
    state = rig(TIANTAI, MULTI, draws=["7z", "7z", "7z"])
    assert state.current == 0 and kinds(state, 0) == {K.DISCARD}
    assert kinds(state, 1) == set() and kinds(state, 2) == set()
    drawers = []
    for seat, tile in [(0, "2z"), (1, "7z"), (2, "7z")]:
        events = discard(state, seat, tile)
        drawers += [e.public["seat"] for e in events if e.type == "draw"]
    assert drawers == [1, 2, 0]


# --------------------------------------------------------------------------------------------------
# Kongs and 搶槓 (docs/rules/tiantai.md#replacements, docs/rules/tiantai.md#own-turn, docs/rules/tiantai.md#robbing)

# seat 0 pongs 5m from seat 2, later draws the 4th 5m and adds it; seats 1 (34m) and 2 (46m) can both rob.
ROB = ["55m 111p 222p 333p 1z 2z 3z", "34m 678m 456p 789p 66z", "456m 111m 999m 234p 7z"]
ROB_DRAWS = ["3z", "7z", "4z", "4z", "5m"]


def _to_added_kong(tail: str = "8m") -> HandState:
    state = rig(TIANTAI, ROB, draws=ROB_DRAWS, tail=tail)
    discard(state, 0, "1z")
    discard(state, 1, "3z")
    assert offers(state, 2, K.WIN)  # 456m 111m 999m 234p 77z: seat 2 may self-draw, but plays on
    discard(state, 2, "5m", pass_claims=False)
    assert kinds(state, 0) == {K.PONG, K.PASS} and kinds(state, 1) == {K.WIN, K.PASS}
    do(state, K.PASS, 1)
    do(state, K.PONG, 0, "5m")
    discard(state, 0, "2z")
    discard(state, 1, "4z")
    discard(state, 2, "4z")
    assert state.current == 0 and state.seats[0].drawn == t("5m")
    assert offers(state, 0, K.KONG, "5m")
    return state


@pytest.mark.parametrize("answers, winner", [
    ({1: K.WIN, 2: K.WIN}, 1),
    ({2: K.WIN, 1: K.WIN}, 1),  # seat 2 answers first: still only seat 1
    ({1: K.PASS, 2: K.WIN}, 2),
    ({1: K.WIN, 2: K.PASS}, 1),
])
def test_r18_a5_rob_only_added_kong_first_counterclockwise_and_kong_fails(answers, winner):
    """docs/rules/tiantai.md#robbing / A-5, seed 000:L38-39: both others can rob the 補槓; only the first counterclockwise
    from the konger wins (no 一炮多響 here); the kong fails: the meld stays a pong, no replacement."""
    state = _to_added_kong()
    tail_before = state.wall.tail
    events = do(state, K.KONG, 0, "5m")
    assert event_types(events) == ["kong_attempt"]
    assert state.phase is Phase.ROB
    assert kinds(state, 1) == {K.WIN, K.PASS} and kinds(state, 2) == {K.WIN, K.PASS}
    for seat, kind in answers.items():
        do(state, kind, seat)
    r = state.result
    assert r.winners == (winner,) and r.win_kind is WinKind.ROB_KONG
    assert r.discarder == 0 and r.winning_tile == t("5m") and r.kongs == 0
    sit = r.situation
    assert sit.win_kind is WinKind.ROB_KONG and sit.discarder == 0 and sit.kong_kind is None
    assert [(m.kind, m.first) for m in sit.seats[0].melds] == [(MeldKind.PONG, t("5m"))]
    assert t("5m") not in sit.seats[0].concealed
    assert state.wall.tail == tail_before  # no replacement drawn
    assert "rob_kong" in {i.key for i in r.score.seats[winner].items}


def test_r9_r17_added_kong_completes_when_nobody_robs_and_replaces_from_tail():
    """docs/rules/tiantai.md#replacements, docs/rules/tiantai.md#own-turn, seed 000:L19: 補槓, then a replacement from the tail, then a discard."""
    state = _to_added_kong(tail="8m")
    do(state, K.KONG, 0, "5m")
    do(state, K.PASS, 1)
    events = do(state, K.PASS, 2)
    assert event_types(events) == ["kong", "draw"]
    draw = events[-1]
    assert draw.public["tail"] is True and draw.private[0]["tile"] == "8m"
    m = state.seats[0].melds[0]
    assert m.kind is MeldKind.KONG and m.added and m.tiles == (t("5m"),) * 4
    assert state.phase is Phase.TURN and state.current == 0 and K.DISCARD in kinds(state, 0)
    assert state.kongs == 1


def test_r26_added_kong_replacement_win_is_kong_replacement():
    """docs/rules/tiantai.md#kong-bloom, seed 000:L37: a win on the 補槓 replacement is 槓上開花 (kong_kind ADDED)."""
    state = _to_added_kong(tail="3z")
    do(state, K.KONG, 0, "5m")
    do(state, K.PASS, 1)
    do(state, K.PASS, 2)
    assert offers(state, 0, K.WIN)
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.win_kind is WinKind.KONG_REPLACEMENT and sit.kong_kind is KongKind.ADDED
    assert sit.kong_tile == t("5m") and sit.winners == (0,) and sit.discarder is None
    assert "kong_bloom" in {i.key for i in state.result.score.seats[0].items}


def test_r18_concealed_kong_cannot_be_robbed():
    """docs/rules/tiantai.md#robbing, seed 000:L38: only a 補槓 can be robbed; seat 1 waits on 5m but gets no chance."""
    state = rig(TIANTAI, ["5555m 111p 222p 333p 1z", "34m 678m 456p 789p 66z", "111m 999m 444p 777z 2z"],
                tail="8m")
    assert offers(state, 0, K.KONG, "5m")
    events = do(state, K.KONG, 0, "5m")
    assert event_types(events) == ["kong", "draw"]
    assert state.phase is Phase.TURN and state.current == 0
    assert state.seats[0].melds[0].kind is MeldKind.AKONG
    assert events[-1].public["tail"] is True and events[-1].private[0]["tile"] == "8m"


def test_r17_concealed_kong_shows_one_tile_face_up():
    """docs/rules/tiantai.md#own-turn, seed 000:L21 "暗槓後需把槓牌翻出一張": the kong's tile is public in 天台."""
    state = rig(TIANTAI, ["5555m 111p 222p 333p 1z", "34m 678m 456p 789p 66z", "111m 999m 444p 777z 2z"],
                tail="8m")
    events = do(state, K.KONG, 0, "5m")
    kong = events[0]
    assert kong.for_seat(1)["tile"] == "5m"
    meld = state.view(1)["players"][0]["melds"][0]
    assert meld["kind"] == "akong" and "5m" in meld["tiles"]


@pytest.mark.parametrize("scenario", ["concealed", "exposed"])
def test_r17_r26_kong_replacement_win_flags(scenario):
    """docs/rules/tiantai.md#own-turn, docs/rules/tiantai.md#kong-bloom, seed 000:L19-21, L37: a win on a kong's tail replacement is 槓上開花, with the
    kind of kong and its tile handed to the scorer; it is not 天胡 even on the dealer's first turn."""
    if scenario == "concealed":
        state = rig(TIANTAI, ["5555m 123p 456p 789p 1z", "", ""], tail="1z")
        do(state, K.KONG, 0, "5m")
        winner, kind = 0, KongKind.CONCEALED
    else:
        state = rig(TIANTAI, ["5m 222z 333z 444z 66z 77z", "555m 123p 456p 789p 1z", "111m 999m 444p 777p 2m"],
                    tail="1z")
        discard(state, 0, "5m", pass_claims=False)
        assert kinds(state, 1) == {K.PONG, K.KONG, K.PASS}
        do(state, K.KONG, 1, "5m")
        winner, kind = 1, KongKind.EXPOSED
    assert state.current == winner and state.context.source.value == "kong"
    do(state, K.WIN, winner)
    sit = state.result.situation
    assert sit.win_kind is WinKind.KONG_REPLACEMENT and sit.kong_kind is kind and sit.kong_tile == t("5m")
    assert not sit.heavenly and not sit.earthly
    assert state.result.kongs == 1


def test_r26_a13_win_on_a_flower_replacement():
    """docs/rules/tiantai.md#kong-bloom / A-13, seed 000:L32, L37: a win on a flower's replacement is FLOWER_REPLACEMENT,
    which the 天台 scorer counts as 槓上開花."""
    state = rig(TIANTAI, ["1z 222z 333z 444z 55z 66z", "123m 456m 789m 234p 9p", "111m 999m 444p 777p 5p"],
                draws=["1f"], tail="9p")
    discard(state, 0, "1z")
    assert state.current == 1 and state.seats[1].drawn == t("9p")
    do(state, K.WIN, 1)
    sit = state.result.situation
    assert sit.win_kind is WinKind.FLOWER_REPLACEMENT and sit.kong_kind is None
    assert sit.seats[1].flowers == (t("1f"),)
    assert "kong_bloom" in {i.key for i in state.result.score.seats[1].items}


# --------------------------------------------------------------------------------------------------
# 天胡 (docs/rules/tiantai.md#heavenly-earthly), 7 pairs (docs/rules/tiantai.md#winning-hand), end of hand (docs/rules/tiantai.md#hand-end)


@pytest.mark.parametrize("hands, tail", [
    (["123m 456m 789m 123p 99p", "", ""], ""),
    (["123m 456m 789m 123p 9p 1f", "", ""], "9p"),  # the flower's replacement completes the hand
])
def test_r24_heavenly_after_initial_replacement(hands, tail):
    """docs/rules/tiantai.md#heavenly-earthly, seed 000:L43: the dealer's 14 tiles after the initial flower replacement win."""
    state = rig(TIANTAI, hands, tail=tail)
    assert offers(state, 0, K.WIN)
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.heavenly and not sit.earthly and sit.win_kind is WinKind.SELF_DRAW and sit.winners == (0,)


def test_r24_no_heavenly_after_the_dealers_first_discard():
    """docs/rules/tiantai.md#heavenly-earthly: a later self-draw by the dealer is a plain 自摸."""
    state = rig(TIANTAI, ["123m 456m 789m 123p 9p 1z", "111z 222z 333z 456p 7z", "444z 555z 666z 78p 5p"],
                draws=["1m", "2m", "9p"])
    discard(state, 0, "1z")
    discard(state, 1, "1m")
    discard(state, 2, "2m")
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.win_kind is WinKind.SELF_DRAW and not sit.heavenly


def test_r22_seven_pairs_is_not_a_win():
    """docs/rules/tiantai.md#winning-hand, seed 000:L23: only 4 sets + 1 pair; 七對 does not win."""
    state = rig(TIANTAI, ["11m 22m 33p 55p 77p 11z 22z", "", ""])
    assert K.WIN not in kinds(state, 0)
    control = rig(TIANTAI, ["111m 222m 333p 55p 777p", "", ""])
    assert K.WIN in kinds(control, 0)


@pytest.mark.parametrize("action", ["discard", "win"])
def test_r28_hand_ends_at_the_first_win(action):
    """docs/rules/tiantai.md#hand-end, seed 000:L59: after a win nothing more can be played."""
    from engine.actions import Action, IllegalAction, Refusal

    state = rig(TIANTAI, ["123m 456m 789m 123p 99p", "", ""])
    do(state, K.WIN, 0)
    assert state.phase is Phase.ENDED and state.events[-1].type == "hand_end"
    for seat in range(3):
        assert state.legal_actions(seat) == []
    a = Action(K.DISCARD, 0, t("1m")) if action == "discard" else Action(K.WIN, 1)
    with pytest.raises(IllegalAction) as info:
        state.apply(a)
    assert info.value.reason is Refusal.HAND_OVER


# --------------------------------------------------------------------------------------------------
# 過碰 / 過胡 (docs/rules/tiantai.md#pass-locks, A-11)

PASS_WIN = ["5m 111p 222p 333p 1z 2z 3z 4z", "5m 678m 456p 789p 66z 1z", "46m 111m 999m 234p 77z"]
PASS_PONG = ["9p 111m 222m 333m 1z 2z 3z 4z", "9p 678m 456p 78p 66z 1z 2z", "99p 45m 77z 123p 55z 6z 4z"]


def test_r19_a11_passed_win_locked_until_own_draw_but_self_draw_allowed():
    """docs/rules/tiantai.md#pass-locks / A-11, seed 000:L54: seat 2 passes a win on 5m; 5m from the next discard is not
    offered; a self-drawn 5m on its own next draw still wins."""
    state = rig(TIANTAI, PASS_WIN, draws=["3z", "5m"])
    discard(state, 0, "5m", pass_claims=False)
    assert kinds(state, 2) == {K.WIN, K.PASS}
    do(state, K.PASS, 2)
    assert state.current == 1
    events = discard(state, 1, "5m", pass_claims=False)
    assert state.phase is Phase.TURN and state.current == 2  # no window: seat 2 was not offered 5m
    assert event_types(events) == ["discard", "draw"]
    assert state.seats[2].drawn == t("5m") and offers(state, 2, K.WIN)
    do(state, K.WIN, 2)
    assert state.result.win_kind is WinKind.SELF_DRAW and state.result.winners == (2,)


def test_r19_a11_passed_win_unlocked_after_own_draw():
    """docs/rules/tiantai.md#pass-locks / A-11: after its own next draw, seat 2 may win on a discarded 5m again."""
    state = rig(TIANTAI, PASS_WIN, draws=["3z", "3z", "5m"])
    discard(state, 0, "5m", pass_claims=False)
    do(state, K.PASS, 2)
    discard(state, 1, "5m")
    discard(state, 2, "3z")
    discard(state, 0, "5m", pass_claims=False)
    assert kinds(state, 2) == {K.WIN, K.PASS}


def test_r19_a11_passed_pong_locked_until_own_draw():
    """docs/rules/tiantai.md#pass-locks / A-11, seed 000:L53: seat 2 passes a pong of 9p; the 4th 9p, discarded before seat
    2's next draw, is not offered."""
    state = rig(TIANTAI, PASS_PONG, draws=["3z"])
    discard(state, 0, "9p", pass_claims=False)
    assert kinds(state, 2) == {K.PONG, K.PASS}
    do(state, K.PASS, 2)
    discard(state, 1, "9p", pass_claims=False)
    assert state.phase is Phase.TURN and state.current == 2


def test_r19_a11_passed_pong_unlocked_after_own_draw():
    """docs/rules/tiantai.md#pass-locks / A-11: after seat 2's own draw, the 4th 9p may be ponged."""
    state = rig(TIANTAI, PASS_PONG, draws=["3z", "3z", "7m", "8m"])
    discard(state, 0, "9p", pass_claims=False)
    do(state, K.PASS, 2)
    discard(state, 1, "3z")
    discard(state, 2, "3z")
    discard(state, 0, "7m")
    discard(state, 1, "9p", pass_claims=False)
    assert kinds(state, 2) == {K.PONG, K.PASS}


# --------------------------------------------------------------------------------------------------
# Reserve, 海底, last tile, 流局 (docs/rules/tiantai.md)

# No flower is drawn in play: the rigging puts the flowers at the tail; 54 head draws, #54 by the dealer.
HAIDI_INDEX = 40 + 54 - 1  # the 15th tile from the end (seed 000:L36)


def test_r10_r30_reserve_of_14_and_exhaustive_draw_pays_nothing():
    """docs/rules/tiantai.md#reserve, docs/rules/tiantai.md#exhaustive-draw, seed 000:L36, L57-58: 54 normal draws, 14 tiles left, 流局, nobody pays."""
    state = rig(TIANTAI, ["111z 222z 333z 444z 5z 6z", "", ""])
    run_defaults(state, lambda s: False)
    r = state.result
    assert r is not None and r.winners == () and r.win_kind is None and r.is_draw
    assert state.wall.remaining == 14
    head_draws = [e for e in state.events if e.type == "draw" and not e.public["tail"]]
    assert len(head_draws) == 54
    assert r.score.payments == () and r.score.net == [0, 0, 0]


@pytest.mark.parametrize("seed", range(6))
def test_r10_reserve_is_never_drawn_normally(seed):
    """docs/rules/tiantai.md#reserve / docs/rules/common.md#wall: a normal draw only while more than 14 tiles remain; replacements eat the
    reserve, so the hand ends when the wall is down to 14 or fewer (never more)."""
    state = HandState.deal(TIANTAI, seed=seed)
    seen = []

    def record(s: HandState) -> bool:
        seen.append(s.wall.remaining)
        return False

    run_defaults(state, record)
    draws = [e for e in state.events if e.type == "draw"]
    assert all(e.public["wall"] >= 14 for e in draws if not e.public["tail"])
    assert state.result.is_draw and state.wall.remaining <= 14
    assert len(draws) == 108 - 40 - state.wall.remaining


def _to_haidi(hands, tile, index=HAIDI_INDEX):
    state = rig(TIANTAI, hands, head_at={index: tile})
    run_defaults(state, lambda s: s.phase is Phase.TURN and s.wall.head == index + 1)
    assert state.current == 0 and state.seats[0].drawn == t(tile)
    return state


def test_r27_self_drawn_win_on_the_last_tile_is_haidi():
    """docs/rules/tiantai.md#last-draw-win, seed 000:L36: 海底撈月 is a self-drawn win on the last drawable tile."""
    state = _to_haidi(["123m 456m 789m 123p 9p 5z", "", ""], "9p")
    assert state.wall.remaining == 14 and state.context.last
    do(state, K.WIN, 0)
    sit = state.result.situation
    assert sit.win_kind is WinKind.SELF_DRAW and sit.last_tile
    assert "last_tile" in {i.key for i in state.result.score.seats[0].items}


@pytest.mark.parametrize("index, kong_allowed", [(HAIDI_INDEX - 3, True), (HAIDI_INDEX, False)])
def test_r20_no_kong_on_the_last_drawable_tile(index, kong_allowed):
    """docs/rules/tiantai.md#last-tile, seed 000:L56: no kong by the player who drew the last drawable tile (an earlier
    draw of the same tile allows the 暗槓)."""
    state = _to_haidi(["123m 456m 111p 5z 6z 7z 1z 2z", "", ""], "1p", index)
    assert offers(state, 0, K.KONG, "1p") is kong_allowed
    assert state.context.last is (index == HAIDI_INDEX)


@pytest.mark.parametrize("index, pong_offered", [(HAIDI_INDEX - 3, True), (HAIDI_INDEX, False)])
def test_r20_last_discard_can_only_be_won_on(index, pong_offered):
    """docs/rules/tiantai.md#last-tile, seed 000:L55: the discard after the 海底 draw cannot be ponged or konged, but it can
    be won on (and earns no 海底)."""
    hands = ["111z 222z 333z 444z 5z 6z", "99p 12m 45m 78m 12p 45p 7z", "123m 456m 789m 234p 9p"]
    state = _to_haidi(hands, "9p", index)
    discard(state, 0, "9p", pass_claims=False)
    assert offers(state, 1, K.PONG) is pong_offered
    assert offers(state, 2, K.WIN)
    if pong_offered:
        return
    do(state, K.WIN, 2)
    sit = state.result.situation
    assert sit.win_kind is WinKind.DISCARD and sit.discarder == 0
    assert "last_tile" not in {i.key for i in state.result.score.seats[2].items}


def test_r20_r8_last_tile_flower_replacement_is_still_the_last_tile():
    """docs/rules/tiantai.md#last-tile with docs/rules/tiantai.md#flowers: when the 海底 draw is a flower, its tail replacement is still the last tile
    of the hand: no kong on it, and its discard can be won on but not ponged."""
    hands = ["111z 222z 333z 444z 5z 6z", "99p 12m 45m 78m 12p 45p 7z", "123m 456m 789m 234p 9p"]
    state = rig(TIANTAI, hands, tail="9p", head_at={HAIDI_INDEX: "1f"})
    run_defaults(state, lambda s: s.phase is Phase.TURN and s.wall.head == HAIDI_INDEX + 1)
    assert state.current == 0 and state.seats[0].drawn == t("9p") and state.seats[0].flowers == [t("1f")]
    assert not offers(state, 0, K.KONG)
    discard(state, 0, "9p", pass_claims=False)
    assert not offers(state, 1, K.PONG)
    assert offers(state, 2, K.WIN)


def test_r10_r20_kong_never_eats_below_the_reserve():
    """docs/rules/tiantai.md#reserve, docs/rules/tiantai.md#last-tile, seed 000:L56-57 "抓牌最後需留14張牌": seat 2 draws with 15 left and makes a
    暗槓; its replacement leaves exactly 14, so it is the last tile: a second kong on it is not allowed."""
    hands = ["111z 222z 333z 444z 5z 6z", "", "555m 666m 123p 456p 7p"]
    state = rig(TIANTAI, hands, tail="6m", head_at={HAIDI_INDEX - 1: "5m"})
    run_defaults(state, lambda s: s.phase is Phase.TURN and s.wall.head == HAIDI_INDEX)
    assert state.current == 2 and state.wall.remaining == 15
    do(state, K.KONG, 2, "5m")
    assert state.wall.remaining == 14 and state.seats[2].drawn == t("6m")
    assert not offers(state, 2, K.KONG)


# --------------------------------------------------------------------------------------------------
# Dealer rotation and match units (docs/rules/tiantai.md#dealer-rotation, docs/rules/tiantai.md#match-units, A-4)


@pytest.mark.parametrize("winners, kongs, option, stays", [
    ((0,), 0, False, True),  # the dealer wins
    ((0, 2), 0, False, True),  # the dealer is one of several winners (一炮多響)
    ((1,), 0, False, False),
    ((1, 2), 0, False, False),
    ((), 0, False, False),  # 流局 passes the deal (A-4 default)
    ((), 2, False, False),
    ((), 0, True, True),  # option draw_keeps_dealer_if_no_kong: no kong → stays (seed 000:L48)
    ((), 1, True, False),  # ... a kong → passes
    ((1,), 0, True, False),
])
def test_r29_a4_dealer_rotation(winners, kongs, option, stays):
    """docs/rules/tiantai.md#dealer-rotation / A-4, seed 000:L47-52, L57: the dealer stays only by winning; option
    draw_keeps_dealer_if_no_kong keeps them on a kong-less 流局."""
    for dealer in range(3):
        m = Match(TIANTAI, first_dealer=dealer, options={"draw_keeps_dealer_if_no_kong": option})
        w = tuple((dealer + x) % 3 for x in winners)
        m.record(FinishedHand(w, kongs))
        assert m.dealer == (dealer if stays else (dealer + 1) % 3)


def test_r32_a_game_of_four_rounds_is_twelve_deals():
    """docs/rules/tiantai.md#match-units, seed 000:L26: 局 = 4 圈, one 圈 = each of the 3 players has dealt once."""
    m = Match(TIANTAI, first_dealer=2)
    dealers = []
    while not m.finished:
        dealers.append(m.dealer)
        m.record(FinishedHand((0,) if m.dealer != 0 else (1,)))  # a non-dealer wins every hand
    assert dealers == [2, 0, 1] * 4
    assert m.round_wind == 4


def test_r29_real_hand_records_into_match():
    """docs/rules/tiantai.md#dealer-rotation: a real finished hand (天胡 by the dealer) keeps the deal."""
    m = Match(TIANTAI, first_dealer=1)
    state = rig(TIANTAI, ["", "123m 456m 789m 123p 99p", ""], dealer=1)
    do(state, K.WIN, 1)
    m.record(state)
    assert m.dealer == 1
    state = rig(TIANTAI, ["", "111z 222z 333z 444z 5z 6z", ""], dealer=1)
    run_defaults(state, lambda s: False)
    m.record(state)
    assert m.dealer == 2


# --------------------------------------------------------------------------------------------------
# Timers (docs/rules/tiantai.md#timers, A-12)


def test_r12_r14_a12_timer_defaults():
    """docs/rules/tiantai.md#timers / A-12, docs/rules/timing.md#timers, seed 000:L15-16: 30 s to discard, a 3 s window for every claim."""
    opts = TIANTAI.resolve_options(None)
    assert opts["discard_seconds"] == 30.0 and opts["claim_seconds"] == 3.0


def test_r14_no_answer_counts_as_pass():
    """docs/rules/tiantai.md#timers: a claim prompt that times out passes (even a win)."""
    state = rig(TIANTAI, PRIO)
    discard(state, 0, "9p", pass_claims=False)
    for seat in (1, 2):
        a = state.default_action(seat)
        assert a is not None and a.kind is K.PASS
        state.apply(a)
    assert state.result is None and state.current == 1 and state.seats[1].melds == []


def test_r12_timeout_discards_the_drawn_tile_or_after_a_pong_the_rightmost():
    """docs/rules/tiantai.md#timers, docs/rules/timing.md#timeout: on timeout the last drawn tile is discarded; after a claim, the rightmost tile."""
    state = rig(TIANTAI, PRIO)
    discard(state, 0, "9p", pass_claims=False)
    do(state, K.PASS, 2)
    do(state, K.PONG, 1, "9p")
    a = state.default_action(1)
    assert a.kind is K.DISCARD and a.tile == max(state.seats[1].tiles())
    assert hand(state, 1) == "123456789m13p" and str(a.tile) == "3p"
    state = rig(TIANTAI, PRIO, draws=["1m"])
    discard(state, 0, "2z")
    assert state.seats[1].drawn == t("1m")
    a = state.default_action(1)
    assert a.kind is K.DISCARD and a.tile == t("1m")  # the drawn tile, not the rightmost
