"""The wall (牌牆) as a deque over one shuffled list: draws from the head, replacements from the tail."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.tiles import TILES, Tile


class WallExhausted(Exception):
    """A draw was asked of an empty wall (the game logic should never let this happen)."""


class Wall:
    """``tiles[head:tail]`` are the tiles still in the wall.

    Normal draws take ``tiles[head]`` (摸牌); replacement draws after a kong or a flower take
    ``tiles[tail-1]`` (補牌 from the 牌尾).  A variant's reserve is "the last R tiles still in the wall",
    so replacements eat into it and it moves forward by itself (RULES.md §0 wall model).
    """

    __slots__ = ("tiles", "head", "tail")

    def __init__(self, tiles: Sequence[Tile]) -> None:
        self.tiles: list[Tile] = list(tiles)
        self.head = 0
        self.tail = len(self.tiles)

    @classmethod
    def shuffled(cls, kinds: Sequence[int], rng: random.Random) -> Wall:
        """A uniformly random order: every tile gets a random 53-bit key and the wall is sorted by it.

        Equivalent to a Fisher–Yates shuffle (ties have probability ~2^-46 and break by position), but
        ``rng.random`` runs in C while ``random.shuffle`` loops in Python: this is a third of a deal's
        cost otherwise.  Anyone can re-deal a wall from its revealed seed with this function.
        """
        keys = [rng.random() for _ in kinds]
        order = sorted(range(len(kinds)), key=keys.__getitem__)
        return cls([TILES[kinds[i]] for i in order])

    @property
    def remaining(self) -> int:
        return self.tail - self.head

    def draw(self) -> Tile:
        if self.head >= self.tail:
            raise WallExhausted()
        t = self.tiles[self.head]
        self.head += 1
        return t

    def draw_tail(self) -> Tile:
        if self.head >= self.tail:
            raise WallExhausted()
        self.tail -= 1
        return self.tiles[self.tail]

    def peek_tail(self, n: int) -> list[Tile]:
        """The last ``n`` tiles (the 財神 indicators of 台炮 are the last stack at the tail)."""
        return self.tiles[self.tail - n : self.tail]

    def remaining_tiles(self) -> list[Tile]:
        return self.tiles[self.head : self.tail]
