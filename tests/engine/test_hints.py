"""Waits hints (issue 12): right waits, unseen counts from the seat's own view, nothing hidden leaks."""

from __future__ import annotations

import random

import pytest

from engine.bots.shanten import Sight, sight_from_view
from engine.hints import Wait, discard_waits, ready_waits, waits_in_sight
from engine.tiles import N_KINDS, TILES, parse_tiles
from engine.variants import find_variant
from tests.engine.bot_helpers import shuffle_hidden, states_along

VARIANT_NAMES = ("tiantai", "taipao", "taiwan")


def _sight(hand: str, wild: str = "", unseen: dict[str, int] | None = None) -> Sight:
    counts = [0] * N_KINDS
    for t in parse_tiles(hand):
        counts[t] += 1
    left = [4] * 34
    for code, n in (unseen or {}).items():
        left[parse_tiles(code)[0]] = n
    return Sight(0, counts, frozenset(parse_tiles(wild)) if wild else frozenset(), left)


def _plain(waits: list[Wait]) -> list[tuple[str, int]]:
    return [(str(w.tile), w.unseen) for w in waits]


def test_a_ready_hand_lists_its_waits_with_the_unseen_copies() -> None:
    view = _sight("2345m 678p 111z 999s", unseen={"2m": 1, "5m": 0})
    assert _plain(waits_in_sight(view)) == [("2m", 1), ("5m", 0)]  # a dead wait still shows, with 0


def test_a_hand_that_is_not_ready_has_no_waits() -> None:
    assert waits_in_sight(_sight("2345m 678p 111z 99s 1p")) == []


def test_wildcard_faces_are_waits_of_a_ready_hand() -> None:
    """台炮: a drawn 財神 completes any ready hand, so its face is a winning tile too."""
    view = _sight("2345m 678p 111z 99s 5z", wild="5z", unseen={"5z": 2})
    found = _plain(waits_in_sight(view))
    assert found[-1] == ("5z", 2)
    assert {"2m", "5m", "9s"} <= {code for code, _ in found}  # the 財神 pairs a single or fills a pung


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_hints_equal_a_computation_on_the_seat_view_only(variant: str) -> None:
    """The hint never reveals what the seat could not see: it equals the same computation made from
    ``state.view(seat)`` alone, and re-dealing the hidden tiles changes nothing."""
    kinds = find_variant(variant).kinds
    rng = random.Random(3)
    ready_seen = 0
    for i in range(4):
        for state in states_along(variant, f"hints:{variant}:{i}", every=3):
            for seat in range(state.n):
                mine = ready_waits(state, seat)
                view = sight_from_view(state.view(seat), kinds)
                expected = waits_in_sight(view) if sum(view.counts) % 3 == 1 else []
                assert mine == expected
                ready_seen += bool(mine)
                shuffled = shuffle_hidden(state, seat, rng)
                assert ready_waits(shuffled, seat) == mine
                assert discard_waits(shuffled, seat) == discard_waits(state, seat)
    assert ready_seen > 5  # the games above do reach ready hands


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_discard_waits_list_exactly_the_discards_that_leave_the_hand_ready(variant: str) -> None:
    checked = 0
    for state in states_along(variant, f"discards:{variant}", every=1):
        for seat in state.awaiting():
            per = discard_waits(state, seat)
            plain = {a.tile for a in state.legal_actions(seat) if a.kind.value == "discard" and a.declare is None}
            for t in plain:
                assert t is not None
                if t in state.wildcards:
                    continue
                assert (t in per) == state.is_ready_after_discard(seat, t), TILES[t]
                checked += 1
            for t, waits in per.items():
                seat_state = state.seats[seat]
                seat_state.remove(t)
                try:
                    assert {w.tile for w in waits} == set(state.winning_tiles(seat))
                finally:
                    seat_state.add(t)
    assert checked > 20
