"""F-8: a one-圈 game (東風戰) ends when the deal would pass on from the last seat of the first 圈, 連莊 hands
included (docs/rules/rooms.md#quick-play F-8); four 圈 play on (docs/rules/tiantai.md#match-units)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.match import Match
from engine.variants import find_variant


@dataclass
class _Result:
    dealer_stays: bool
    is_draw: bool = False
    kongs: int = 0

    def dealer_won(self, dealer: int) -> bool:
        return self.dealer_stays


@dataclass
class _Hand:
    result: _Result


# (variant, first dealer, whether each hand's dealer won, hands the game lasts)
CASES = [
    ("taiwan", 0, [False, False, False, False], 4),
    ("taipao", 2, [False, False, False, False], 4),
    ("tiantai", 1, [False, False, False], 3),
    # 連莊: the last seat of the 圈 wins twice as dealer, then the deal passes and the game is over
    ("taiwan", 1, [False, False, False, True, True, False], 6),
    ("tiantai", 0, [True, False, False, True, False], 5),
    ("taipao", 3, [False, True, True, False, False, False], 6),
]


@pytest.mark.parametrize(("variant", "first", "dealer_wins", "hands"), CASES)
def test_a_one_round_game_ends_when_the_deal_leaves_the_last_seat(variant: str, first: int,
                                                                   dealer_wins: list[bool], hands: int) -> None:
    match = Match(find_variant(variant), options={"rounds": 1})
    match.seat_first_dealer(first)
    for won in dealer_wins:
        assert not match.finished
        match.record(_Hand(_Result(won)))  # type: ignore[arg-type]
    assert match.finished and match.hands_played == hands
    with pytest.raises(ValueError, match="over"):
        match.new_hand("seed")


def test_a_four_round_game_goes_on_after_the_first_round() -> None:
    match = Match(find_variant("taiwan"), options={"rounds": 4})
    for _ in range(4):
        match.record(_Hand(_Result(False)))  # type: ignore[arg-type]
    assert not match.finished and match.round_wind == 1
