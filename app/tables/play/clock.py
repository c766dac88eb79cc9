"""Table time: one injectable clock, so the actor never sleeps and tests never wait.

``now()`` is monotonic seconds (deadlines are computed with it); ``wall_ms()`` is the server's Unix time in
ms (what prompts show as their deadline); ``call_at(when, callback, *args)`` runs a plain callback at ``when``
on the event loop and returns a handle with ``cancel()``.  The actor only ever posts a command to its own
inbox from a callback, so nothing runs concurrently with its handlers.

``FakeClock`` moves only when a test calls ``advance(seconds)``: due callbacks then run in time order.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from collections.abc import Callable
from typing import Any, Final, Protocol

# A timer is moved onto the slack's grid only when it is due at least this many slacks ahead: it then fires at
# most a tenth of its delay late.
SLACK_FACTOR: Final = 10


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def wall_ms(self) -> int: ...

    def call_at(self, when: float, callback: Callable[..., None], *args: Any) -> TimerHandle: ...


class RealClock:
    """The event loop's clock (monotonic) and the system's wall clock.

    ``slack_seconds`` (``TableSettings.timer_slack_ms``): a timer due at least ``SLACK_FACTOR`` slacks ahead is
    due on the next multiple of the slack instead, so the timers of many tables due within one slack fire in
    one turn of the loop (one wake-up, one journal commit for the bots' moves they play) rather than one
    each.  It fires at most one slack late, never early; a nearer timer keeps its time (a delay of a few ms
    stays a few ms).
    """

    def __init__(self, slack_seconds: float = 0.0) -> None:
        self.slack_seconds = slack_seconds
        self._loop: asyncio.AbstractEventLoop | None = None

    def loop(self) -> asyncio.AbstractEventLoop:
        """The running event loop, kept from the first call: on Python 3.11 ``asyncio.get_running_loop`` makes a
        ``getpid`` system call each time, and the tables ask for the time tens of thousands of times a second
        (bench/results/throughput.md, seventh round).  A closed loop is looked up again (a test's next loop)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            loop = self._loop = asyncio.get_running_loop()
        return loop

    def now(self) -> float:
        return self.loop().time()

    def wall_ms(self) -> int:
        return int(time.time() * 1000)

    def call_at(self, when: float, callback: Callable[..., None], *args: Any) -> TimerHandle:
        loop = self.loop()
        slack = self.slack_seconds
        if slack and when - loop.time() >= SLACK_FACTOR * slack:
            when = max(when, math.ceil(when / slack) * slack)  # max: never early by a rounding
        return loop.call_at(when, callback, *args)


class _FakeTimer:
    __slots__ = ("when", "order", "callback", "args", "cancelled")

    def __init__(self, when: float, order: int, callback: Callable[..., None], args: tuple[Any, ...]) -> None:
        self.when, self.order, self.callback, self.args, self.cancelled = when, order, callback, args, False

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: _FakeTimer) -> bool:
        return (self.when, self.order) < (other.when, other.order)


class FakeClock:
    """A clock for tests: time stands still until ``advance``; a timer already due runs on the next loop turn."""

    WALL_EPOCH_MS = 1_700_000_000_000

    def __init__(self) -> None:
        self._now = 0.0
        self._timers: list[_FakeTimer] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def wall_ms(self) -> int:
        return self.WALL_EPOCH_MS + round(self._now * 1000)

    def call_at(self, when: float, callback: Callable[..., None], *args: Any) -> TimerHandle:
        timer = _FakeTimer(when, next(self._order), callback, args)
        if when <= self._now:
            asyncio.get_running_loop().call_soon(self._fire, timer)
        else:
            heapq.heappush(self._timers, timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move time forward, running every timer that falls due, in order."""
        target = self._now + seconds
        while self._timers and self._timers[0].when <= target:
            timer = heapq.heappop(self._timers)
            self._now = max(self._now, timer.when)
            self._fire(timer)
        self._now = target

    def pending(self) -> int:
        return sum(1 for t in self._timers if not t.cancelled)

    @staticmethod
    def _fire(timer: _FakeTimer) -> None:
        if not timer.cancelled:
            timer.cancelled = True
            timer.callback(*timer.args)
