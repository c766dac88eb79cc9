"""Throttles (限流): at most ``limit`` events per ``window`` seconds per key, in this process.

Used for logins and registrations (per IP and per username; limits in ``Settings``, docs/settings.md) and
for socket resyncs.  Each key keeps at most ``limit`` timestamps, and the table of keys is pruned when it
grows past ``max_keys``, so an attacker cycling keys cannot grow memory without bound.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable


class Throttle:
    def __init__(self, limit: int, window: float, *, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000) -> None:
        self.limit, self.window, self.clock, self.max_keys = limit, window, clock, max_keys
        self._hits: dict[str, deque[float]] = {}

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may act again (0: now), without counting an event."""
        hits = self._hits.get(key)
        if hits is None:
            return 0.0
        now = self.clock()
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if len(hits) < self.limit:
            return 0.0
        return max(hits[0] + self.window - now, 0.001)

    def hit(self, key: str) -> float:
        """Count an event for ``key`` if allowed and return 0; otherwise the seconds to wait (not counted)."""
        wait = self.wait(key)
        if wait:
            return wait
        if key not in self._hits and len(self._hits) >= self.max_keys:
            self._prune()
        self._hits.setdefault(key, deque(maxlen=self.limit)).append(self.clock())
        return 0.0

    def reset(self, key: str) -> None:
        self._hits.pop(key, None)

    def _prune(self) -> None:
        cutoff = self.clock() - self.window
        for key in [k for k, hits in self._hits.items() if not hits or hits[-1] <= cutoff]:
            del self._hits[key]
        while len(self._hits) >= self.max_keys:  # all live: forget the oldest keys
            del self._hits[next(iter(self._hits))]


def retry_after(seconds: float) -> int:
    """Whole seconds to wait, at least 1 (the Retry-After header's value)."""
    return max(1, math.ceil(seconds))
