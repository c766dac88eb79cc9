"""Melds (副露 / 面子) as small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.tiles import Tile


class MeldKind(str, Enum):
    """吃 碰 明槓 暗槓; 加槓 (補槓) becomes a ``KONG`` with ``added=True``."""

    CHOW = "chow"
    PONG = "pong"
    KONG = "kong"  # 明槓: from a discard, or 加槓 onto an own pong
    AKONG = "akong"  # 暗槓: four concealed tiles


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed or declared set.

    ``claimed`` is the tile taken from ``from_seat`` (None for 暗槓); ``added`` marks a 加槓/補槓.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    claimed: Tile | None = None
    from_seat: int | None = None
    added: bool = False

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KONG, MeldKind.AKONG)

    @property
    def is_pung_like(self) -> bool:
        """碰 or 槓: counts as a 刻 for pattern purposes."""
        return self.kind is not MeldKind.CHOW

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.AKONG

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    def __str__(self) -> str:
        from engine.tiles import format_tiles

        return f"[{self.kind.value} {format_tiles(self.tiles)}]"
