"""The wall (牌牆) as a deque over one shuffled list: draws from the head, replacements from the tail."""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import itemgetter

from engine.tiles import TILES, Tile


class WallExhausted(Exception):
    """A draw was asked of an empty wall (the game logic should never let this happen)."""


class Wall:
    """``tiles[head:tail]`` are the tiles that may still be drawn; ``out_of_play`` the tiles turned face up
    at the tail (台炮's 財神 indicators), which stay in the wall but are never drawn.

    Normal draws take ``tiles[head]`` (摸牌); replacement draws after a kong or a flower take
    ``tiles[tail-1]`` (補牌 from the 牌尾, the stack before any tile out of play).  A variant's reserve is
    "the last R tiles still in the wall", so replacements eat into it and it moves forward by itself
    (docs/rules/common.md#wall).
    """

    __slots__ = ("tiles", "head", "tail", "out_of_play")

    def __init__(self, tiles: Sequence[Tile]) -> None:
        self.tiles: list[Tile] = list(tiles)
        self.head = 0
        self.tail = len(self.tiles)
        self.out_of_play: list[Tile] = []

    @classmethod
    def shuffled(cls, kinds: Sequence[int], rng: random.Random) -> Wall:
        """A uniformly random order: every tile gets a random 53-bit key and the wall is sorted by it.

        Equivalent to a Fisher–Yates shuffle (ties have probability ~2^-46 and break by position), but
        ``rng.random`` runs in C while ``random.shuffle`` loops in Python: this is a third of a deal's
        cost otherwise.  Anyone can re-deal a wall from its revealed seed with this function.
        """
        draw_key = rng.random
        keys = [draw_key() for _ in kinds]
        order = sorted(range(len(kinds)), key=keys.__getitem__)
        return cls(itemgetter(*order)(itemgetter(*kinds)(TILES)))  # C loops: TILES[kinds[i]] for i in order

    @property
    def remaining(self) -> int:
        """Tiles still in the wall, those out of play included (they count among 分牌's undrawn tiles)."""
        return self.tail - self.head + len(self.out_of_play)

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
        """The last ``n`` drawable tiles at the tail."""
        return self.tiles[self.tail - n : self.tail]

    def turn_up_tail(self, n: int) -> list[Tile]:
        """Turn the last ``n`` tiles face up and take them out of play (docs/rules/taipao.md#caishen / D-1: 台炮's 財神
        indicators are never drawn; replacements take the stack before them).  Returns them, tail order."""
        turned = self.peek_tail(n)
        self.tail -= n
        self.out_of_play.extend(turned)
        return turned

    def remaining_tiles(self) -> list[Tile]:
        """Every tile still in the wall: the drawable ones, then those out of play."""
        return self.tiles[self.head : self.tail] + self.out_of_play
