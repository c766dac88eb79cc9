"""台炮 分牌 (docs/rules/taipao.md#split-deal): when 24 + 2K tiles remain, each player draws one tile and may only win on it;
if nobody does, the hand is 黄牌.  The hand's flow (``engine.state``) ends the hand from what these return."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.phase import Phase

if TYPE_CHECKING:
    from engine.board import HandBoard


def start_split(state: HandBoard, seat: int) -> bool:
    """docs/rules/taipao.md#split-deal: from the seat due to draw, each player draws one tile and may only win on it.

    Returns ``next_split``'s answer: False when nobody can win on a 分牌 tile (黄牌).
    """
    state.emit("split_deal", {"from": seat, "wall": state.wall.remaining})
    state.split_order = state.order_from(seat)
    return next_split(state)


def next_split(state: HandBoard) -> bool:
    """Deal 分牌 tiles in turn until one seat can win on its tile (True: it is to choose) or none is left
    (False: the hand is 黄牌)."""
    while state.split_order:
        seat = state.split_order.pop(0)
        s = state.seats[seat]
        t = state.wall.draw()
        state.current, state.phase = seat, Phase.SPLIT
        state.emit_draw(seat, t)
        s.set_aside.append(t)
        if not state.variant.is_bonus(t, state.wildcards) and state.can_win_with(seat, t):
            return True
    return False
