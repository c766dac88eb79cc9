"""The end of a hand: who won and how, the scorer's Situation, the score and the payments (結果)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.hand_result import OUTSIDE_TILE_WINS, HandResult
from engine.scoring import score
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
    from engine.board import HandBoard

def _declaration(state: HandBoard, seat: int) -> Declaration | None:
    d = state.seats[seat].declaration
    return Declaration(d.value) if d is not None and d.value in ("eye", "miji") else None


def build_situation(state: HandBoard, winners: list[int], kind: WinKind | None, tile: Tile | None,
                    discarder: int | None, kong_kind: KongKind | None,
                    kong_tile: Tile | None) -> Situation:
    seats = []
    for i, s in enumerate(state.seats):
        tiles = s.tiles()
        if i in winners and kind in OUTSIDE_TILE_WINS and tile is not None:
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


def finish_hand(state: HandBoard, winners: list[int], kind: WinKind | None, tile: Tile | None,
                discarder: int | None, kong_kind: KongKind | None = None,
                kong_tile: Tile | None = None) -> HandResult:
    situation = build_situation(state, winners, kind, tile, discarder, kong_kind, kong_tile)
    return HandResult(tuple(winners), kind, tile, discarder, situation, score(situation), state.kongs)
