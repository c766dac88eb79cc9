"""Table leases in Redis: each live table is owned by exactly one process, with a fencing token.

Several server processes share one Postgres and one Redis (``app.tables.cluster.cluster``).  A process may act for
a table only while it holds the table's lease:

* ``lease:{table}`` holds the owner's process id and expires after ``Settings.lease_seconds`` unless the
  owner renews it (every third of that).  ``SET NX`` takes a free lease, so two processes never both do.
* ``fence:{table}`` is the fencing token: ``INCR`` on every take-over, so it only grows.  The owner hands it
  to ``TableJournal.claim``, which raises the table row's token to it; every journal write carries the
  owner's token and the database refuses a write whose token is older than the row's (``journal.Fenced``).
  A former owner that was paused past its lease (GC, SIGSTOP, a VM freeze) therefore cannot append one
  more action once another process has taken the table over, whatever it still believes.
* ``proc:{id}`` is each process's heartbeat, with the same lifetime: a socket held by a process that died
  is noticed by the owner, and a socket relayed to a dead owner by its holder.  Its value is the process's
  card (``app.tables.cluster.processes``: address, version, tables, ...), JSON.

If Redis loses the counter (a restart without persistence), ``raise_token`` lifts it past the database's
token: the database, not Redis, is the authority on who may write.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from typing import Any

log = logging.getLogger(__name__)

# Renew or release only a lease this process still holds (a lease that expired and went to another
# process must stay theirs).
_RENEW = """if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2])
else return 0 end"""
_RELEASE = """if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"""
# INCR, but never below ARGV[1] (the counter was lost while the database kept a higher token).
_RAISE = """local v = redis.call('incr', KEYS[1])
if v < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]); v = tonumber(ARGV[1]) end
return v"""


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class TableLeases:
    """Leases and fencing tokens of tables, and the heartbeat of this process (``process_id``)."""

    def __init__(self, redis: Any, process_id: str, lease_seconds: float, prefix: str = "mahjong") -> None:
        self.redis = redis
        self.process_id = process_id
        self.ms = max(1, round(lease_seconds * 1000))
        self.prefix = prefix
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._raise = redis.register_script(_RAISE)

    def lease_key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def fence_key(self, table_id: str) -> str:
        return f"{self.prefix}:fence:{table_id}"

    def proc_key(self, process_id: str) -> str:
        return f"{self.prefix}:proc:{process_id}"

    async def acquire(self, table_id: str) -> int | None:
        """Take a free lease: the new fencing token, or None when another process holds it."""
        if not await self.redis.set(self.lease_key(table_id), self.process_id, nx=True, px=self.ms):
            return None
        return int(await self.redis.incr(self.fence_key(table_id)))

    async def raise_token(self, table_id: str, at_least: int) -> int:
        """A token of at least ``at_least`` (the database already holds ``at_least - 1``)."""
        return int(await self._raise(keys=[self.fence_key(table_id)], args=[at_least]))

    async def renew(self, table_ids: Sequence[str]) -> set[str]:
        """Extend every lease of ``table_ids``; returns those this process no longer holds."""
        if not table_ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._renew(keys=[self.lease_key(table_id)], args=[self.process_id, self.ms], client=pipe)
            results = await pipe.execute()
        return {t for t, ok in zip(table_ids, results, strict=True) if not ok}

    async def release(self, table_id: str, *, forget: bool = False) -> None:
        """Give the lease up (if still ours).  ``forget``: the game is over, its token is no longer needed."""
        await self._release(keys=[self.lease_key(table_id)], args=[self.process_id])
        if forget:
            await self.redis.delete(self.fence_key(table_id))

    async def owner(self, table_id: str) -> str | None:
        return _text(await self.redis.get(self.lease_key(table_id)))

    async def owners(self, table_ids: Sequence[str]) -> list[str | None]:
        if not table_ids:
            return []
        return [_text(v) for v in await self.redis.mget([self.lease_key(t) for t in table_ids])]

    async def beat(self, card: dict[str, Any] | None = None) -> None:
        """This process is alive for another lease time; ``card`` says what it is (``processes.process_card``)."""
        value = json.dumps(card, ensure_ascii=False) if card is not None else "1"
        await self.redis.set(self.proc_key(self.process_id), value, px=self.ms)

    async def alive(self, process_ids: Iterable[str]) -> set[str]:
        """Which of ``process_ids`` have a current heartbeat."""
        ids = sorted(set(process_ids))
        if not ids:
            return set()
        values = await self.redis.mget([self.proc_key(p) for p in ids])
        return {p for p, v in zip(ids, values, strict=True) if v is not None}

    async def leave(self) -> None:
        """This process stops (SIGTERM): its heartbeat goes at once, so holders and owners notice."""
        await self.redis.delete(self.proc_key(self.process_id))
