"""The direct non-winner path (engine/scoring/taipao/loser.py) against the general one (``held_of`` +
``score_loser``) on random seats: the same B items, size and errors (docs/rules/taipao.md#base-items)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.melds import Meld, MeldKind
from engine.scoring.situation import SeatHand
from engine.scoring.taipao.evaluate import score_loser
from engine.scoring.taipao.held import Table, held_of
from engine.scoring.taipao.loser import FAST_KEYS, covers, score_loser_fast
from engine.scoring.taipao.options import build
from engine.scoring.taipao.table import BASE, SEAT, Rule
from engine.tiles import TILES

B_TABLES = {"caishen_suit": 4, "caishen_honour": 4, "caishen_same": 4, "flowers": 4, "white": 4}
B_INTS = ("kong", "akong", "kong_special", "akong_special", "pung_special")


@st.composite
def melds(draw: st.DrawFn, wild: list[int]) -> Meld:
    kind = draw(st.sampled_from(list(MeldKind)))
    honest = draw(st.integers(0, 9)) > 0  # now and then an invalid meld or one holding a 財神
    if kind is MeldKind.CHOW:
        first = draw(st.integers(0, 26).filter(lambda k: k % 9 <= 6)) if honest else draw(st.integers(0, 33))
        tiles = [first, first + 1, first + 2]
        if draw(st.booleans()):
            tiles.reverse()
    else:
        pool = [k for k in range(33) if k not in wild] if honest else list(range(42))
        first = draw(st.sampled_from(pool))
        tiles = [first] * (3 if kind is MeldKind.PONG else 4)
    return Meld(kind, tuple(TILES[min(t, 41)] for t in tiles))


@st.composite
def seats(draw: st.DrawFn) -> tuple[SeatHand, int, Table, dict[str, Any]]:
    faces = draw(st.lists(st.integers(0, 41), min_size=0, max_size=2, unique=True))
    table = Table(draw(st.integers(0, 3)), tuple(faces), len(faces) == 1, frozenset(faces))
    seat = draw(st.integers(0, 3))
    wild_copies = [f for f in faces for _ in range(4)]
    # biased towards the own wind, 中, 發 and the 財神 faces, where B happens
    pool = list(range(33)) + [27, 28, 29, 30, 31, 32] * 3 + wild_copies * 2
    if draw(st.integers(0, 9)) == 0:
        pool += [33, 35, 42, -1]  # bad or bonus tiles now and then
    n_melds = draw(st.integers(0, 4))
    ms = draw(st.lists(melds(faces), min_size=n_melds, max_size=n_melds))
    size = draw(st.sampled_from([16, 16, 17, 15])) - 3 * n_melds
    rnd = draw(st.randoms(use_true_random=False))
    concealed: list[int] = []
    while len(concealed) < max(size, 0):
        t = rnd.choice(pool)
        if concealed.count(t) < 4:
            concealed.append(t)
    bonus = [f for f in range(34, 42) if f not in faces] + ([33] * 4 if 33 not in faces else [])
    flowers = draw(st.lists(st.sampled_from(bonus + [5, 33]), max_size=6))
    hand = SeatHand(tuple(TILES[t] if 0 <= t < 42 else t for t in concealed),  # type: ignore[misc]
                    tuple(ms), tuple(TILES[f] for f in flowers))
    options: dict[str, Any] = {}
    for key, n in B_TABLES.items():
        if draw(st.booleans()):
            options[key] = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    for key in B_INTS:
        if draw(st.booleans()):
            options[key] = draw(st.integers(0, 9))
    return hand, seat, table, options


def _general(hand: SeatHand, seat: int, table: Table, options: dict[str, Any]) -> Any:
    opts = build(options)
    try:
        h = held_of(hand, seat, table, False)
    except ValueError as e:
        return str(e)
    return score_loser(h, opts), h.size


def _fast(hand: SeatHand, seat: int, table: Table, options: dict[str, Any]) -> Any:
    opts = build(options)
    assert opts.loser_fast
    try:
        return score_loser_fast(hand, seat, table, opts.values)
    except ValueError as e:
        return str(e)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(seats())
def test_fast_path_matches_general_path(case: tuple[SeatHand, int, Table, dict[str, Any]]) -> None:
    assert _fast(*case) == _general(*case)


def test_fast_path_is_off_for_a_rule_it_does_not_cover() -> None:
    opts = build({})
    assert opts.loser_fast
    extra = Rule("extra_b", "x", 1, BASE, SEAT, lambda h, v: v)
    assert not covers(((("", ((extra, 1),)),) + opts.seat_base), opts.shape_base)
    assert not covers(opts.seat_base + (("", ((extra, 1),)),), opts.shape_base)
    assert set(FAST_KEYS) >= {r.key for _, rules in opts.seat_base for r, _ in rules}
