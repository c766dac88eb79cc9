"""Rank titles by 積分 (docs/rules/rooms.md#titles): the highest row whose threshold is ≤ the player's 積分."""

from __future__ import annotations

from bisect import bisect_right

from app.game.names import Names

# (積分 ≥, title), ascending.  docs/rules/rooms.md#titles writes them in 简体; the API's ``title`` has always been the 繁體.
TITLES: tuple[tuple[int, Names], ...] = (
    (0, Names("白板", "白板", "White Dragon")),
    (100, Names("一萬", "一万", "One of Characters")),
    (200, Names("二萬", "二万", "Two of Characters")),
    (500, Names("三萬", "三万", "Three of Characters")),
    (1_000, Names("四萬", "四万", "Four of Characters")),
    (2_000, Names("五萬", "五万", "Five of Characters")),
    (3_000, Names("六萬", "六万", "Six of Characters")),
    (5_000, Names("七萬", "七万", "Seven of Characters")),
    (8_000, Names("八萬", "八万", "Eight of Characters")),
    (12_000, Names("九萬", "九万", "Nine of Characters")),
    (20_000, Names("東風", "东风", "East Wind")),
    (30_000, Names("西風", "西风", "West Wind")),
    (40_000, Names("南風", "南风", "South Wind")),
    (80_000, Names("北風", "北风", "North Wind")),
    (120_000, Names("中", "中", "Red Dragon")),
    (200_000, Names("麻將王", "麻将王", "Mahjong King")),
)
_THRESHOLDS = [threshold for threshold, _ in TITLES]


def title_index(rank_points: int) -> int:
    """The title's place on the ladder (0 = 白板) for this 積分: quick play compares players by it."""
    # 積分 is floored at 0, so anything lower is treated as 0 rather than raising.
    return max(bisect_right(_THRESHOLDS, rank_points) - 1, 0)


def title_names_for(rank_points: int) -> Names:
    """The title for this 積分 in all three languages."""
    return TITLES[title_index(rank_points)][1]


def title_for(rank_points: int) -> str:
    """The title's 繁體 name (the API's ``title``)."""
    return title_names_for(rank_points).zh_hant
