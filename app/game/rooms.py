"""Coin rooms (RULES.md §7).  Data, not code: add a room by adding a row."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RoomKey(StrEnum):
    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"


@dataclass(frozen=True, slots=True)
class Room:
    key: RoomKey
    name: str  # 中文
    coins_per_point: int
    entry_coins: int  # coins needed to sit down


ROOMS: dict[RoomKey, Room] = {
    room.key: room
    for room in (
        Room(RoomKey.BEGINNER, "初級", coins_per_point=100, entry_coins=20_000),
        Room(RoomKey.INTERMEDIATE, "中級", coins_per_point=300, entry_coins=60_000),
        Room(RoomKey.ADVANCED, "高級", coins_per_point=600, entry_coins=120_000),
    )
}
