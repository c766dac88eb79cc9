"""The open sockets of each login session, so ending a session closes its sockets at once (4401).

Every socket ``watch``-es its session for as long as it is open and waits on the future it gets, with its
other tasks: the future resolves with a close code when the session is revoked (logout, password change,
freeze, an admin) or reaches its absolute expiry.  Nothing here runs per message.

With Redis, a revocation is published on ``{prefix}:sessions:ended`` so every process closes that session's
sockets.  An open socket is use: every ``LAST_SEEN_EVERY`` the sessions with open sockets are marked seen
in one UPDATE, so a player at a table for hours does not go idle.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.tasks import stop_tasks
from app.services import sessions
from app.services.tickets import SocketOwner

log = logging.getLogger(__name__)

SESSION_ENDED = 4401  # close code: the socket's session ended (docs/protocol.md "Close codes")
ENDED_REASON = "session ended; log in again"
REVOKED_MEMORY = 4096  # recently revoked ids kept, so a ticket issued just before a revocation is refused

SessionEnd = tuple[int, str]


class LiveSessions:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], *, redis: Any = None,
                 prefix: str = "mahjong") -> None:
        self.sessionmaker, self.redis = sessionmaker, redis
        self.channel = f"{prefix}:sessions:ended"
        self._open: defaultdict[str, set[asyncio.Future[SessionEnd]]] = defaultdict(set)
        self._revoked: dict[str, None] = {}  # insertion-ordered set
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._keep_seen(), name="sessions-last-seen"))
        if self.redis is not None:
            self._tasks.append(asyncio.create_task(self._listen(), name="sessions-ended-listener"))

    async def stop(self) -> None:
        await stop_tasks(*self._tasks)
        self._tasks.clear()

    @contextlib.contextmanager
    def watch(self, owner: SocketOwner) -> Iterator[asyncio.Future[SessionEnd]]:
        """While the socket is open: a future that resolves with (code, reason) when its session ends."""
        loop = asyncio.get_running_loop()
        ended: asyncio.Future[SessionEnd] = loop.create_future()
        timer = loop.call_later(owner.ends_in(), _resolve, ended, (SESSION_ENDED, "session expired; log in again"))
        if owner.session_id in self._revoked:
            _resolve(ended, (SESSION_ENDED, ENDED_REASON))
        self._open[owner.session_id].add(ended)
        try:
            yield ended
        finally:
            timer.cancel()
            futures = self._open.get(owner.session_id)
            if futures is not None:
                futures.discard(ended)
                if not futures:
                    del self._open[owner.session_id]

    def is_revoked(self, session_id: str) -> bool:
        return session_id in self._revoked

    async def revoke(self, session: AsyncSession, *, user_id: int, reason: sessions.EndReason,
                     session_id: str | None = None, keep: str | None = None) -> list[str]:
        """End sessions (``app.services.sessions.revoke``) and close their sockets at once; the ids ended."""
        ids = await sessions.revoke(session, user_id=user_id, reason=reason, session_id=session_id, keep=keep)
        await self.ended(ids)
        return ids

    async def ended(self, session_ids: list[str]) -> None:
        """Sessions were revoked (the rows are already updated): close their sockets here and elsewhere."""
        if not session_ids:
            return
        self._end_here(session_ids)
        if self.redis is not None:
            try:
                await self.redis.publish(self.channel, json.dumps(session_ids))
            except (RedisError, OSError) as exc:
                log.warning("could not tell other processes that sessions ended (%s); their sockets close "
                            "at the session's expiry", type(exc).__name__)

    def _end_here(self, session_ids: list[str]) -> None:
        for session_id in session_ids:
            self._revoked[session_id] = None
            for ended in self._open.get(session_id, ()):
                _resolve(ended, (SESSION_ENDED, ENDED_REASON))
        while len(self._revoked) > REVOKED_MEMORY:
            del self._revoked[next(iter(self._revoked))]

    async def _keep_seen(self) -> None:
        while True:
            await asyncio.sleep(sessions.LAST_SEEN_EVERY.total_seconds())
            try:
                async with self.sessionmaker() as session:
                    await sessions.touch(session, list(self._open))
            except Exception as exc:  # the database may be briefly away; the next round tries again
                log.warning("could not mark open sessions as seen (%s)", type(exc).__name__)

    async def _listen(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._end_here([str(s) for s in json.loads(message["data"])])
            except (RedisError, OSError):
                await asyncio.sleep(1)  # Redis away: revocations from other processes wait for it
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()


def _resolve(future: asyncio.Future[SessionEnd], end: SessionEnd) -> None:
    if not future.done():
        future.set_result(end)
