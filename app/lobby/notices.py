"""Notices reach every lobby and table socket when they start (公告廣播, issue 35).

A notice posted to start now is published at once through the lobby broker (Redis when configured, so every
process hears it; else this process).  One scheduled for later is found by each process itself: every
``POLL_SECONDS`` the ``NoticeCrier`` asks the database which notices started since its last look and delivers
them to its own sockets.  The broker delivers each notice once per process, whichever way it came.  A
socket opened after a notice started does not get the message: clients read ``GET /api/notices`` when they
load.  The message is ``NoticeMessage`` (``app.tables.protocol.messages``, docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from app.core.tasks import stop_tasks
from app.lobby.broker import LobbyBroker
from app.models import Notice
from app.services import notices
from app.state import AppState
from app.tables.protocol.messages import NoticeMessage

log = logging.getLogger(__name__)
POLL_SECONDS = 5.0  # how late a scheduled notice may reach the sockets


def notice_message(notice: Notice) -> dict[str, Any]:
    """The ``notice`` message of a notice, as JSON."""
    return NoticeMessage.model_validate(notices.notice_view(notice)).model_dump(mode="json")


async def announce(broker: LobbyBroker, notice: Notice) -> None:
    """Tell every process's sockets now (a notice that starts now, or one just ended early)."""
    await broker.publish(notice_message(notice))


class NoticeCrier:
    """This process's look at the database for notices that have started since its last look."""

    def __init__(self, state: AppState, poll_seconds: float = POLL_SECONDS) -> None:
        self.state = state
        self.poll_seconds = poll_seconds
        # Notices that started before this process did were told by the processes then running.
        self.looked_at = datetime.now(UTC)

    async def look(self) -> int:
        """Deliver the notices that started since the last look; returns how many the sockets had not had."""
        now = datetime.now(UTC)
        async with self.state.sessionmaker() as session:
            started = await notices.started_between(session, self.looked_at, now)
            await session.commit()
        told = sum(self.state.broker.deliver_here(notice_message(notice)) for notice in started)
        self.looked_at = now
        return told

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                await self.look()
            except Exception:  # the database away: the next look covers the gap (looked_at did not move)
                log.warning("notices: the look at the database failed", exc_info=True)


@contextlib.asynccontextmanager
async def crying_notices(state: AppState, poll_seconds: float = POLL_SECONDS) -> AsyncIterator[NoticeCrier]:
    """Run this process's ``NoticeCrier`` while the app runs."""
    crier = NoticeCrier(state, poll_seconds)
    task = asyncio.create_task(crier.run(), name="notice-crier")
    try:
        yield crier
    finally:
        await stop_tasks(task)
