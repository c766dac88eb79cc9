"""A direct path for a non-winner's B (docs/rules/taipao.md#base-items): the tiles are checked and B computed in
one pass, without building the seat's ``Held``.

It is a closed form of the B rules of ``rules.py`` (their keys are ``FAST_KEYS``, in table order) and
reads their room values; ``covers`` switches it off when a room turns on any other B rule, and the
general path (``held_of`` + ``score_loser``) runs instead.  tests/scoring/test_taipao_fast.py compares
the two on random seats.
"""

from __future__ import annotations

from typing import Any

from engine.scoring.situation import SeatHand
from engine.scoring.taipao.held import (
    N_SEATS,
    NATURAL,
    NO_KONGS,
    NO_MELDS,
    SPECIAL,
    Table,
    bonus_tiles,
    check_tiles,
    honour_sets,
    melds_of,
)
from engine.scoring.taipao.items import SeatResult, item
from engine.scoring.taipao.rules import RULES
from engine.scoring.taipao.table import Active, Grouped
from engine.tiles import HONOUR_BASE

# the B rules this path computes, in table order
FAST_KEYS = (
    "caishen_suit", "caishen_honour", "caishen_same", "flowers", "white",
    "kong", "akong", "kong_special", "akong_special", "pung_special", "wind_pair",
)
RULE = {r.key: r for r in RULES}
_SUIT, _HONOUR, _SAME, _FLOWERS, _WHITE, _KONG, _AKONG, _KONG_SP, _AKONG_SP, _PUNG_SP, _WIND_PAIR = (
    RULE[k] for k in FAST_KEYS
)
_KONG_RULES = (_KONG, _AKONG, _KONG_SP, _AKONG_SP)


def covers(seat_base: Grouped, shape_base: Active) -> bool:
    """The room's active B rules are all computed here, in the same order (else use the general path)."""
    keys = [r.key for _, rules in seat_base for r, _ in rules] + [r.key for r, _ in shape_base]
    it = iter(FAST_KEYS)
    return all(k in it for k in keys)


def score_loser_fast(hand: SeatHand, seat: int, table: Table, values: dict[str, Any]) -> tuple[SeatResult, int]:
    """B of a non-winner and its size (concealed + 3 per meld); the same checks as ``held_of``."""
    wild = table.wildcards
    concealed = hand.concealed
    present = set(concealed)  # the faces held: only those are counted
    if not NATURAL.issuperset(present):
        check_tiles(concealed, seat, wild, max(concealed))
    items = []
    base = 0
    # 財神, counted once per face
    jokers = 0
    if wild:
        if table.same_face:
            if wild[0] in present:
                jokers = concealed.count(wild[0])
                if got := values["caishen_same"][min(jokers, 4) - 1]:
                    items.append(item(_SAME, got))
                    base += got
        else:
            suit = honour = 0
            for f in wild:
                if f in present:
                    n = concealed.count(f)
                    jokers += n
                    if f >= HONOUR_BASE:
                        honour += values["caishen_honour"][min(n, 4) - 1]
                    else:
                        suit += values["caishen_suit"][min(n, 4) - 1]
            if suit:
                items.append(item(_SUIT, suit))
                base += suit
            if honour:
                items.append(item(_HONOUR, honour))
                base += honour
    wind_index = (seat - table.dealer) % N_SEATS
    melds = hand.melds
    mp = melds_of(melds, seat, table.wild_set, SPECIAL[wind_index]) if melds else NO_MELDS
    flowers = hand.flowers
    if flowers:
        first, second, whites = bonus_tiles(flowers, seat, wild)
        if first or second:
            v = values["flowers"]
            if got := (v[min(first, 4) - 1] if first else 0) + (v[min(second, 4) - 1] if second else 0):
                items.append(item(_FLOWERS, got))
                base += got
        if whites and (got := values["white"][min(whites, 4) - 1]):
            items.append(item(_WHITE, got))
            base += got
    if melds and (kongs := mp.kongs) != NO_KONGS:
        for r, n in zip(_KONG_RULES, kongs, strict=True):
            if n and (got := values[r.key] * n):
                items.append(item(r, got))
                base += got
    # own wind / 中 / 發 pungs and the own-wind pair: melded, plus concealed ones with 財神 where they
    # add most (B-20, D-2, D-3)
    def natural(f: int) -> int:
        return concealed.count(f) if f in present and f not in wild else 0

    wind = HONOUR_BASE + wind_index
    pungs, pair = honour_sets(natural, wind, SPECIAL[wind_index], mp.faces, jokers)
    pungs += mp.special
    if pungs and (got := values["pung_special"] * pungs):
        items.append(item(_PUNG_SP, got))
        base += got
    if pair and (got := values["wind_pair"]):
        items.append(item(_WIND_PAIR, got))
        base += got
    return SeatResult(seat, base, 0, tuple(items)), len(concealed) + 3 * len(melds)
