"""Prize maths (docs/rules/rooms.md#tournaments tournaments): the split, ties split evenly, remainders to the higher place."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.tournaments.prizes import award, place_amounts, seat_round


@pytest.mark.parametrize(("pool", "split", "amounts"), [
    (1000, [100], [1000]),
    (1000, [50, 30, 20], [500, 300, 200]),
    (1001, [50, 30, 20], [501, 300, 200]),  # the floors leave 1 coin: it goes to first place
    (7, [34, 33, 33], [3, 2, 2]),
    (0, [60, 40], [0, 0]),
])
def test_place_amounts(pool, split, amounts):
    assert place_amounts(pool, split) == amounts


@pytest.mark.parametrize("split", [[50, 40], [101, -1], [0, 100]])
def test_a_split_must_be_positive_and_sum_to_100(split):
    with pytest.raises(ValueError):
        place_amounts(100, split)


@pytest.mark.parametrize(("standings", "amounts", "expected"), [
    # no ties
    ([(1, 30), (2, 20), (3, 10)], [500, 300, 200], [(1, 1, 500), (2, 2, 300), (3, 3, 200)]),
    # second and third tie: they share 300+200 evenly
    ([(1, 30), (2, 20), (3, 20), (4, 0)], [500, 300, 200], [(1, 1, 500), (2, 2, 250), (3, 2, 250), (4, 4, 0)]),
    # a three-way tie for first over 100+0+0 (only one paid place): 34/33/33, the extra coin to the first
    ([(5, 9), (6, 9), (7, 9)], [100], [(5, 1, 34), (6, 1, 33), (7, 1, 33)]),
    # a tie straddling the last paid place: 200 + nothing, split two ways
    ([(1, 5), (2, 3), (3, 3)], [700, 200], [(1, 1, 700), (2, 2, 100), (3, 2, 100)]),
])
def test_award_ties_split_evenly_remainders_to_the_higher_place(standings, amounts, expected):
    got = award(standings, amounts)
    assert [(a.user_id, a.place, a.prize) for a in got] == expected
    assert sorted(a.key_place for a in got) == list(range(1, len(standings) + 1))  # one key per place


@given(st.integers(0, 10**9), st.lists(st.integers(-3, 3), min_size=1, max_size=12),
       st.lists(st.integers(1, 20), min_size=1, max_size=6))
def test_prizes_always_sum_to_the_pool(pool, points, weights):
    split = [w * 100 // sum(weights) for w in weights]
    split[0] += 100 - sum(split)
    if any(p <= 0 for p in split):
        return
    amounts = place_amounts(pool, split)
    standings = sorted(enumerate(points), key=lambda r: -r[1])
    awards = award(standings, amounts[: len(standings)])
    assert sum(a.prize for a in awards) == sum(amounts[: len(standings)])
    assert all(a.prize >= 0 for a in awards)


def test_seating_round_one_is_shuffled_later_rounds_follow_the_standings():
    players = list(range(1, 9))
    assert seat_round(players, 4, None) == [[1, 2, 3, 4], [5, 6, 7, 8]]
    shuffled = seat_round(players, 4, random.Random(3))
    assert sorted(sum(shuffled, [])) == players and shuffled != [[1, 2, 3, 4], [5, 6, 7, 8]]
    with pytest.raises(ValueError):
        seat_round([1, 2, 3], 4, None)
