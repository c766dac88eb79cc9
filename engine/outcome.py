"""The end of a hand: who won and how, the scorer's Situation, the score and the payments (結果)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.scoring import ScoreResult, score
from engine.scoring.situation import (
    SELF_DRAWN_KINDS,
    Declaration,
    KongKind,
    SeatHand,
    Situation,
    WinKind,
)
from engine.tiles import TILES, Tile

if TYPE_CHECKING:
    from engine.state import HandState

_OUTSIDE_TILE_WINS = {WinKind.DISCARD, WinKind.ROB_KONG, WinKind.SPLIT_DEAL}


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
        return self.winning_tile if self.win_kind in _OUTSIDE_TILE_WINS else None

    def public_json(self, state: HandState) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "win_kind": self.win_kind.value if self.win_kind else None,
            "winning_tile": str(self.winning_tile) if self.winning_tile is not None else None,
            "discarder": self.discarder,
            "hands": [[str(t) for t in s.tiles()] for s in state.seats],
            "score": self.score.to_json(),
        }


def _declaration(state: HandState, seat: int) -> Declaration | None:
    d = state.seats[seat].declaration
    return Declaration(d.value) if d is not None and d.value in ("eye", "miji") else None


def build_situation(state: HandState, winners: list[int], kind: WinKind | None, tile: Tile | None,
                    discarder: int | None, kong_kind: KongKind | None,
                    kong_tile: Tile | None) -> Situation:
    seats = []
    for i, s in enumerate(state.seats):
        tiles = s.tiles()
        if i in winners and kind in _OUTSIDE_TILE_WINS and tile is not None:
            tiles = sorted([*tiles, tile])
        seats.append(SeatHand(tuple(tiles), tuple(s.melds), tuple(s.flowers), _declaration(state, i)))
    flags = {"heavenly": False, "earthly": False, "human": False}
    if winners and (kind is WinKind.DISCARD or kind in SELF_DRAWN_KINDS):
        flags = state.variant.first_turn_flags(state, winners[0], kind in SELF_DRAWN_KINDS)
    last = state.context.last and kind in (WinKind.SELF_DRAW, WinKind.DISCARD)
    return Situation(
        variant=state.variant.name, seats=tuple(seats), dealer=state.dealer, winners=tuple(winners),
        winning_tile=TILES[tile] if tile is not None else None, win_kind=kind, discarder=discarder,
        kong_kind=kong_kind if kind is WinKind.KONG_REPLACEMENT else None,
        kong_tile=kong_tile if kind is WinKind.KONG_REPLACEMENT else None,
        dealer_streak=state.dealer_streak, round_wind=state.round_wind, open_seat=state.open_seat,
        wildcards=state.wildcards, last_tile=last, options=state.options, **flags,
    )


def finish_hand(state: HandState, winners: list[int], kind: WinKind | None, tile: Tile | None,
                discarder: int | None, kong_kind: KongKind | None = None,
                kong_tile: Tile | None = None) -> HandResult:
    situation = build_situation(state, winners, kind, tile, discarder, kong_kind, kong_tile)
    return HandResult(tuple(winners), kind, tile, discarder, situation, score(situation), state.kongs)
