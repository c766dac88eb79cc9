"""Builders of 台灣 scoring situations shared by the 台灣 scorer tests (not a test module itself).

``tw(...)`` is a valid 台灣 situation with one winner (default: seat 1 wins ``PING`` on seat 2's 7s);
``others`` pins other seats, the rest get filler tiles.  Every built situation round-trips through JSON.
"""

from __future__ import annotations

from engine.melds import Meld, MeldKind
from engine.scoring import Declaration, SeatHand, Situation, WinKind
from engine.scoring.json_io import situation_from_json, situation_to_json
from engine.tiles import Tile, counts_of, parse_tiles, tile

PING = "123456789m234p56788s"  # 平胡 on 7s (waits 4s/7s)


def _meld(spec: str) -> Meld:
    kind, rest = spec.split(" ")
    tiles_s, _, src = rest.partition("@")
    mk = MeldKind(kind.rstrip("+"))
    tiles = tuple(sorted(parse_tiles(tiles_s)))
    return Meld(mk, tiles, None if mk is MeldKind.AKONG else tiles[0], int(src) if src else None,
                kind.endswith("+"))


def fill(used: list[int], n: int) -> tuple[Tile, ...]:
    out: list[Tile] = []
    for k in reversed(range(34)):
        while used[k] < 4 and len(out) < n:
            used[k] += 1
            out.append(Tile(k))
    return tuple(sorted(out))


def tw(concealed: str = PING, *, tile_: str | None = "7s", kind: str = "discard", winner: int = 1,
       discarder: int | None = 2, melds: tuple[str, ...] = (), flowers: str = "", dealer: int = 0,
       open_seat: int = 0, round_wind: int = 0, streak: int = 0, declaration: str | None = None,
       others: dict[int, tuple[str, tuple[str, ...], str, str | None]] | None = None,
       options: dict | None = None, **flags: bool) -> Situation:
    """A valid 台灣 situation with one winner; ``others`` pins other seats, the rest get filler."""
    if kind not in ("discard", "rob_kong"):
        discarder = None
    hands = {winner: (concealed, melds, flowers, declaration), **(others or {})}
    seats: dict[int, SeatHand] = {}
    for i, (c, ms, f, d) in hands.items():
        seats[i] = SeatHand(tuple(sorted(parse_tiles(c))), tuple(_meld(m) for m in ms),
                            tuple(sorted(parse_tiles(f))), None if d is None else Declaration(d))
    used = counts_of([t for h in seats.values() for t in (*h.concealed, *(x for m in h.melds for x in m.tiles))])
    full = tuple(seats[i] if i in seats else SeatHand(fill(used, 16)) for i in range(4))
    s = Situation("taiwan", full, dealer, (winner,), None if tile_ is None else tile(tile_), WinKind(kind),
                  discarder, dealer_streak=streak, round_wind=round_wind, open_seat=open_seat,
                  options=options or {}, **flags)
    assert situation_from_json(situation_to_json(s)) == s
    return s
