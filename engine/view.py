"""One function builds what a seat may see (視角): never another seat's concealed tiles or the wall,
except where 眼牌 reveals the other hands to its declarer, and every hand once the hand is over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.melds import Meld, MeldKind

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.board import HandBoard


def _meld_json(m: Meld, hidden: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": m.kind.value, "added": m.added}
    out["tiles"] = [None] * 4 if hidden else [str(t) for t in m.tiles]
    if m.claimed is not None:
        out["claimed"] = str(m.claimed)
        out["from"] = m.from_seat
    return out


def seat_view(state: HandBoard, seat: int | None, actions: Sequence[Action] = ()) -> dict[str, Any]:
    """The whole table as ``seat`` may see it (``None``: a spectator), with the ``actions`` it may take now
    (``HandState.view`` passes its legal actions)."""
    ended = state.result is not None
    viewer = state.seats[seat] if seat is not None else None
    players = []
    for i, s in enumerate(state.seats):
        sees = ended or i == seat or (viewer is not None and viewer.reveals_others)
        akong_hidden = not (sees or state.variant.akong_revealed)
        p: dict[str, Any] = {
            "seat": i,
            "wind": state.seat_winds[i],
            "concealed_count": s.concealed_count(),
            "concealed": [str(t) for t in s.tiles()] if sees else None,
            "melds": [_meld_json(m, akong_hidden and m.kind is MeldKind.AKONG) for m in s.melds],
            "flowers": [str(t) for t in s.flowers],
            "river": [str(t) for t in s.river],
            "declaration": s.declaration.value if s.declaration else None,
        }
        if i == seat:
            p["drawn"] = str(s.drawn) if s.drawn is not None and state.current == i else None
        players.append(p)
    last = state.last_discard
    out: dict[str, Any] = {
        "variant": state.variant.name,
        "seat": seat,
        "n_seats": state.n,
        "dealer": state.dealer,
        "dealer_streak": state.dealer_streak,
        "round_wind": state.round_wind,
        "dice": list(state.dice),
        "open_seat": state.open_seat,
        "wildcards": [str(t) for t in state.wildcards],
        "indicators": [str(t) for t in state.indicators],
        "wall_remaining": state.wall.remaining,
        "reserve": state.reserve(),
        "phase": state.phase.value,
        "current": state.current,
        "awaiting": state.awaiting() if seat is None else [s for s in state.awaiting() if s == seat],
        "last_discard": {"seat": last[0], "tile": str(last[1])} if last else None,
        "players": players,
        "actions": [a.to_json() for a in actions] if seat is not None else [],
    }
    if state.result is not None:
        out["result"] = state.result.public_json(state)
    return out
