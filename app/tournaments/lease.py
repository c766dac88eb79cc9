"""Who directs a tournament (比賽主持) when several server processes share one database and Redis.

Each process runs a ``TournamentDirector``; without a lease every one of them would seat the same round and
start the same tables.  A director acts for a tournament (opens it, starts it, launches and re-adopts its
tables, seats the next round) only while it holds the tournament's lease:

* ``RedisLease``: ``SET key token NX PX ttl`` takes a free lease; the holder renews it every tick with a
  compare-and-extend script (only while the key still carries its own token) and gives it back at shutdown
  with a compare-and-delete.  A holder that dies stops renewing, and another process takes the tournament
  over ``TOURNAMENT_LEASE_SECONDS`` later (its next tick resumes the tables from the journal).
* ``LocalLease``: no Redis, so this process is the only one (the lobby cannot span processes without Redis
  either): always granted.

Money never depends on the lease: every tournament transition is a locked, idempotent transaction
(app.tournaments.service).  The lease keeps two processes from running the same games twice.
"""

from __future__ import annotations

import secrets
import time
from typing import Protocol

from redis.asyncio import Redis

# Extend the lease only if we still hold it; give it back only if we still hold it.  (A lease Redis lost is
# free, and ``hold`` takes it back with SET NX before any other process may: ``RedisLease.settling``.)
_RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0"
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


class DirectorLease(Protocol):
    async def hold(self, tournament_id: int) -> bool:
        """Take the lease if it is free, renew it if it is ours; False while another process holds it."""
        ...

    async def release(self, tournament_id: int) -> None: ...

    def failed(self) -> None:
        """A call to Redis failed (an outage): when it answers again, ``settling`` is true for a while."""
        ...

    async def settling(self) -> bool:
        """Whether Redis answered again (after failing, or restarted empty) too recently for a process that
        did not hold a lease to take it: its live holder re-asserts it first."""
        ...

    async def close(self) -> None: ...


class LocalLease:
    """One process, no Redis: it directs every tournament."""

    async def hold(self, tournament_id: int) -> bool:
        return True

    async def release(self, tournament_id: int) -> None:
        return None

    def failed(self) -> None:
        return None

    async def settling(self) -> bool:
        return False

    async def close(self) -> None:
        return None


class RedisLease:
    """``grace``: how long after Redis answers again a non-holder keeps off free leases (two director
    ticks: every live holder ticks, and so re-asserts its lease, in that time)."""

    def __init__(self, redis_url: str, *, prefix: str, seconds: float, owner: str | None = None,
                 grace: float = 0.0) -> None:
        self.redis = Redis.from_url(redis_url)
        self.prefix = prefix
        self.ttl_ms = max(1, int(seconds * 1000))
        self.owner = owner or secrets.token_hex(8)  # this process (a restarted one is a new owner)
        self.grace = grace
        self.failing = False  # the last call to Redis failed (the director says so: ``failed``)
        self._run_id: str | None = None  # Redis's run id: a new one means it restarted (empty: no persistence)
        self._back_at = -float("inf")

    def failed(self) -> None:
        self.failing = True

    async def settling(self) -> bool:
        run_id = str((await self.redis.info("server")).get("run_id"))
        restarted = self._run_id is not None and run_id != self._run_id
        if self.failing or restarted:
            self._back_at = time.monotonic()
        self.failing, self._run_id = False, run_id
        return time.monotonic() - self._back_at < self.grace

    def key(self, tournament_id: int) -> str:
        return f"{self.prefix}{tournament_id}"

    async def hold(self, tournament_id: int) -> bool:
        key = self.key(tournament_id)
        if await self.redis.set(key, self.owner, nx=True, px=self.ttl_ms):
            return True
        return bool(await self.redis.eval(_RENEW, 1, key, self.owner, self.ttl_ms))

    async def release(self, tournament_id: int) -> None:
        await self.redis.eval(_RELEASE, 1, self.key(tournament_id), self.owner)

    async def holder(self, tournament_id: int) -> str | None:
        value = await self.redis.get(self.key(tournament_id))
        return value.decode() if isinstance(value, bytes) else value

    async def close(self) -> None:
        await self.redis.aclose()
