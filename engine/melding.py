"""Kongs (槓) and claimed melds (吃 碰 明槓): the tiles they move and the events they make.

The hand's flow (``engine.state``) calls these and goes on itself: a kong's replacement tile is taken into the
hand there (it may be a flower, or win), and an added kong first opens the 搶槓 window there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.melds import Meld, MeldKind
from engine.phase import CLAIMED, Phase, Source, TurnContext
from engine.scoring.situation import KongKind
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.board import HandBoard


def concealed_kong(state: HandBoard, seat: int, t: Tile) -> None:
    """暗槓: four concealed ``t`` become a meld; the tile is shown only where the variant reveals it."""
    s = state.seats[seat]
    s.remove(t, 4)
    s.melds.append(Meld(MeldKind.AKONG, (t,) * 4))
    state.kongs += 1
    state.emit("kong", {"seat": seat, "kind": "akong", "tile": str(t) if state.variant.akong_revealed else None},
               {w: {"tile": str(t)} for w in state.watchers(seat)})


def complete_added_kong(state: HandBoard, seat: int, t: Tile) -> None:
    """加槓 after nobody robbed it: the fourth ``t`` joins the seat's pong."""
    s = state.seats[seat]
    i = s.pong_of(t)
    assert i is not None
    old = s.melds[i]
    s.remove(t)
    s.melds[i] = Meld(MeldKind.KONG, (t,) * 4, old.claimed, old.from_seat, added=True)
    state.kongs += 1
    state.emit("kong", {"seat": seat, "kind": "added", "tile": str(t)})


def claim_meld(state: HandBoard, seat: int, a: Action, from_seat: int, t: Tile) -> None:
    """Take a discard into a chow, pong or 明槓 and close the window.  After a chow or pong the claimer is to
    discard; after a 明槓 the caller draws its replacement (``replacement_draw``)."""
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
    state.emit(a.kind.value, {"seat": seat, "from": from_seat, "tile": str(t),
                              "tiles": [str(x) for x in meld.tiles]})
    state.window = None
    if a.kind is ActionKind.KONG:
        state.kongs += 1
    else:
        state.current, state.phase = seat, Phase.TURN
        state.context = CLAIMED
        s.drawn = None


def replacement_draw(state: HandBoard, seat: int, kind: KongKind, t: Tile) -> Tile:
    """A kong's replacement (補牌) from the tail: the konger is to act, in a turn that remembers the kong
    (槓上開花).  Returns the tile, which the caller takes into the hand."""
    new = state.wall.draw_tail()
    state.current, state.phase = seat, Phase.TURN
    state.context = TurnContext(Source.KONG, kong_kind=kind, kong_tile=t)
    state.emit_draw(seat, new, tail=True)
    return new
