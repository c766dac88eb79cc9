"""Tile groups that the 天台 and 台灣 scoring items both name: the dragons, the winds, the flower sets."""

from __future__ import annotations

from engine.tiles import FLOWER_BASE, HONOUR_BASE, Tile

DRAGONS = frozenset(range(HONOUR_BASE + 4, FLOWER_BASE))  # 中 發 白 (三元牌)
WINDS = frozenset(range(HONOUR_BASE, HONOUR_BASE + 4))  # 東 南 西 北 (風牌)


def flower_sets(flowers: tuple[Tile, ...]) -> int:
    """Complete sets among 春夏秋冬 (1-4f) and 梅蘭菊竹 (5-8f) held: 0, 1 or 2."""
    if len(flowers) < 4:
        return 0
    have = set(flowers)
    first = all(FLOWER_BASE + i in have for i in range(4))
    second = all(FLOWER_BASE + 4 + i in have for i in range(4))
    return int(first) + int(second)
