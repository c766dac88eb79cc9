"""One warning when a shared service (Redis) starts failing and one when it is back: not one per try.

A loop that retries every second and logs each failure with a traceback floods the log for as long as the
outage lasts (issue 24: lease renewal, every ~1.5 s).  ``Outage`` remembers whether the last try failed: its
first failure is a WARNING naming the cause in one line, its first success after that a WARNING that the
service recovered, and failures in between a count at DEBUG.  ``REDIS_ERRORS`` are what a lost Redis raises.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

REDIS_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError, TimeoutError)


class Outage:
    def __init__(self, logger: logging.Logger, what: str, meanwhile: str = "") -> None:
        self.log, self.what, self.meanwhile = logger, what, meanwhile
        self.down = False
        self.failures = 0

    def failed(self, exc: BaseException) -> None:
        """A try failed with ``exc`` (call from the except clause)."""
        self.failures += 1
        if not self.down:
            self.down = True
            self.log.warning("%s is failing: %s: %s%s (one line until it recovers)", self.what, type(exc).__name__,
                             " ".join(str(exc).split())[:200], f"; {self.meanwhile}" if self.meanwhile else "")
        else:
            self.log.debug("%s still failing (%d tries)", self.what, self.failures)

    def ok(self) -> None:
        """A try succeeded."""
        if self.down:
            self.log.warning("%s recovered after %d failed tries", self.what, self.failures)
        self.down, self.failures = False, 0


async def listen_through_outages(pubsub: Any, outage: Outage, on_message: Callable[[Any], None], *,
                                 pause: float, on_broken: Callable[[], None] | None = None) -> None:
    """Read a Redis subscription until cancelled, through outages: redis-py reconnects and resubscribes on
    the next read, so a failure is one ``outage`` line, ``on_broken`` (what the gap lost), a ``pause``, and
    read again.  ``on_message`` gets each published message's data.  The subscription is closed at the end."""
    try:
        while True:
            try:
                async for message in pubsub.listen():
                    outage.ok()
                    if message.get("type") == "message":
                        on_message(message["data"])
            except REDIS_ERRORS as exc:
                outage.failed(exc)  # one warning for the outage, not one per reconnect attempt
                if on_broken is not None:
                    on_broken()
                await asyncio.sleep(pause)
    finally:
        with contextlib.suppress(Exception):
            await pubsub.aclose()
