"""天台麻將: 3 players, 108 tiles (no 條), flowers, pong/kong only, 一炮多響 (docs/rules/tiantai.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.variants.base import Option, PassLock, Variant, standard_kinds


class Tiantai(Variant):
    def seat_wind(self, seat: int, dealer: int, open_seat: int | None, options: Mapping[str, Any]) -> int:
        """docs/rules/tiantai.md#seat-winds / A-1: dealer 東, 下家 南, 上家 北 (or 西 with ``three_player_winds=ESW``)."""
        rel = (seat - dealer) % 3
        if rel == 2:
            return 2 if options.get("three_player_winds") == "ESW" else 3
        return rel

    def next_dealer(self, dealer: int, dealer_won: bool, drawn: bool, kongs: int,
                    options: Mapping[str, Any]) -> int:
        """docs/rules/tiantai.md#dealer-rotation: the dealer stays only by winning; A-4 option keeps them on a kong-less draw."""
        if dealer_won or (drawn and kongs == 0 and options.get("draw_keeps_dealer_if_no_kong")):
            return dealer
        return (dealer + 1) % 3


TIANTAI = Tiantai(
    name="tiantai",
    chinese="天台麻將",
    n_seats=3,
    hand_size=13,
    kinds=standard_kinds(suits="mp"),
    reserve_tiles=14,
    has_chow=False,
    multiple_winners=True,
    dice_count=2,
    pass_pong_lock=True,
    pass_win_lock=PassLock.UNTIL_OWN_DRAW,
    last_discard_win_only=True,
    akong_revealed=True,
    options={
        "claim_seconds": Option(3.0, float, low=0.5, high=120, doc="docs/rules/tiantai.md#timers: 3 s claim window"),
        "draw_keeps_dealer_if_no_kong": Option(False, bool, doc="A-4: seed L48"),
        "three_player_winds": Option("ESN", str, choices=("ESN", "ESW"), doc="A-1"),
    },
)
