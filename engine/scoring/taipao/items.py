"""One seat's result and its score items (shared by the general and the direct non-winner path)."""

from __future__ import annotations

from typing import NamedTuple

from engine.scoring.result import ScoreItem
from engine.scoring.taipao.shape import Reading
from engine.scoring.taipao.table import Rule


class SeatResult(NamedTuple):
    seat: int
    base: int
    bonus: int
    items: tuple[ScoreItem, ...]
    reading: Reading | None = None

    @property
    def total(self) -> int:
        return self.base + self.bonus


_ITEMS: dict[tuple[str, int], ScoreItem] = {}


def item(r: Rule, v: int) -> ScoreItem:
    """ScoreItems are immutable: one instance per (key, value)."""
    got = _ITEMS.get((r.key, v))
    if got is None:
        got = ScoreItem(r.key, r.names, v)
        if len(_ITEMS) < 4096:
            _ITEMS[r.key, v] = got
    return got
