"""Build a wall that deals chosen hands and draws (配牌), for rule tests, puzzles and bug reports.

>>> from engine.variants import find_variant
>>> v = find_variant("tiantai")
>>> wall = build_wall(v, dealer=0, hands=["123m456m789m1122p5z", "", ""], draws=["3p"])
>>> len(wall)
108
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from engine.tiles import TILES, Tile, parse_tiles
from engine.variants import Variant


def deal_positions(variant: Variant, dealer: int) -> list[list[int]]:
    """Wall indices dealt to each seat, in the order ``HandState`` deals them (docs/rules/tiantai.md#deal, docs/rules/taiwan.md#deal:
    four at a time from the dealer counterclockwise, then singles, then the dealer's extra tile)."""
    return _deal_positions(variant.n_seats, variant.hand_size, dealer)


@cache
def _deal_positions(n: int, size: int, dealer: int) -> list[list[int]]:
    order = [(dealer + i) % n for i in range(n)]
    pos: list[list[int]] = [[] for _ in range(n)]
    i = 0
    for _ in range(size // 4):
        for s in order:
            pos[s].extend(range(i, i + 4))
            i += 4
    for _ in range(size % 4):
        for s in order:
            pos[s].append(i)
            i += 1
    pos[dealer].append(i)
    return pos


def build_wall(variant: Variant, *, dealer: int = 0, hands: Sequence[str], draws: Sequence[str] = (),
               tail: str = "") -> list[Tile]:
    """A wall whose deal gives ``hands[seat]`` (the dealer's may list one extra tile), whose head then
    yields ``draws`` in order, and whose tail (read from the very end backwards) yields ``tail``.

    Seats given fewer tiles than they are dealt are filled from the unused tiles, lowest kinds first
    but skipping bonus tiles; so is the rest of the wall.
    """
    pool = Counter(variant.kinds)
    wanted = [parse_tiles(h) for h in hands]
    draw_tiles, tail_tiles = parse_tiles(" ".join(draws)), parse_tiles(tail)
    for t in [x for h in wanted for x in h] + draw_tiles + tail_tiles:
        if pool[t] <= 0:
            raise ValueError(f"too many {TILES[t]} for {variant.name}")
        pool[t] -= 1
    filler = [TILES[k] for k in sorted(pool, key=lambda k: (k >= 34 or k == 33, k)) for _ in range(pool[k])]
    wall: list[Tile | None] = [None] * len(variant.kinds)
    for seat, positions in enumerate(deal_positions(variant, dealer)):
        mine = list(wanted[seat]) if seat < len(wanted) else []
        for p in positions:
            wall[p] = TILES[mine.pop(0)] if mine else filler.pop(0)
        if mine:
            raise ValueError(f"seat {seat} is dealt only {len(positions)} tiles")
    head = max(p for ps in deal_positions(variant, dealer) for p in ps) + 1
    for i, t in enumerate(draw_tiles):
        wall[head + i] = TILES[t]
    for i, t in enumerate(tail_tiles):
        wall[len(wall) - 1 - i] = TILES[t]
    return [t if t is not None else filler.pop(0) for t in wall]
