"""What the lobby and the actor know of one table (牌桌): its status, room, variant, options and seats.

Value types shared by the registry (``app.tables.registry``), the actor, the journal's table rows and the
lobby; they hold no behaviour beyond reading themselves out.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from app.bots import DEFAULT_BOT_LEVEL
from app.game.rooms import GameKind, RoomKey
from app.game.variants import VariantKey


class TableStatus(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class TableInfo:
    id: str
    room: RoomKey | None  # None for practice tables
    variant: VariantKey
    options: dict[str, Any]
    seats: list[int | None]  # user id per seat; None = empty, or a bot when the seat is in ``bots``
    # Seats played by server bots: every other seat of a practice table, the seats a coin table's creator
    # filled (``fill_with_bots``; bots hold no coins, see app.services.settlement) and tournament gaps.
    bots: list[int] = field(default_factory=list)
    creator: int | None = None  # the user who opened a lobby table (may seat bots); passes on if they stand
    status: TableStatus = TableStatus.WAITING
    practice: bool = False
    bot_level: str = DEFAULT_BOT_LEVEL  # how the server bots of a practice table play
    suggest_discard: bool = False  # practice tables: prompts carry the normal bot's discard as a hint
    bot_speed: str = "normal"  # practice tables: app.tables.settings.BOT_SPEEDS
    seat_names: list[str | None] = field(default_factory=list)  # usernames, for the lobby
    # Tournament tables (app.tournaments): the game row they play, and how many hands a game lasts (None:
    # the options' 圈).  They move no coins: tournament points only.
    tournament_game_id: int | None = None
    hands_limit: int | None = None
    version: int = 0  # bumped on every change, so clients can drop stale lobby events

    @property
    def is_full(self) -> bool:
        return all(uid is not None or seat in self.bots for seat, uid in enumerate(self.seats))

    @property
    def kind(self) -> GameKind:
        """practice / coin / tournament: what its hands move (its metrics' room kind, its games' records)."""
        if self.tournament_game_id is not None:
            return GameKind.TOURNAMENT
        return GameKind.PRACTICE if self.practice or self.room is None else GameKind.COIN

    @property
    def moves_coins(self) -> bool:
        """Whether its hands move coins and 積分: a coin table's do; a practice or tournament table's are
        recorded as practice hands, moving nothing (tournament points only)."""
        return self.kind == GameKind.COIN

    @property
    def players(self) -> list[int]:
        return [uid for uid in self.seats if uid is not None]

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "room": self.room.value if self.room else None,
            "variant": self.variant.value,
            "options": dict(self.options),
            "seats": [
                {"seat": seat, "user_id": uid, "username": self.seat_names[seat], "bot": seat in self.bots}
                for seat, uid in enumerate(self.seats)
            ],
            "status": self.status.value,
            "practice": self.practice,
            "bot_level": self.bot_level if self.practice else None,
            "suggest_discard": self.suggest_discard,
            "bot_speed": self.bot_speed if self.practice else None,
            "creator_id": self.creator,
            "version": self.version,
        }


def new_table_id() -> str:
    """A new table id: 12 hex digits, unguessable."""
    return secrets.token_hex(6)
