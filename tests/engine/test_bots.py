"""The bot levels (issue 12): legal play in every variant, tile efficiency, and sight of own information only.

"Hidden information stays hidden" (project brief): a bot's choice and a hint may depend only on what
``state.view(seat)`` shows — checked by comparing ``sight`` with ``sight_from_view`` and by shuffling the
other seats' concealed tiles and the wall, which must not change any decision.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.actions import Action, ActionKind, act
from engine.bots import POLICIES, get_policy
from engine.bots.normal import choose_claim
from engine.bots.shanten import (
    Sight,
    codes,
    discard_options,
    exchange_shanten,
    need,
    sight,
    sight_from_view,
    winning_kinds,
)
from engine.duel import arrangements, duel, mean_ci, report
from engine.hand import is_win
from engine.hand import waits as engine_waits
from engine.invariants import check_all
from engine.state import HandState
from engine.tiles import N_KINDS, TILES, parse_tiles
from engine.variants import find_variant
from tests.engine.bot_helpers import shuffle_hidden, states_along

VARIANT_NAMES = ("tiantai", "taipao", "taiwan")


def _sight(hand: str, wild: str = "", unseen: int = 4) -> Sight:
    counts = [0] * N_KINDS
    for t in parse_tiles(hand):
        counts[t] += 1
    return Sight(0, counts, frozenset(parse_tiles(wild)) if wild else frozenset(), [unseen] * 34)


def _codes(hand: str) -> list[int]:
    nat = [0] * 34
    for t in parse_tiles(hand):
        nat[t] += 1
    return codes(nat)


@pytest.mark.parametrize(
    ("hand", "jokers", "expected"),
    [
        ("123m 456p 789s 111z 5z", 0, 0),  # 13 tiles: ready on 5z (單吊)
        ("123m 456p 78s 11z 5z 6z 7z", 0, 2),  # 8 − 2·2 sets − 1 partial − 1 pair
        ("1m 4m 7m 1p 5p 9p 2s 6s 1z 2z 3z 4z 5z", 0, 8),  # nothing connects: the textbook 8
        ("1122m 3344p 5566s 7z", 0, 3),  # six pairs, four blocks
        ("123m 456p 789s 5z 6z", 2, 0),  # two 財神: 5z+財神 pair, 6z+財神 waiting
    ],
)
def test_exchange_shanten_counts_draws_as_players_do(hand: str, jokers: int, expected: int) -> None:
    assert exchange_shanten(_codes(hand), jokers) == expected


def test_need_counts_wildcards_and_zero_means_a_win() -> None:
    assert need(_codes("123m 456p 789s 111z 55z"), 0) == 0
    assert need(_codes("123m 456p 789s 111z 5z"), 1) == 0  # the 財神 pairs the 5z
    assert need(_codes("123m 456p 789s 11z 5z 6z"), 0) > 0


def test_discard_options_keep_the_ready_shape_and_list_unseen_waits() -> None:
    view = _sight("123m 456p 789s 111z 5z 7z")
    best = discard_options(view)[0]
    assert best.shanten == 0 and str(TILES[best.tile]) in ("5z", "7z")
    kept = "7z" if str(TILES[best.tile]) == "5z" else "5z"
    assert [(str(TILES[k]), n) for k, n in best.waits] == [(kept, 4)]


def test_waits_match_the_engine_win_check() -> None:
    hand = "2345m 678p 111z 999s"
    c = _codes(hand)
    kinds = winning_kinds(c, 0)
    assert [str(TILES[k]) for k in kinds] == ["2m", "5m"]
    assert c == _codes(hand)  # the helper does not change its input
    counts = [0] * 34
    for t in parse_tiles(hand):
        counts[t] += 1
    assert [TILES[k] for k in kinds] == engine_waits(counts)


def _near_win(rng: random.Random, sets: int) -> list[int]:
    """``sets`` random pungs and chows and a pair (a win), as a 34-long count vector, then one tile swapped
    for a random one half the time: hands around a win, where the bots' need is 0, 1 or 2."""
    while True:
        tiles = [rng.randrange(34)] * 2
        for _ in range(sets):
            t = rng.randrange(34)
            if t < 27 and t % 9 <= 6 and rng.random() < 0.6:
                tiles += [t, t + 1, t + 2]
            else:
                tiles += [t] * 3
        if rng.random() < 0.5:
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4:
            return counts


def test_need_and_waits_agree_with_the_engine_near_a_win() -> None:
    """The bots read the win tables on their own (``engine.bots.shanten``): around a win, with and without
    財神, their need is 0 exactly when the engine's win check says win, and a ready hand's waits are the
    engine's waits."""
    rng = random.Random(36)
    seen: Counter[tuple[int, int]] = Counter()
    for sets in (4, 5) * 300:
        counts = _near_win(rng, sets)
        jokers = rng.choice((0, 0, 1, 2))
        for _ in range(jokers):  # a 財神 stands in for one of the hand's tiles
            counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        c = codes(counts)
        assert (need(c, jokers) == 0) == is_win(counts, jokers), (counts, jokers)
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1  # one tile fewer: 3n+1
        c = codes(counts)
        seen[(bool(jokers), need(c, jokers))] += 1
        if need(c, jokers) == 1:
            assert [TILES[k] for k in winning_kinds(c, jokers)] == engine_waits(counts, jokers), (counts, jokers)
    assert seen[(False, 1)] > 50 and seen[(True, 1)] > 50  # both paths were walked, ready hands among them


def test_registry_has_the_three_levels() -> None:
    for name in ("easy", "normal", "strong"):
        assert get_policy(name) is POLICIES[name]


def _play(variant: str, seed: str, policy_names: list[str], check: bool = True) -> HandState:
    hand = HandState.deal(find_variant(variant), seed=seed)
    rng = random.Random(seed)
    while not hand.is_over:
        for seat in hand.awaiting():
            if hand.is_over or seat not in hand.awaiting():
                continue
            action = POLICIES[policy_names[seat]](hand, seat, rng)
            assert action in hand.legal_actions(seat)
            hand.apply(action)
            if check:
                check_all(hand)
    return hand


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("level", ["normal", "strong"])
def test_levels_play_every_variant_to_the_end(variant: str, level: str) -> None:
    n = find_variant(variant).n_seats
    for i in range(3):
        hand = _play(variant, f"bots:{level}:{i}", [level] * n)
        assert hand.result is not None and sum(hand.result.score.net) == 0


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_sight_is_what_the_seat_view_shows(variant: str) -> None:
    kinds = find_variant(variant).kinds
    for state in states_along(variant, f"sight:{variant}"):
        for seat in range(state.n):
            assert sight(state, seat) == sight_from_view(state.view(seat), kinds)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("level", ["normal", "strong"])
def test_decisions_ignore_hidden_tiles(variant: str, level: str) -> None:
    policy = POLICIES[level]
    rng = random.Random(5)
    checked = 0
    states = [s for i in range(3) for s in states_along(variant, f"hidden:{variant}:{i}", every=4)]
    for state in states:
        for seat in state.awaiting():
            legal = state.legal_actions(seat)
            if len(legal) < 2:
                continue
            mine = policy(state, seat, random.Random(1))
            for _ in range(2):
                shuffled = shuffle_hidden(state, seat, rng)
                assert shuffled.legal_actions(seat) == legal
                assert sight(shuffled, seat) == sight(state, seat)
                assert policy(shuffled, seat, random.Random(1)) == mine
            checked += 1
    assert checked > 10


def _chow(discard: str, hand_tiles: str) -> Action:
    tiles = tuple(sorted(TILES[t] for t in parse_tiles(discard + hand_tiles)))
    return act(ActionKind.CHOW, 0, TILES[parse_tiles(discard)[0]], tiles)


def test_normal_claims_only_what_lowers_the_shanten() -> None:
    state = HandState.deal(find_variant("taiwan"), seed="claim")
    # 向聽 2 → 1: the chow of 6s with 78s completes a set
    far = _sight("123m 456p 11z 5z 6z 78s 3p")
    assert choose_claim(state, 0, far, {ActionKind.CHOW: [_chow("6s", "78s")]}) is not None
    # already ready (5s/8s): chowing 5s with 67s breaks nothing useful and is passed
    ready = _sight("123m 456p 789s 11z 67s")
    assert choose_claim(state, 0, ready, {ActionKind.CHOW: [_chow("5s", "67s")]}) is None


def test_duel_seats_each_policy_in_every_seat_equally() -> None:
    for n in (3, 4):
        seatings = arrangements(n)
        for seat in range(n):
            assert sum(p[seat] == "A" for p in seatings) == sum(p[seat] == "B" for p in seatings)


def test_duel_of_a_policy_against_itself_is_zero_sum_and_reports() -> None:
    result = duel("taiwan", "normal", "easy", walls=3, seed=7)
    assert result.plays == 6 and result.walls == 3
    a, b = result.tallies["A"], result.tallies["B"]
    assert a.points + b.points == 0
    assert a.seat_hands == b.seat_hands == 12
    lines = report(result)
    assert "A − B points/hand" in lines[-1]
    m, h = mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0 and 0 < h < 2
