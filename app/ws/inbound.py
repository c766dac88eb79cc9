"""What a table socket accepts from its client, the same whether the table plays in this process or is
relayed to its owner: text frames within the size limit, at most so many per window."""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator

from fastapi import WebSocket

from app import metrics
from app.tables.play.clock import Clock
from app.tables.play.seats import SeatLink
from app.tables.settings import TableSettings


class RateLimit:
    """At most ``limit`` messages in any ``window`` seconds (lila: 100 per 20 s on play sockets)."""

    def __init__(self, limit: int, window: float, clock: Clock) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self.times: deque[float] = deque()

    def allow(self) -> bool:
        now = self.clock.now()
        while self.times and self.times[0] <= now - self.window:
            self.times.popleft()
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True


async def client_messages(websocket: WebSocket, link: SeatLink, settings: TableSettings,
                          clock: Clock, kind: str = "table") -> AsyncIterator[str]:
    """The client's messages as text while the link is open.  Ends at a disconnect; an oversized message closes
    the link with 1009 and a flood (``rate_limit_messages`` per ``rate_limit_seconds``) with 1008."""
    limit = RateLimit(settings.rate_limit_messages, settings.rate_limit_seconds, clock)
    received = metrics.MESSAGES_IN_BY_KIND[kind].inc
    while not link.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        received()
        raw = message.get("text")
        if raw is None:
            raw = (message.get("bytes") or b"").decode("utf-8", "replace")
        if len(raw.encode()) > settings.max_message_bytes:
            link.close(1009, "message too big")
            return
        if not limit.allow():
            link.close(1008, "rate limit: too many messages")
            return
        yield raw
