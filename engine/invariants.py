"""Invariants checked after every event by the simulator and the property tests."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

from engine.phase import Phase

if TYPE_CHECKING:
    from engine.state import HandState


class InvariantViolation(AssertionError):
    """The engine broke one of its own rules."""


def tile_places(state: HandState) -> Counter[int]:
    """Every tile of the variant, wherever it is now."""
    c: Counter[int] = Counter(state.wall.remaining_tiles())
    for s in state.seats:
        for k, n in enumerate(s.counts):
            if n:
                c[k] += n
        for m in s.melds:
            c.update(m.tiles)
        c.update(s.flowers)
        c.update(s.river)
        c.update(s.set_aside)
    if state.result is not None and state.result.outside_tile is not None:
        c[state.result.outside_tile] += 1
    return c


def check_conservation(state: HandState) -> None:
    """Each of the variant's tiles is in exactly one place."""
    if tile_places(state) != Counter(state.variant.kinds):
        raise InvariantViolation("tiles are not conserved")


def check_hand_sizes(state: HandState) -> None:
    base = state.variant.hand_size
    for i, s in enumerate(state.seats):
        size = s.size()
        if state.phase is Phase.ENDED:
            allowed = {base, base + 1}
        elif state.phase is Phase.TURN and i == state.current or state.phase is Phase.ROB and state.window is not None and i == state.window.from_seat:
            allowed = {base + 1}
        else:
            allowed = {base}
        if size not in allowed:
            raise InvariantViolation(f"seat {i} holds {size} tiles in phase {state.phase.value}")


def check_views(state: HandState) -> None:
    """A seat's view and events never carry another seat's concealed tiles (眼牌 excepted)."""
    if state.result is not None:
        return
    for seat in range(state.n):
        view = state.view(seat)
        reveals = state.seats[seat].reveals_others
        for p in view["players"]:
            if p["seat"] != seat and p["concealed"] is not None and not reveals:
                raise InvariantViolation(f"seat {seat} sees seat {p['seat']}'s hand")
        if "wall" in json.dumps(view).replace('"wall_remaining"', ""):
            raise InvariantViolation("a view mentions the wall")
    for ev in state.events:
        for seat in range(state.n):
            if seat in ev.private:
                continue
            seen = ev.for_seat(seat)
            if ev.type == "draw" and "tile" in seen:
                raise InvariantViolation(f"seat {seat} sees another seat's draw")


def check_awaited_can_act(state: HandState) -> None:
    """docs/rules/common.md#always-a-move D-7: every seat the hand waits on has a legal action and a timeout action.

    A seat with nothing to do would freeze its table (no prompt, no timer), so the simulator, the property
    tests and the table actor's crash recovery all run this check.
    """
    for seat in state.awaiting():
        if not state.legal_actions(seat):
            raise InvariantViolation(f"seat {seat} is awaited but has no legal action")
        if state.default_action(seat) is None:
            raise InvariantViolation(f"seat {seat} is awaited but has no default (timeout) action")


def check_all(state: HandState) -> None:
    check_conservation(state)
    check_hand_sizes(state)
    check_views(state)
    check_awaited_can_act(state)
