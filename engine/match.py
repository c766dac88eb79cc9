"""A game (一將 / 一局) of several hands: dealer rotation, dealer streak (連莊), wind rounds (圈)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.options import resolve_room_options
from engine.state import HandState
from engine.variants import Variant


def draw_first_dealer(commitment: str, seats: int) -> int:
    """The game's first dealer (第一次的莊家, 由系統隨機決定), drawn from its first commitment: the hex
    commitment read as a number, modulo the number of seats (docs/rules/common.md#first-dealer F-1).

    The commitment is sha256 of the first wall's seed and salt, so the draw is as random as the wall, is
    known the moment the first ``hand_start`` is sent, and anyone can recompute it from that message (a
    256-bit number modulo 3 or 4: the bias is below 2^-250).
    """
    return int(commitment, 16) % seats


@dataclass
class Match:
    """Plays hands in order; ``options['rounds']`` 圈 end the game.

    A 圈 ends when the deal has gone round every seat once; a dealer who stays (連莊) does not
    advance it (docs/rules/tiantai.md#match-units, docs/rules/taiwan.md#rounds).
    """

    variant: Variant
    first_dealer: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    dealer: int = -1
    dealer_streak: int = 0
    round_wind: int = 0
    hands_played: int = 0

    def __post_init__(self) -> None:
        # The whole option table (play and scoring, types and ranges): bad options fail here, not mid-game.
        self.options = resolve_room_options(self.variant.name, self.options)
        if self.dealer < 0:
            self.dealer = self.first_dealer

    def seat_first_dealer(self, seat: int) -> None:
        """Make ``seat`` the first dealer (``draw_first_dealer``): only before the game's first hand."""
        if self.hands_played or self.round_wind or self.dealer_streak:
            raise ValueError("the first dealer is drawn before the first hand")
        if not 0 <= seat < self.variant.n_seats:
            raise ValueError(f"no seat {seat} to be the first dealer")
        self.first_dealer = self.dealer = seat

    @property
    def finished(self) -> bool:
        """The last 圈 is over: the game ends (derived, so a match rebuilt from its dealer and 圈 knows it)."""
        return self.round_wind >= int(self.options["rounds"])

    def new_hand(self, seed: int | str | bytes) -> HandState:
        if self.finished:
            raise ValueError("the game is over")
        return HandState.deal(self.variant, seed=seed, dealer=self.dealer, round_wind=self.round_wind,
                              dealer_streak=self.dealer_streak, options=self.options)

    def record(self, hand: HandState) -> None:
        """Advance dealer, streak and 圈 after a finished hand."""
        result = hand.result
        if result is None:
            raise ValueError("the hand is not over")
        self.hands_played += 1
        nxt = self.variant.next_dealer(self.dealer, result.dealer_won(self.dealer), result.is_draw,
                                       result.kongs, self.options)
        if nxt == self.dealer:
            self.dealer_streak += 1
            return
        self.dealer, self.dealer_streak = nxt, 0
        if nxt == self.first_dealer:
            self.round_wind += 1
