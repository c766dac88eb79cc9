"""Where the quick-play queue (排隊) lives: in this process, or in Redis for several processes.

The store is the matcher's working set, not the authority on who may sit where: that is the commitments
service (one commitment per player under a row lock, app.services.commitments).  It keeps

* the pools: per room × variant × game length (``QUICK_PLAY_ROUNDS``), the waiting players (``QueueEntry``);
* claims: the members of a table being seated (``claim`` takes them out of their pool and records them
  under the new table's id before anything is seated; ``finish`` or ``give_back`` ends the claim), so a
  matcher that dies mid-match leaves a record the next matcher resolves (app.quickplay.matcher);
* matched markers: the table each matched player was seated at, kept ``MATCHED_TTL_SECONDS`` for
  ``GET /api/me/queue`` and a client that missed the lobby push.

``LocalQueueStore`` is the one-process store (no Redis); ``RedisQueueStore`` (app.quickplay.redis_store)
keeps the same in Redis hashes, each change one atomic script.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from app.quickplay.matching import DEFAULT_QUICK_PLAY_ROUNDS, QueueEntry

Pool = tuple[str, str, int]  # (room, variant, rounds)

MATCHED_TTL_SECONDS = 600  # how long GET /api/me/queue still names the table a player was matched to


@dataclass(frozen=True, slots=True)
class Claim:
    """A table being seated from the queue: its id, when the claim was made, and its members."""

    table_id: str
    at: float
    entries: list[QueueEntry]


@dataclass(frozen=True, slots=True)
class Matched:
    """Where a matched player was seated (``GET /api/me/queue``'s ``table_id``)."""

    table_id: str
    room: str
    variant: str
    since: float
    rounds: int = DEFAULT_QUICK_PLAY_ROUNDS


class QueueStore(Protocol):
    async def add(self, entry: QueueEntry) -> QueueEntry:
        """Queue ``entry``; if the player is queued (or being seated) already, that entry instead."""
        ...

    async def remove(self, user_id: int) -> QueueEntry | None:
        """Take the player out of their pool; None if not in one (a claimed player stays claimed)."""
        ...

    async def entry(self, user_id: int) -> QueueEntry | None:
        """The player's entry, in a pool or claimed."""
        ...

    async def claim_of(self, user_id: int) -> str | None:
        """The table id of the claim the player is in, if any."""
        ...

    async def members(self, room: str, variant: str, rounds: int) -> list[QueueEntry]: ...

    async def sizes(self) -> dict[Pool, int]:
        """Players waiting per pool (room, variant, rounds), claimed ones not counted."""
        ...

    async def claim(self, table_id: str, entries: list[QueueEntry]) -> bool:
        """Atomically take every member out of its pool and record the claim; False (and no change) if
        one of them is no longer in it, or the table id has a claim already."""
        ...

    async def give_back(self, table_id: str, entries: list[QueueEntry]) -> None:
        """End a claim that seated nobody: ``entries`` return to their pools with their first ``since``."""
        ...

    async def finish(self, table_id: str) -> None:
        """End a claim whose table is seated: its members get matched markers."""
        ...

    async def claims(self) -> list[Claim]: ...

    async def matched(self, user_id: int) -> Matched | None: ...

    async def forget_matched(self, user_id: int) -> None: ...

    async def close(self) -> None: ...


@dataclass
class LocalQueueStore:
    """The queue of a single process (no Redis).  Every method runs without awaiting, so it is atomic on
    the event loop.  A restart empties it (documented: the client queues again)."""

    pools: dict[Pool, dict[int, QueueEntry]] = field(default_factory=dict)
    claimed: dict[str, Claim] = field(default_factory=dict)
    claimed_users: dict[int, str] = field(default_factory=dict)
    markers: dict[int, tuple[float, Matched]] = field(default_factory=dict)

    def _where(self, user_id: int) -> QueueEntry | None:
        for pool in self.pools.values():
            if user_id in pool:
                return pool[user_id]
        table_id = self.claimed_users.get(user_id)
        if table_id is not None:
            return next(e for e in self.claimed[table_id].entries if e.user_id == user_id)
        return None

    async def add(self, entry: QueueEntry) -> QueueEntry:
        existing = self._where(entry.user_id)
        if existing is not None:
            return existing
        self.pools.setdefault(entry.pool, {})[entry.user_id] = entry
        return entry

    async def remove(self, user_id: int) -> QueueEntry | None:
        for pool in self.pools.values():
            if user_id in pool:
                return pool.pop(user_id)
        return None

    async def entry(self, user_id: int) -> QueueEntry | None:
        return self._where(user_id)

    async def claim_of(self, user_id: int) -> str | None:
        return self.claimed_users.get(user_id)

    async def members(self, room: str, variant: str, rounds: int) -> list[QueueEntry]:
        return list(self.pools.get((room, variant, rounds), {}).values())

    async def sizes(self) -> dict[Pool, int]:
        return {key: len(pool) for key, pool in self.pools.items() if pool}

    async def claim(self, table_id: str, entries: list[QueueEntry]) -> bool:
        pools = [self.pools.get(e.pool, {}) for e in entries]
        if table_id in self.claimed or any(e.user_id not in pool for e, pool in zip(entries, pools, strict=True)):
            return False
        for e, pool in zip(entries, pools, strict=True):
            del pool[e.user_id]
            self.claimed_users[e.user_id] = table_id
        self.claimed[table_id] = Claim(table_id, time.time(), list(entries))
        return True

    async def give_back(self, table_id: str, entries: list[QueueEntry]) -> None:
        claim = self.claimed.pop(table_id, None)
        if claim is None:  # resolved already (finished, or given back by another resolver)
            return
        for e in claim.entries:
            self.claimed_users.pop(e.user_id, None)
        for e in entries:
            if self._where(e.user_id) is None:
                self.pools.setdefault(e.pool, {})[e.user_id] = e

    async def finish(self, table_id: str) -> None:
        claim = self.claimed.pop(table_id, None)
        if claim is None:
            return
        now = time.time()
        for e in claim.entries:
            self.claimed_users.pop(e.user_id, None)
            self.markers[e.user_id] = (now + MATCHED_TTL_SECONDS, Matched(table_id, e.room, e.variant, e.since,
                                                                               e.rounds))

    async def claims(self) -> list[Claim]:
        return list(self.claimed.values())

    async def matched(self, user_id: int) -> Matched | None:
        marker = self.markers.get(user_id)
        if marker is None or marker[0] < time.time():
            self.markers.pop(user_id, None)
            return None
        return marker[1]

    async def forget_matched(self, user_id: int) -> None:
        self.markers.pop(user_id, None)

    async def close(self) -> None:
        return None
