"""Hints for a player (提示): the tiles a ready hand waits on (聽牌) with the copies still unseen, and the
waits each discard would leave.

Computed from the seat's own sight only (``engine.bots.shanten.sight``: its hand and public tiles), so a
hint never tells a player anything their own eyes could not: "unseen" means not in their hand and not
shown anywhere on the table, wherever those copies really are.  A drawn 財神 completes any ready hand, so
the 財神 faces are waits too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import ActionKind
from engine.bots.shanten import N_PLAY, Sight, add, codes, need, remove, sight, winning_kinds
from engine.tiles import TILES, Tile

if TYPE_CHECKING:
    from engine.state import HandState


@dataclass(frozen=True, slots=True)
class Wait:
    """One winning tile (聽的牌) and how many copies of it the player has not seen."""

    tile: Tile
    unseen: int


def waits_in_sight(view: Sight) -> list[Wait]:
    """The waits of the 3n+1 hand in ``view`` (empty when it is not ready), natural tiles then 財神 faces."""
    return _waits(codes(view.natural()), view.jokers, view)


def _waits(c: list[int], jokers: int, view: Sight) -> list[Wait]:
    """``waits_in_sight`` for the hand whose codes are ``c`` (``view`` gives the unseen copies and 財神)."""
    if need(c, jokers) != 1:
        return []
    kinds = [k for k in winning_kinds(c, jokers) if k not in view.wild]
    kinds += sorted(w for w in view.wild if w < N_PLAY)
    return [Wait(TILES[k], view.unseen[k]) for k in kinds]


def ready_waits(state: HandState, seat: int) -> list[Wait]:
    """The seat's waits while its concealed hand is 3n+1 (between its turns); empty otherwise."""
    counts = state.seats[seat].counts
    if sum(counts) % 3 != 1:
        return []
    # Most of the time the hand is not ready: tell from the seat's own tiles alone, before counting
    # every public tile for the unseen copies (a table asks this after every discard).
    wild = state.wildcards
    nat = counts[:N_PLAY]
    for w in wild:
        if w < N_PLAY:
            nat[w] = 0
    if need(codes(nat), sum(counts[w] for w in set(wild))) != 1:
        return []
    return waits_in_sight(sight(state, seat))


def discard_waits(state: HandState, seat: int) -> dict[Tile, list[Wait]]:
    """For each plain discard the seat may make now, the waits it would leave (only discards that leave the
    hand ready are listed)."""
    view = sight(state, seat)
    # a plain discard is never a 財神 (skipped below), so the held wildcards are the same after each one:
    # the codes change by one tile and the joker count not at all
    c = codes(view.natural())
    jokers = view.jokers
    out: dict[Tile, list[Wait]] = {}
    for a in state.legal_actions(seat):
        if a.kind is not ActionKind.DISCARD or a.declare is not None or a.tile is None or a.tile in out:
            continue
        t = a.tile
        if t in view.wild or t >= N_PLAY:
            continue
        remove(c, t)
        found = _waits(c, jokers, view)
        add(c, t)
        if found:
            out[t] = found
    return out


__all__ = ["Wait", "discard_waits", "ready_waits", "waits_in_sight"]
