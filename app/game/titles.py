"""Rank titles by 積分 (RULES.md §7): the highest row whose threshold is ≤ the player's 積分."""

from __future__ import annotations

from bisect import bisect_right

# (積分 ≥, title), ascending.
TITLES: tuple[tuple[int, str], ...] = (
    (0, "白板"),
    (100, "一萬"),
    (200, "二萬"),
    (500, "三萬"),
    (1_000, "四萬"),
    (2_000, "五萬"),
    (3_000, "六萬"),
    (5_000, "七萬"),
    (8_000, "八萬"),
    (12_000, "九萬"),
    (20_000, "東風"),
    (30_000, "西風"),
    (40_000, "南風"),
    (80_000, "北風"),
    (120_000, "中"),
    (200_000, "麻將王"),
)
_THRESHOLDS = [threshold for threshold, _ in TITLES]


def title_for(rank_points: int) -> str:
    # 積分 is floored at 0, so anything lower is treated as 0 rather than raising.
    return TITLES[max(bisect_right(_THRESHOLDS, rank_points) - 1, 0)][1]
