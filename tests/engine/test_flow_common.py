"""Rules shared by the variants: claims of the 4-player variants (台炮 docs/rules/taipao.md#claims, docs/rules/taipao.md#own-turn, 台灣 docs/rules/taiwan.md#claims, docs/rules/taiwan.md#robbing, B-18, C-17),
timeouts and auto-play (docs/rules/timing.md#auto-play), refusals of illegal actions, and what a seat may see.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.actions import Action
from engine.invariants import check_all
from engine.melds import MeldKind
from engine.rigging import deal_positions
from engine.scoring.situation import WinKind
from engine.state import HandState
from engine.tiles import TILES
from engine.variants import Variant
from tests.engine.flow_helpers import (
    ALL_VARIANTS,
    TAIPAO,
    TAIWAN,
    TIANTAI,
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
    snapshot,
    t,
    ts,
)

FOUR = [TAIPAO, TAIWAN]
IDS4 = ["taipao", "taiwan"]

# --------------------------------------------------------------------------------------------------
# Claims in the 4-player variants

# The dealer discards 4m: seat 1 (下家) may chow 234/345/456m, seat 2 may win (1m/4m wait; it also holds 23m
# but is not the 上家), seat 3 may pong.
CHOW4 = ["4m 111z 222z 333z 444z 555z 6z", "2356m 111p 222p 333p 99s 1s", "23m 444p 555p 666p 777p 11s",
         "44m 888p 999p 222s 333s 4s 6z"]


def _chow4(variant: Variant) -> HandState:
    state = rig(variant, CHOW4)
    discard(state, 0, "4m", pass_claims=False)
    return state


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
def test_chow_only_from_the_left_player(variant):
    """docs/rules/taipao.md#claims, docs/rules/taiwan.md#claims: 吃 only from the 上家, with every chow the hand allows; the seat opposite,
    holding 23m, may not chow."""
    state = _chow4(variant)
    chows = sorted(a.tiles for a in state.legal_actions(1) if a.kind is K.CHOW)
    assert chows == [tuple(ts("234m")), tuple(ts("345m")), tuple(ts("456m"))]
    assert all(a.tile == t("4m") for a in state.legal_actions(1) if a.kind is K.CHOW)
    assert kinds(state, 2) == {K.WIN, K.PASS} and kinds(state, 3) == {K.PONG, K.PASS}


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
@pytest.mark.parametrize("order", [(1, 2, 3), (3, 2, 1), (2, 1, 3)])
def test_win_beats_pong_beats_chow(variant, order):
    """docs/rules/taipao.md#claims, docs/rules/taiwan.md#claims: priority 和 > 碰 = 杠 > 吃, whatever the order of the answers."""
    state = _chow4(variant)
    answers = {1: (K.CHOW, "4m", "234m"), 2: (K.WIN, None, ""), 3: (K.PONG, "4m", "")}
    for seat in order:
        kind, tile, tiles = answers[seat]
        assert state.result is None
        do(state, kind, seat, tile, tiles)
    r = state.result
    assert r.winners == (2,) and r.win_kind is WinKind.DISCARD and r.discarder == 0
    assert all(s.melds == [] for s in state.seats)


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
@pytest.mark.parametrize("order", [(1, 3), (3, 1)])
def test_pong_beats_chow(variant, order):
    """docs/rules/taipao.md#claims, docs/rules/taiwan.md#claims: 碰 > 吃."""
    state = _chow4(variant)
    do(state, K.PASS, 2)
    for seat in order:
        if seat == 1:
            do(state, K.CHOW, 1, "4m", "456m")
        else:
            do(state, K.PONG, 3, "4m")
    assert state.current == 3 and state.phase is Phase.TURN
    assert [(m.kind, m.from_seat) for m in state.seats[3].melds] == [(MeldKind.PONG, 0)]
    assert state.seats[1].melds == []


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
def test_chow_taken_then_discard_only(variant):
    """docs/rules/taipao.md#claims, docs/rules/taiwan.md#claims, docs/rules/tiantai.md#turn-order (the same in every variant): a chow is made of the discard and
    two own tiles; then the player must discard (no draw, no self-drawn win, no kong)."""
    state = _chow4(variant)
    do(state, K.PASS, 2)
    do(state, K.PASS, 3)
    assert state.phase is Phase.CLAIMS
    events = do(state, K.CHOW, 1, "4m", "345m")
    assert event_types(events) == ["chow"] and events[0].public["tiles"] == ["3m", "4m", "5m"]
    m = state.seats[1].melds[0]
    assert m.kind is MeldKind.CHOW and m.tiles == tuple(ts("345m")) and m.claimed == t("4m") and m.from_seat == 0
    assert kinds(state, 1) <= {K.DISCARD} and state.current == 1
    assert state.seats[1].counts[t("3m")] == 0 and state.seats[1].counts[t("5m")] == 0
    assert state.seats[0].river == []


# The dealer pongs 5m from seat 3, then adds the 4th; seats 2 (34m) and 3 (46m) may both rob.
ROB4 = ["55m 111p 222p 333p 1z 2z 3z 4z 5z 6z", "111s 222s 333s 444s 99s 6z 5z",
        "34m 678m 456p 789p 678s 66z", "456m 111m 999m 567s 234p 7p"]
ROB4_DRAWS = ["2z", "3z", "7p", "4z", "5z", "4z", "5m"]


def _to_added_kong4(variant: Variant) -> HandState:
    state = rig(variant, ROB4, draws=ROB4_DRAWS, tail="2m 2m")  # 台炮 財神 2m: nobody holds one
    discard(state, 0, "1z")
    discard(state, 1, "2z")
    discard(state, 2, "3z")
    discard(state, 3, "5m", pass_claims=False)
    assert kinds(state, 2) == {K.WIN, K.PASS}
    do(state, K.PASS, 2)
    do(state, K.PONG, 0, "5m")
    discard(state, 0, "4z")
    discard(state, 1, "4z")
    discard(state, 2, "5z")
    discard(state, 3, "4z")
    assert state.current == 0 and state.seats[0].drawn == t("5m")
    return state


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
@pytest.mark.parametrize("answers, winner", [({3: K.WIN, 2: K.WIN}, 2), ({2: K.PASS, 3: K.WIN}, 3)])
def test_rob_added_kong_first_counterclockwise_and_kong_fails(variant, answers, winner):
    """docs/rules/taipao.md#own-turn / B-18 and docs/rules/taiwan.md#robbing / C-17: an added kong may be robbed; with two robbers only the
    first counterclockwise from the konger wins; the kong fails (the meld stays a pong, no replacement)."""
    state = _to_added_kong4(variant)
    tail = state.wall.tail
    do(state, K.KONG, 0, "5m")
    assert state.phase is Phase.ROB and kinds(state, 1) == set()
    for seat, kind in answers.items():
        do(state, kind, seat)
    r = state.result
    assert r.winners == (winner,) and r.win_kind is WinKind.ROB_KONG and r.discarder == 0
    assert [m.kind for m in r.situation.seats[0].melds] == [MeldKind.PONG]
    assert state.wall.tail == tail and r.kongs == 0


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
def test_added_kong_completes_with_a_tail_replacement(variant):
    """docs/rules/taipao.md#own-turn, docs/rules/taiwan.md#robbing: unrobbed, the 加槓 completes and the konger draws from the tail."""
    state = _to_added_kong4(variant)
    tail_tile = state.wall.tiles[state.wall.tail - 1]
    do(state, K.KONG, 0, "5m")
    do(state, K.PASS, 2)
    events = do(state, K.PASS, 3)
    assert events[0].type == "kong" and events[1].type == "draw" and events[1].public["tail"]
    assert events[1].private[0]["tile"] == str(tail_tile)
    assert state.seats[0].melds[0].kind is MeldKind.KONG and state.seats[0].melds[0].added


# --------------------------------------------------------------------------------------------------
# docs/rules/timing.md#auto-play: timeouts and auto-play

FIRST_TURN = {
    "tiantai": ["123m 456m 789m 11p 5z 6z 3p", "", ""],
    "taipao": ["123m 456m 789m 123p 11p 5z 6z 3s", "", "", ""],
    "taiwan": ["123m 456m 789m 123p 11p 5z 6z 3s", "", "", ""],
}


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_s8_timeout_discards_the_drawn_tile(variant):
    """docs/rules/timing.md#timeout, docs/rules/tiantai.md#timers: a discard prompt that times out discards the drawn tile (the dealer's 14th/17th
    on the first turn), not the rightmost tile."""
    state = rig(variant, FIRST_TURN[variant.name])
    drawn = state.seats[0].drawn
    assert drawn == ts(FIRST_TURN[variant.name][0])[-1]
    assert drawn != max(state.seats[0].tiles())
    for auto in (False, True):
        a = state.default_action(0, auto_play=auto)
        assert a == Action(K.DISCARD, 0, drawn)


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
def test_s8_timeout_after_a_claim_discards_the_rightmost_tile(variant):
    """docs/rules/timing.md#timeout: after a claim (here a chow) the rightmost tile of the sorted hand is discarded."""
    state = _chow4(variant)
    do(state, K.PASS, 2)
    do(state, K.PASS, 3)
    do(state, K.CHOW, 1, "4m", "234m")
    a = state.default_action(1)
    assert a == Action(K.DISCARD, 1, max(state.seats[1].tiles()))
    assert str(a.tile) == "9s"


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
def test_s8_claim_timeout_passes_and_auto_play_only_wins(variant):
    """docs/rules/timing.md#auto-play: a claim prompt that times out passes (even a win); 托管 declares a win but never chows,
    pongs or kongs."""
    state = _chow4(variant)
    for seat in (1, 2, 3):
        assert state.default_action(seat) == Action(K.PASS, seat)
    assert state.default_action(1, auto_play=True) == Action(K.PASS, 1)
    assert state.default_action(3, auto_play=True) == Action(K.PASS, 3)
    assert state.default_action(2, auto_play=True) == Action(K.WIN, 2)
    assert state.default_action(0) is None  # not prompted


def test_s8_auto_play_never_kongs_and_declares_self_drawn_wins():
    """docs/rules/timing.md#auto-play: on its own turn 托管 declares an available win; with only a kong available it discards the
    drawn tile; a plain timeout never declares the win."""
    kong = rig(TIANTAI, ["5555m 111p 222p 333p 1z", "", ""])
    assert offers(kong, 0, K.KONG, "5m")
    assert kong.default_action(0, auto_play=True) == Action(K.DISCARD, 0, t("1z"))
    win = rig(TIANTAI, ["123m 456m 789m 123p 99p", "", ""])
    assert win.default_action(0, auto_play=True) == Action(K.WIN, 0)
    assert win.default_action(0) == Action(K.DISCARD, 0, t("9p"))


def test_s8_auto_play_declares_kill_pig():
    """docs/rules/timing.md#auto-play with docs/rules/taipao.md#kill-pig: 杀猪 is a win, so 托管 declares it."""
    state = rig(TAIPAO, ["555m 9s 111p 222p 333p 1z 2z 3z 4z", "", "", ""], tail="5m 9s")
    assert state.default_action(0, auto_play=True) == Action(K.KILL_PIG, 0)
    assert state.default_action(0).kind is K.DISCARD


# --------------------------------------------------------------------------------------------------
# Refusals: a typed reason and no change at all


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_refusals_on_the_dealers_turn(variant):
    """docs/rules/timing.md#timeout / engine contract: an illegal action raises IllegalAction with a Refusal and changes
    nothing (view, events, wall, seats)."""
    state = rig(variant, FIRST_TURN[variant.name])
    not_held = next(x for x in TILES[:27] if state.seats[0].counts[x] == 0 and x.suit != "s")
    cases = [
        (Action(K.DISCARD, 1, t("1m")), Refusal.NOT_YOUR_TURN),
        (Action(K.PASS, 2), Refusal.NOT_YOUR_TURN),
        (Action(K.DISCARD, 0, not_held), Refusal.NOT_LEGAL),
        (Action(K.WIN, 0), Refusal.NOT_LEGAL),  # not a winning hand
        (Action(K.PONG, 0, t("1m")), Refusal.NOT_LEGAL),
        (Action(K.KONG, 0, t("1m")), Refusal.NOT_LEGAL),
        (Action(K.PASS, 0), Refusal.NOT_LEGAL),  # nothing to pass on one's own turn
        (Action(K.CHOW, 0, t("1m"), tuple(ts("123m"))), Refusal.NOT_LEGAL),
        (Action(K.DISCARD, variant.n_seats, t("1m")), Refusal.BAD_SEAT),
        (Action(K.DISCARD, -1, t("1m")), Refusal.BAD_SEAT),
    ]
    for action, reason in cases:
        assert_refused(state, action, reason)
    before = snapshot(state)
    do(state, K.DISCARD, 0, state.seats[0].drawn)  # the state still works
    assert snapshot(state) != before


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
def test_refusals_in_a_claim_window(variant):
    """Refusals in a claim window: answering twice, a chow from the wrong seat, a chow of other tiles, a pong
    without a pair, the discarder claiming its own tile."""
    state = _chow4(variant)
    cases = [
        (Action(K.CHOW, 3, t("4m"), tuple(ts("234m"))), Refusal.NOT_LEGAL),  # not the 上家
        (Action(K.CHOW, 1, t("4m"), tuple(ts("456p"))), Refusal.NOT_LEGAL),
        (Action(K.PONG, 1, t("4m")), Refusal.NOT_LEGAL),
        (Action(K.WIN, 1), Refusal.NOT_LEGAL),
        (Action(K.PONG, 0, t("4m")), Refusal.NOT_YOUR_TURN),
        (Action(K.DISCARD, 1, t("2m")), Refusal.NOT_LEGAL),
    ]
    for action, reason in cases:
        assert_refused(state, action, reason)
    do(state, K.PONG, 3, "4m")  # seat 3 answers; the window stays open
    assert state.phase is Phase.CLAIMS
    assert_refused(state, Action(K.PASS, 3), Refusal.ALREADY_ANSWERED)
    assert_refused(state, Action(K.WIN, 3), Refusal.ALREADY_ANSWERED)


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_refusal_after_the_end(variant):
    """docs/rules/tiantai.md#hand-end and the engine contract: nothing is accepted once the hand is over."""
    hands = {"tiantai": ["123m 456m 789m 123p 99p", "", ""],
             "taipao": ["123m 456m 789m 123p 456p 99p", "", "", ""],
             "taiwan": ["123m 456m 789m 123p 456p 99p", "", "", ""]}[variant.name]
    state = rig(variant, hands)
    do(state, K.WIN, 0)
    for seat in range(variant.n_seats):
        assert_refused(state, Action(K.PASS, seat), Refusal.HAND_OVER)
        assert_refused(state, Action(K.DISCARD, seat, t("1m")), Refusal.HAND_OVER)


def test_tiantai_has_no_chow_action_at_all():
    """docs/rules/tiantai.md#claims / A-6: a chow by the 下家 is refused."""
    state = rig(TIANTAI, ["3m 222z 333z 444z 55z 66z", "12m 45m 789m 99p 456p 1z", "99m 5z 6z 7z 123p 456p 78p"])
    discard(state, 0, "3m", pass_claims=False)
    assert state.phase is Phase.TURN and state.current == 1
    assert_refused(state, act(state, K.CHOW, 1, "3m", "123m"), Refusal.NOT_LEGAL)


# --------------------------------------------------------------------------------------------------
# Views: nobody sees another seat's concealed tiles or the wall


def _scrambled_twin(variant: Variant, seed: int) -> tuple[list, list]:
    """Two walls that agree on everything seat 0 may know at the deal: its own tiles, every bonus tile's
    place, the tail (replacements, 財神 indicators).  The other seats' plain tiles and the undrawn head
    are shuffled."""
    rng = random.Random(seed)
    plain = [TILES[k] for k in variant.kinds if k < 34 and k != 33]
    rng.shuffle(plain)
    extra = [TILES[k] for k in variant.kinds if k >= 33]  # 白 and the flowers go to the tail end
    wall_a = plain + extra
    tail_keep = 30
    mine = set(deal_positions(variant, 0)[0])
    movable = [i for i in range(len(wall_a) - tail_keep) if i not in mine]
    values = [wall_a[i] for i in movable]
    rng.shuffle(values)
    wall_b = list(wall_a)
    for i, v in zip(movable, values, strict=True):
        wall_b[i] = v
    assert wall_a != wall_b
    return wall_a, wall_b


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("seed", range(4))
def test_views_and_events_do_not_depend_on_what_a_seat_may_not_see(variant, seed):
    """Non-interference: two deals that differ only in the other seats' concealed tiles and the wall order give
    seat 0 (and a spectator) exactly the same view and the same events."""
    wall_a, wall_b = _scrambled_twin(variant, seed)
    a = HandState.deal(variant, seed=seed, wall=wall_a)
    b = HandState.deal(variant, seed=seed, wall=wall_b)
    assert [s.tiles() for s in a.seats[1:]] != [s.tiles() for s in b.seats[1:]]
    for viewer in (0, None):
        assert json.dumps(a.view(viewer), sort_keys=True) == json.dumps(b.view(viewer), sort_keys=True)
        assert [e.for_seat(viewer) for e in a.events] == [e.for_seat(viewer) for e in b.events]


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("seed", range(3))
def test_views_show_only_own_concealed_tiles_during_play(variant, seed):
    """Every seat's view holds its own concealed tiles exactly and nobody else's; a spectator sees none; the
    wall's order is in no view; after the hand every hand is shown."""
    state = HandState.deal(variant, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        for seat in range(variant.n_seats):
            view = state.view(seat)
            for p in view["players"]:
                if p["seat"] == seat:
                    assert p["concealed"] == [str(x) for x in state.seats[seat].tiles()]
                else:
                    assert p["concealed"] is None
                    assert p["concealed_count"] == state.seats[p["seat"]].concealed_count()
                    assert "drawn" not in p
            text = json.dumps(view)
            rest = state.wall.remaining_tiles()
            assert json.dumps([str(x) for x in rest[:6]]) not in text
        assert all(p["concealed"] is None for p in state.view(None)["players"])
        seat = rng.choice(state.awaiting())
        state.apply(state.default_action(seat, auto_play=rng.random() < 0.5))
    assert all(p["concealed"] is not None for p in state.view(1)["players"])
    check_all(state)


@pytest.mark.parametrize("variant", FOUR, ids=IDS4)
def test_concealed_kong_hidden_from_others(variant):
    """docs/rules/common.md#examples (`[akong …]`), docs/rules/tiantai.md#own-turn: in 台炮 and 台灣 an 暗槓 stays face down for the others (only 天台
    turns one tile up); the konger sees its tiles."""
    state = rig(variant, ["5555m 111z 222z 333z 444z 6z", "", "", ""], tail="9s 8s")
    events = do(state, K.KONG, 0, "5m")
    kong = events[0]
    assert kong.for_seat(1)["tile"] is None and kong.for_seat(0)["tile"] == "5m"
    assert state.view(1)["players"][0]["melds"][0]["tiles"] == [None] * 4
    assert state.view(0)["players"][0]["melds"][0]["tiles"] == ["5m"] * 4
