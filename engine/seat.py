"""One player's part of a hand (座位): concealed tiles as counts, melds, flowers, river."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from engine.actions import Declare
from engine.hand import HandCode
from engine.melds import Meld, MeldKind
from engine.tiles import FLOWER_BASE, N_KINDS, NAMES, TILES, Tile


@dataclass
class SeatState:
    """Mutable during a hand; only ``HandState`` changes it.

    ``counts`` is the 42-long count vector of the concealed tiles.  ``drawn`` is the tile most recently
    received on this seat's turn (the timeout discard).  ``no_pong`` / ``no_win`` are the 過碰 / 過胡 /
    過水 locks.  ``set_aside`` holds 台炮 分牌 tiles that were not won on.
    """

    counts: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    melds: list[Meld] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    river: list[Tile] = field(default_factory=list)
    set_aside: list[Tile] = field(default_factory=list)
    drawn: Tile | None = None
    declaration: Declare | None = None
    no_pong: set[int] = field(default_factory=set)
    no_win: set[int] = field(default_factory=set)
    draws: int = 0  # normal draws from the head (not the deal, not replacements)
    discards_made: int = 0
    rev: int = 0  # bumped on every change of ``counts``: keys the cached waits
    wait_cache: tuple[int, frozenset[int]] | None = None
    wild: frozenset[int] = frozenset()  # this hand's 財神 faces
    code: HandCode = field(default_factory=HandCode)  # the natural (non-財神) tiles, kept incrementally
    jokers: int = 0  # 財神 held
    quads: set[int] = field(default_factory=set)  # kinds held four times (暗槓 candidates)

    @property
    def locked(self) -> bool:
        """聽 (台炮) or 眼牌 / Miji (台灣) lock the hand."""
        return self.declaration is not None

    @property
    def reveals_others(self) -> bool:
        """眼牌 / Miji show this seat the other hands (docs/rules/taiwan.md#eye)."""
        return self.declaration in (Declare.EYE, Declare.MIJI)

    def tiles(self) -> list[Tile]:
        """Concealed tiles, sorted."""
        return _repeated(TILES, self.counts)

    def tile_names(self) -> list[str]:
        """Concealed tiles in notation, sorted (``str`` of each of ``tiles()``: the form events carry)."""
        return _repeated(NAMES, self.counts)

    def concealed_count(self) -> int:
        return sum(self.counts)

    def add(self, t: int) -> None:
        self.counts[t] += 1
        self.rev += 1
        if self.counts[t] == 4:
            self.quads.add(t)
        if t in self.wild:
            self.jokers += 1
        elif t < FLOWER_BASE:  # a dealt flower sits in the hand only until 補花
            self.code.add(t)

    def take(self, tiles: list[Tile]) -> None:
        """Receive the dealt tiles in one go (the deal is the hottest loop of a fresh hand)."""
        counts = self.counts
        for t in tiles:
            counts[t] += 1
        self.quads = {k for k, n in enumerate(counts) if n == 4} if max(counts) == 4 else set()
        natural = list(self.counts)
        self.jokers = 0
        for f in self.wild:
            self.jokers += natural[f]
            natural[f] = 0
        self.code = HandCode.from_counts(natural)
        self.rev += 1

    def remove(self, t: int, n: int = 1) -> None:
        if self.counts[t] < n:
            raise AssertionError(f"seat does not hold {n}× {TILES[t]}")
        self.counts[t] -= n
        self.rev += 1
        self.quads.discard(t)
        if t in self.wild:
            self.jokers -= n
        elif t < FLOWER_BASE:
            for _ in range(n):
                self.code.remove(t)

    def pong_of(self, t: int) -> int | None:
        """Index of an exposed pong of ``t`` (for 加槓), if any."""
        for i, m in enumerate(self.melds):
            if m.kind is MeldKind.PONG and m.tiles[0] == t:
                return i
        return None

    def size(self) -> int:
        """Hand size counting every meld as 3 (a kong's 4th tile is its replacement's place)."""
        return self.concealed_count() + 3 * len(self.melds)


_T = TypeVar("_T")


def _repeated(by_kind: tuple[_T, ...], counts: list[int]) -> list[_T]:
    """``by_kind[k]`` repeated ``counts[k]`` times, in kind order (a plain loop: the fastest way found)."""
    out: list[_T] = []
    for item, n in zip(by_kind, counts, strict=True):
        if n:
            if n == 1:
                out.append(item)
            else:
                out += (item,) * n
    return out
