"""Every finished game's record (app.services.games), written in a task of its own after ``game_over``.

The actor has sent ``game_over`` and is closing by then: the record never delays a message, and its failure
(the database away past the retries) is logged and counted, never raised into the table.  A retry of a write
that did land is harmless: the record is written once per game id.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import metrics
from app.services import games
from app.services.games import FinishedGame

log = logging.getLogger(__name__)
ATTEMPTS = 4  # 0.5 + 1 + 2 s between them: a database restarting for a few seconds loses no record
RETRY_SECONDS = 0.5


class GameRecords:
    """``lock``: SQLite's one writer, shared with the settler and the journal (None on Postgres)."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], *, lock: asyncio.Lock | None = None,
                 attempts: int = ATTEMPTS) -> None:
        self.sessionmaker = sessionmaker
        self.lock = lock
        self.attempts = attempts
        self.tasks: set[asyncio.Task[bool]] = set()

    def write_later(self, game: FinishedGame) -> None:
        """Start writing the record now, stamped with this moment as the game's end."""
        ended_at = datetime.now(UTC)
        task = asyncio.get_running_loop().create_task(self.write(game, ended_at), name=f"game-record-{game.id}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def write(self, game: FinishedGame, ended_at: datetime) -> bool:
        """True once the record is in the database (now or before); False when every attempt failed."""
        wait = RETRY_SECONDS
        for attempt in range(1, self.attempts + 1):
            try:
                async with self.lock or contextlib.nullcontext(), self.sessionmaker() as session:
                    await games.record_game(session, game, now=ended_at)
                return True
            except Exception:
                if attempt == self.attempts:
                    log.exception("game %s: its record could not be written", game.id)
                    metrics.GAME_RECORD_FAILURES.inc()
                    return False
                log.warning("game %s: writing its record failed (attempt %d); retrying", game.id, attempt)
                await asyncio.sleep(wait)
                wait *= 2
        return False

    async def finish(self, timeout: float) -> None:
        """At shutdown: let the records being written finish (at most ``timeout``), then give up on the rest."""
        if not self.tasks:
            return
        _done, late = await asyncio.wait(list(self.tasks), timeout=timeout)
        for task in late:
            log.warning("%s: not finished at shutdown", task.get_name())
            task.cancel()
