"""Coin rooms (docs/rules/rooms.md#rooms).  Data, not code: add a room by adding a row."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.game.names import Names


class GameKind(StrEnum):
    """The kind of table a game is played at: what its hands move."""

    PRACTICE = "practice"  # bots in the other seats, nothing moves
    COIN = "coin"  # a room's coin table: coins and 積分 move
    TOURNAMENT = "tournament"  # a tournament's table: tournament points only


class RoomKey(StrEnum):
    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"


@dataclass(frozen=True, slots=True)
class Room:
    key: RoomKey
    names: Names
    coins_per_point: int
    entry_coins: int  # coins needed to sit down

    @property
    def name(self) -> str:
        """The 繁體 name (初級, 中級, 高級), as docs/rules/rooms.md#rooms writes it."""
        return self.names.zh_hant


ROOMS: dict[RoomKey, Room] = {
    room.key: room
    for room in (
        Room(RoomKey.BEGINNER, Names("初級", "初级", "Beginner"), coins_per_point=100, entry_coins=20_000),
        Room(RoomKey.INTERMEDIATE, Names("中級", "中级", "Intermediate"), coins_per_point=300, entry_coins=60_000),
        Room(RoomKey.ADVANCED, Names("高級", "高级", "Advanced"), coins_per_point=600, entry_coins=120_000),
    )
}
