"""Builders of 台炮 seats shared by the 台炮 scorer tests (not a test module itself)."""

from __future__ import annotations

from engine.melds import Meld, MeldKind
from engine.scoring import SeatHand
from engine.tiles import parse_tiles


def meld(spec: str) -> Meld:
    """"pong 中", "chow 234s", "kong 2m", "kong+ 中" (補槓), "akong 南"."""
    kind, tiles_s = spec.split()
    added = kind == "kong+"
    mk = MeldKind("kong" if added else kind)
    tiles = tuple(parse_tiles(tiles_s))
    if len(tiles) == 1:
        tiles = tiles * (3 if mk is MeldKind.PONG else 4)
    return Meld(mk, tiles, None if mk is MeldKind.AKONG else tiles[0], None, added)


def hand(concealed: str, *melds: str, flowers: str = "") -> SeatHand:
    return SeatHand(tuple(parse_tiles(concealed)), tuple(meld(m) for m in melds), tuple(parse_tiles(flowers)))
