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

Through a Redis outage a live owner keeps its tables (issue 34): it plays on, and when Redis answers again
its renewal re-asserts every lease Redis lost (``_RENEW`` sets a missing key again) and its heartbeat
notices it had gone (``beat``), so it writes back what else it keeps there (the directory).  No other
process may win a race the owner never saw: a take-over waits until a lease has been seen free for
``FreeLeases.grace`` (at least one renewal round and its jitter), and longer while the process last named
as the table's owner still beats (``FreeLeases.ripe``); a process is taken for dead only when its
heartbeat is missing two rounds running (``Silence``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from app import metrics

log = logging.getLogger(__name__)

# Renew only a lease this process still holds (a lease that went to another process must stay theirs); a
# lease that is gone (Redis restarted empty, or expired while Redis was unreachable) is re-asserted by its live
# owner: 2.  The database's fencing token still decides whose writes count (``journal.Fenced``).
_RENEW = """local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if holder then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 2"""
# Release only a lease this process still holds.
_RELEASE = """if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"""
# INCR, but never below ARGV[1] (the counter was lost while the database kept a higher token).
_RAISE = """local v = redis.call('incr', KEYS[1])
if v < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]); v = tonumber(ARGV[1]) end
return v"""


REASSERTED = 2  # what ``_RENEW`` answers for a lease it set again


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _card(card: dict[str, Any] | None) -> str:
    """A heartbeat's value: the process's card (``processes.process_card``) as JSON, or "1" without one."""
    return json.dumps(card, ensure_ascii=False) if card is not None else "1"


class TableLeases:
    """Leases and fencing tokens of tables, and the heartbeat of this process (``process_id``)."""

    def __init__(self, redis: Any, process_id: str, lease_seconds: float, prefix: str = "mahjong") -> None:
        self.redis = redis
        self.process_id = process_id
        self.ms = max(1, round(lease_seconds * 1000))
        self.prefix = prefix
        self.reasserted = 0  # leases Redis had lost that this process, their live owner, set again
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
        """Extend every lease of ``table_ids``, re-asserting those Redis lost (``reasserted`` counts them);
        returns those another process holds now."""
        return (await self.keep(table_ids, beat=False))[1]

    async def keep(self, table_ids: Sequence[str], *, beat: bool = True,
                   card: dict[str, Any] | None = None) -> tuple[bool, set[str]]:
        """The heartbeat (``beat``'s answer: whether it had gone) and ``renew``, in one round trip: a slow
        Redis must not stretch a renewal round past the lease."""
        if not table_ids and not beat:
            return False, set()
        async with self.redis.pipeline(transaction=False) as pipe:
            if beat:
                pipe.set(self.proc_key(self.process_id), _card(card), px=self.ms, get=True)
            for table_id in table_ids:
                await self._renew(keys=[self.lease_key(table_id)], args=[self.process_id, self.ms], client=pipe)
            results = await pipe.execute()
        gone = beat and results.pop(0) is None
        again = sum(1 for r in results if r == REASSERTED)
        if again:
            self.reasserted += again
            metrics.LEASES_REASSERTED.inc(again)
            log.warning("cluster: re-asserted %d table leases Redis had lost (their owner, this process, lives)",
                        again)
        return gone, {t for t, ok in zip(table_ids, results, strict=True) if not ok}

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

    async def beat(self, card: dict[str, Any] | None = None) -> bool:
        """This process is alive for another lease time; ``card`` says what it is (``processes.process_card``).
        True when its heartbeat had gone (Redis restarted empty, or this process was silent past a lease): what
        it keeps in Redis must be written again."""
        return await self.redis.set(self.proc_key(self.process_id), _card(card), px=self.ms, get=True) is None

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


class FreeLeases:
    """Tables whose lease was seen free, and since when (monotonic seconds): a take-over waits ``grace``
    after the first sight, so that a live owner whose lease Redis lost re-asserts it first; while the
    process last named as the owner still beats it waits up to ``patience`` (then the table is taken: a
    beating process that never re-asserts does not own it any more)."""

    def __init__(self, grace: float, patience: float) -> None:
        self.grace, self.patience = grace, patience
        self.since: dict[str, float] = {}

    def ripe(self, table_id: str, now: float, *, owner_alive: bool = False) -> bool:
        """Whether a take-over of the free lease of ``table_id`` may go ahead now."""
        waited = now - self.since.setdefault(table_id, now)
        return waited >= (self.patience if owner_alive else self.grace)

    def held(self, table_ids: Iterable[str]) -> None:
        """These leases are held (or the tables are gone): their clocks start again when next seen free."""
        for table_id in table_ids:
            self.since.pop(table_id, None)


class Silence:
    """Processes whose heartbeat was missing, counted in watch rounds: after a Redis restart a live
    process's heartbeat is back within one round, so only a second silent round in a row means dead."""

    ROUNDS = 2

    def __init__(self) -> None:
        self.rounds: dict[str, int] = {}

    def dead(self, process_ids: Iterable[str], alive: set[str]) -> set[str]:
        """Of ``process_ids`` (this round's), those silent ``ROUNDS`` rounds running."""
        ids = set(process_ids)
        self.rounds = {p: self.rounds.get(p, 0) + 1 for p in ids - alive}
        return {p for p, n in self.rounds.items() if n >= self.ROUNDS}
