"""Kongs (槓) and claimed melds (吃 碰 明槓): the meld-making steps of a hand's flow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.claims import open_rob_window
from engine.melds import Meld, MeldKind
from engine.phase import Phase, Source, TurnContext
from engine.scoring.situation import KongKind
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.state import HandState


def own_kong(state: HandState, seat: int, t: Tile) -> None:
    s = state.seats[seat]
    if s.counts[t] == 4:
        s.remove(t, 4)
        s.melds.append(Meld(MeldKind.AKONG, (t,) * 4))
        state.kongs += 1
        state._emit("kong", {"seat": seat, "kind": "akong",
                            "tile": str(t) if state.variant.akong_revealed else None},
                   {w: {"tile": str(t)} for w in state._watchers(seat)})
        replacement(state, seat, KongKind.CONCEALED, t)
        return
    state._emit("kong_attempt", {"seat": seat, "tile": str(t)})
    state.window = open_rob_window(state, seat, t)
    state._after_answers()


def complete_added_kong(state: HandState, seat: int, t: Tile) -> None:
    s = state.seats[seat]
    i = s.pong_of(t)
    assert i is not None
    old = s.melds[i]
    s.remove(t)
    s.melds[i] = Meld(MeldKind.KONG, (t,) * 4, old.claimed, old.from_seat, added=True)
    state.kongs += 1
    state._emit("kong", {"seat": seat, "kind": "added", "tile": str(t)})
    replacement(state, seat, KongKind.ADDED, t)


def claim_meld(state: HandState, seat: int, a: Action, from_seat: int, t: Tile) -> None:
    """Take a discard into a chow, pong or 明槓 (called by the claim resolution)."""
    s = state.seats[seat]
    state.seats[from_seat].river.pop()
    state.any_claim = True
    if a.kind is ActionKind.CHOW:
        for x in a.tiles:
            if x != t:
                s.remove(x)
        meld = Meld(MeldKind.CHOW, a.tiles, t, from_seat)
    else:
        n = 3 if a.kind is ActionKind.KONG else 2
        s.remove(t, n)
        kind = MeldKind.KONG if a.kind is ActionKind.KONG else MeldKind.PONG
        meld = Meld(kind, (t,) * (n + 1), t, from_seat)
    s.melds.append(meld)
    state._emit(a.kind.value, {"seat": seat, "from": from_seat, "tile": str(t),
                              "tiles": [str(x) for x in meld.tiles]})
    state.window = None
    if a.kind is ActionKind.KONG:
        state.kongs += 1
        replacement(state, seat, KongKind.EXPOSED, t)
    else:
        state.current, state.phase = seat, Phase.TURN
        state.context = TurnContext(Source.CLAIM)
        s.drawn = None


def replacement(state: HandState, seat: int, kind: KongKind, t: Tile) -> None:
    new = state.wall.draw_tail()
    state.current, state.phase = seat, Phase.TURN
    state.context = TurnContext(Source.KONG, kong_kind=kind, kong_tile=t)
    state._emit_draw(seat, new, tail=True)
    state._receive(seat, new)
