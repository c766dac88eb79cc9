"""台炮 分牌 (RULES.md §2.1 r15): when 24 + 2K tiles remain, each player draws one tile and may only win on it;
if nobody does, the hand is 黄牌."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.phase import Phase
from engine.scoring.situation import WinKind

if TYPE_CHECKING:
    from engine.state import HandState


def start_split(state: HandState, seat: int) -> None:
    """§2.1 r15: from the seat due to draw, each player draws one tile and may only win on it."""
    state._emit("split_deal", {"from": seat, "wall": state.wall.remaining})
    state.split_order = state._order_from(seat)
    next_split(state)


def next_split(state: HandState) -> None:
    while state.split_order:
        seat = state.split_order.pop(0)
        s = state.seats[seat]
        t = state.wall.draw()
        state.current, state.phase = seat, Phase.SPLIT
        state._emit_draw(seat, t)
        s.set_aside.append(t)
        if not state.variant.is_bonus(t, state.wildcards) and state.can_win_with(seat, t):
            return
    state._finish([], None, None, None)


def split_answer(state: HandState, a: Action) -> None:
    s = state.seats[a.seat]
    if a.kind is ActionKind.WIN:
        t = s.set_aside.pop()
        state._finish([a.seat], WinKind.SPLIT_DEAL, t, None)
    else:
        next_split(state)
