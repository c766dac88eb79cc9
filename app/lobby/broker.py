"""Lobby fan-out: table events to every lobby WebSocket.

``LobbyBroker`` delivers inside this process.  ``RedisLobbyBroker`` publishes through a Redis channel and
delivers what it hears to local subscribers, so lobby sockets on every process see every process's events.
Redis pub/sub is at-most-once and a slow socket is dropped rather than allowed to grow a queue: clients
treat the lobby as hints and resync from the snapshot sent on (re)connect.

Notices (``{"type": "notice", ...}``, ``app.lobby.notices``) go the same way and also to every table socket
of the process (``hear_notices``: each socket's callback); each notice reaches a process's sockets once,
however many times it arrives (from Redis and from this process's own look at the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from redis.asyncio import Redis

from app.core.outage import REDIS_ERRORS, Outage, listen_through_outages
from app.core.tasks import stop_tasks

log = logging.getLogger(__name__)

LobbyEvent = dict[str, Any]  # one lobby push (a table opened, seats changed, queue sizes): JSON as sent
NOTICES_REMEMBERED = 1000  # notices a process remembers having delivered (far more than ever show at once)


class Subscription:
    def __init__(self, max_queue: int) -> None:
        self.queue: asyncio.Queue[LobbyEvent | None] = asyncio.Queue(max_queue)
        self.dropped = False  # set when the subscriber fell too far behind; its socket should close
        self.close_code: int | None = None  # set when the server ends the stream (1001: restarting)

    def offer(self, event: LobbyEvent) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.dropped = True
            self.queue.get_nowait()  # make room for the end-of-stream marker
            self.queue.put_nowait(None)

    def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def __aiter__(self) -> AsyncIterator[LobbyEvent]:
        return self._events()

    async def _events(self) -> AsyncIterator[LobbyEvent]:
        while (event := await self.queue.get()) is not None:
            yield event


class LobbyBroker:
    def __init__(self, *, max_queue: int = 64) -> None:
        self._max_queue = max_queue
        self._subscribers: set[Subscription] = set()
        self._notice_ears: set[Callable[[LobbyEvent], object]] = set()
        self._notices_sent: dict[tuple[Any, Any], None] = {}  # (id, ends_at) of notices delivered, oldest first

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        for sub in list(self._subscribers):
            sub.close()

    async def publish(self, event: LobbyEvent) -> None:
        self._deliver(event)

    async def restarting(self, pause_seconds: float) -> None:
        """This process is restarting: its own lobby sockets hear ``server_restarting`` and close with 1001
        (other processes' lobbies are unaffected, so this is never sent through Redis)."""
        self._deliver({"type": "server_restarting", "pause_seconds": pause_seconds})
        for sub in list(self._subscribers):
            sub.close_code = 1001
            sub.close()

    def deliver_here(self, event: LobbyEvent) -> bool:
        """Deliver to this process's sockets only (a notice this process found starting in the database);
        False when it was a notice they already had."""
        return self._deliver(event)

    @contextlib.contextmanager
    def hear_notices(self, ear: Callable[[LobbyEvent], object]) -> Iterator[None]:
        """While open, ``ear`` gets every notice delivered here (a table socket's: it queues it on its link)."""
        self._notice_ears.add(ear)
        try:
            yield
        finally:
            self._notice_ears.discard(ear)

    @contextlib.contextmanager
    def subscribe(self) -> Any:
        sub = Subscription(self._max_queue)
        self._subscribers.add(sub)
        try:
            yield sub
        finally:
            self._subscribers.discard(sub)

    def _deliver(self, event: LobbyEvent) -> bool:
        if event.get("type") == "notice" and not self._first_time(event):
            return False
        for sub in list(self._subscribers):
            sub.offer(event)
        if event.get("type") == "notice":
            for ear in list(self._notice_ears):
                ear(event)
        return True

    def _first_time(self, notice: LobbyEvent) -> bool:
        key = (notice.get("id"), notice.get("ends_at"))
        if key in self._notices_sent:
            return False
        self._notices_sent[key] = None
        while len(self._notices_sent) > NOTICES_REMEMBERED:
            del self._notices_sent[next(iter(self._notices_sent))]
        return True


class RedisLobbyBroker(LobbyBroker):
    def __init__(self, redis_url: str, *, channel: str, max_queue: int = 64) -> None:
        super().__init__(max_queue=max_queue)
        self._redis = Redis.from_url(redis_url)
        self._channel = channel
        self._listener: asyncio.Task[None] | None = None
        self._publishing = Outage(log, "lobby: publishing through Redis",
                                  meanwhile="this process's lobby sockets only")

    async def start(self) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self._channel)  # before returning, so nothing published after start is missed
        self._listener = asyncio.create_task(self._listen(pubsub), name="lobby-redis-listener")

    async def stop(self) -> None:
        await stop_tasks(self._listener)
        await super().stop()
        await self._redis.aclose()

    async def publish(self, event: LobbyEvent) -> None:
        # Not delivered locally here: this process hears its own message back from Redis like everyone else.
        # Redis away: this process's own lobby sockets still hear it (the others miss it; they resync).
        try:
            await self._redis.publish(self._channel, json.dumps(event, ensure_ascii=False))
        except REDIS_ERRORS as exc:
            self._publishing.failed(exc)
            self._deliver(event)
        else:
            self._publishing.ok()

    async def _listen(self, pubsub: Any) -> None:
        # Events published during an outage are lost, which lobby clients tolerate (see the module docstring).
        await listen_through_outages(pubsub, Outage(log, "lobby: the Redis subscription"),
                                     self._heard, pause=1)

    def _heard(self, data: Any) -> None:
        self._deliver(json.loads(data))
