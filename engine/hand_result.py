"""How a hand ended (結果): who won and how, the scorer's Situation and the score.  Built by
``engine.outcome``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from engine.scoring import ScoreResult
from engine.scoring.situation import Situation, WinKind
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.seat import SeatState

OUTSIDE_TILE_WINS: Final = frozenset({WinKind.DISCARD, WinKind.ROB_KONG, WinKind.SPLIT_DEAL})
"""Win kinds whose winning tile came from outside the winner's hand (a discard, a robbed kong, 分牌)."""


class HasSeats(Protocol):
    """A finished hand as its result reads it: the seats, whose hands are shown (``HandState`` is one)."""

    @property
    def seats(self) -> Sequence[SeatState]: ...


@dataclass(frozen=True)
class HandResult:
    """``winners`` empty means a drawn hand (流局 / 黄牌)."""

    winners: tuple[int, ...]
    win_kind: WinKind | None
    winning_tile: Tile | None
    discarder: int | None
    situation: Situation
    score: ScoreResult
    kongs: int

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def dealer_won(self, dealer: int) -> bool:
        return dealer in self.winners

    @property
    def outside_tile(self) -> Tile | None:
        """A winning tile that came from outside the winner's hand (discard, rob, 分牌)."""
        return self.winning_tile if self.win_kind in OUTSIDE_TILE_WINS else None

    def public_json(self, hand: HasSeats) -> dict[str, Any]:
        """The result as every seat may see it: all hands are shown once the hand is over."""
        return {
            "winners": list(self.winners),
            "win_kind": self.win_kind.value if self.win_kind else None,
            "winning_tile": str(self.winning_tile) if self.winning_tile is not None else None,
            "discarder": self.discarder,
            "hands": [s.tile_names() for s in hand.seats],
            "score": self.score.to_json(),
        }
