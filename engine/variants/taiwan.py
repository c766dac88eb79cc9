"""台灣16張: 144 tiles, 隨開門 winds, 眼牌 / Miji, 八仙過海, 七搶一, dealer streaks (docs/rules/taiwan.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.variants.base import HandFacts, Option, PassLock, Variant, standard_kinds

MIJI_DISCARD_LIMIT = 8  # C-11: "起牌後海底八張牌"; E-9: counts the discards before the declaring one


class Taiwan(Variant):
    def open_seat(self, dealer: int, dice: Sequence[int]) -> int | None:
        """docs/rules/taiwan.md#winds: count counterclockwise from the dealer as 1; the seat reached is 開門 (東)."""
        return (dealer + sum(dice) - 1) % 4

    def seat_wind(self, seat: int, dealer: int, open_seat: int | None, options: Mapping[str, Any]) -> int:
        return (seat - (dealer if open_seat is None else open_seat)) % 4

    def flower_win(self, state: HandFacts) -> tuple[int, str] | None:
        """docs/rules/taiwan.md#eight-immortals, docs/rules/taiwan.md#seven-rob-one: 八仙過海 (all 8) and 七搶一 (a 7-1 split, in either order)."""
        held = [len(s.flowers) for s in state.seats]
        for seat, n in enumerate(held):
            if n == 8:
                return seat, "eight_flowers"
            if n == 7 and 1 in held:
                return seat, "seven_rob_one"
        return None

    def can_declare(self, state: HandFacts, seat: int) -> tuple[str, ...]:
        """docs/rules/taiwan.md#eye, docs/rules/taiwan.md#miji: 眼牌, called Miji inside the first 8 discards with no claim yet."""
        if not state.options.get("accept_eye_declaration", True) or state.seats[seat].locked:
            return ()
        # C-11 / seed 003:L168 "不碰牌吃牌或槓牌": any kong (暗槓 too) also ends the Miji window
        if state.discards_total < MIJI_DISCARD_LIMIT and not state.any_claim and state.kongs == 0:
            return ("miji",)
        return ("eye",)

    def first_turn_flags(self, state: HandFacts, winner: int, self_drawn: bool) -> dict[str, bool]:
        """docs/rules/taiwan.md#heavenly-earthly: 天胡 dealer on the dealt hand; 地胡 non-dealer self-draw on the first draw; 人胡
        non-dealer on a discard before the own first draw; no chow/pong/明槓 before either."""
        out = {"heavenly": False, "earthly": False, "human": False}
        seat = state.seats[winner]
        if winner == state.dealer:
            out["heavenly"] = self_drawn and state.first_turn_open()
        elif not state.any_claim:
            out["earthly"] = self_drawn and seat.draws == 1 and seat.discards_made == 0
            out["human"] = not self_drawn and seat.draws == 0
        return out

    def next_dealer(self, dealer: int, dealer_won: bool, drawn: bool, kongs: int,
                    options: Mapping[str, Any]) -> int:
        """docs/rules/taiwan.md#dealer-streak / C-4: the dealer stays after winning or a 流局."""
        return dealer if dealer_won or drawn else (dealer + 1) % 4


TAIWAN = Taiwan(
    name="taiwan",
    chinese="台灣16張",
    n_seats=4,
    hand_size=16,
    kinds=standard_kinds(),
    reserve_tiles=16,
    has_chow=True,
    multiple_winners=False,
    dice_count=3,
    pass_pong_lock=False,
    pass_win_lock=PassLock.UNTIL_OWN_DISCARD,
    last_discard_win_only=True,
    options={
        "accept_eye_declaration": Option(True, bool, doc="C-10: 不接受眼牌 disables 眼牌 and Miji"),
    },
)
