"""The quick-play matcher (配桌): seats waiting players at new coin tables, in waves.

Every ``QUICKPLAY_WAVE_SECONDS`` (±20 % jitter, so waves do not fall in step with other periodic work; at
once when a player queues, on this process or, through a Redis poke, on another) the matcher takes every pool's members, forms tables by rank
(app.quickplay.matching) and seats each table:

1. ``store.claim``: the members leave their pool and are recorded under the new table's id, atomically, so
   no other wave (of this or another process) can take them too;
2. the commitments service turns each member's queue commitment into the table's seat in one transaction:
   if one of them left the queue meanwhile nothing changes and the others go back to their pool;
3. the table is created in this process's registry with the members in random seats and starts as every
   coin table does (join wait, absent players auto-played);
4. ``store.finish``: the claim ends, each member gets a matched marker and a ``matched`` lobby push.

With several processes only the holder of the matcher lease (``{prefix}:quickplay-matcher:0``, the same
``RedisLease`` the tournament director uses) runs waves.  A matcher that dies between 1 and 4 leaves its
claim behind — a claim ends only once the table's row is in the journal, so a table a crash could still
lose keeps its claim; the next holder resolves every claim older than twice the lease: if the table is
live (in a registry or the journal) the claim is finished, otherwise the members still committed to its
seat go back to the queue with their first ``since``.  So a player is either seated or still queued.
Before it seats a table the matcher checks that it still holds the lease and that its claim is younger
than half the lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from app import metrics
from app.core.outage import REDIS_ERRORS, Outage
from app.core.tasks import stop_tasks
from app.game.rooms import RoomKey
from app.game.variants import VARIANT_INFO, VariantKey, default_options
from app.quickplay.matching import (
    QUICK_PLAY_ROUNDS,
    TYPICAL_GAME_MINUTES,
    QueueEntry,
    SpreadPolicy,
    form_tables,
)
from app.quickplay.service import QuickPlay
from app.quickplay.store import Pool
from app.state import AppState
from app.tables.registry import TableStatus, new_table_id
from app.tournaments.lease import DirectorLease, LocalLease, RedisLease

log = logging.getLogger(__name__)
LEASE_ID = 0  # one matcher for all pools: the lease's key is {prefix}:quickplay-matcher:0
JITTER = 0.2  # a wave comes every wave_seconds × (1 ± JITTER)
SEATING_AT_ONCE = 8  # tables a wave seats concurrently

TableCheck = Callable[[str], Awaitable[bool]]  # a yes/no question about a table, by its id


class Matcher:
    def __init__(self, state: AppState, quickplay: QuickPlay, *, lease: DirectorLease, policy: SpreadPolicy,
                 wave_seconds: float, lease_seconds: float, table_live: TableCheck,
                 table_durable: TableCheck, rng: random.Random | None = None) -> None:
        self.state, self.quickplay, self.store = state, quickplay, quickplay.store
        self.lease, self.policy = lease, policy
        self.wave_seconds, self.lease_seconds = wave_seconds, lease_seconds
        self.table_live = table_live
        self.table_durable = table_durable  # the table's row is in the journal: a crash cannot lose it now
        # Seating is a game secret like the wall: a CSPRNG-seeded generator unless a test passes its own.
        self.rng = rng or random.Random(secrets.randbits(128))
        self.sizes: dict[Pool, int] = {}  # the last published queue sizes (none at first)
        self.leading = False
        # Tables of one wave are seated side by side (their players differ), a few at a time: each is a
        # claim, a locked transaction and a journal write, so a wave of thousands does not run serially.
        self.seating = asyncio.Semaphore(SEATING_AT_ONCE)
        # Redis away: one warning when waves start failing and one when they are back, not one per wave.
        self.outage = Outage(log, "quick play's matcher (Redis)", "no waves until it is back")

    async def leads(self) -> bool:
        if self.state.registry.closed_to_new_tables:  # an operator drains this process: another one matches
            if self.leading:
                with contextlib.suppress(Exception):
                    await self.lease.release(LEASE_ID)
            self.leading = False
            return False
        try:
            self.leading = await self.lease.hold(LEASE_ID)
        except REDIS_ERRORS:
            self.leading = False
            raise  # the wave fails as a whole: one line per outage (run)
        except Exception:
            log.exception("quick play: the matcher lease could not be checked")
            self.leading = False
        return self.leading

    async def wave(self) -> int:
        """One wave over every pool (if this process leads); returns how many tables it seated."""
        seated, sizes, sizes_current = 0, None, True
        if await self.leads():
            await self.recover()
            now = time.time()
            # One pipelined read of every pool's size first: most pools are empty most of the time, and
            # reading each one's members was a round trip to Redis per pool per wave (18 a second, idle).
            # A player who joins after this read pokes the next wave at once.
            sizes = await self.store.sizes()
            for room, variant, rounds in itertools.product(RoomKey, VariantKey, QUICK_PLAY_ROUNDS):
                if sizes.get((room.value, variant.value, rounds), 0) < VARIANT_INFO[variant].seats:
                    continue
                members, sizes_current = await self.store.members(room.value, variant.value, rounds), False
                if len(members) < VARIANT_INFO[variant].seats:
                    continue
                groups = form_tables(members, VARIANT_INFO[variant].seats, now=now, policy=self.policy,
                                     rng=self.rng)
                seated += sum(await asyncio.gather(*(self._seat_one(room, variant, g) for g in groups)))
        # A pool's members were read (and maybe seated): its size may have moved since, so read them all again.
        await self.publish_sizes(sizes if sizes_current else None)
        return seated

    async def _seat_one(self, room: RoomKey, variant: VariantKey, group: list[QueueEntry]) -> int:
        async with self.seating:
            return await self.seat(room, variant, group)

    async def seat(self, room: RoomKey, variant: VariantKey, group: list[QueueEntry]) -> int:
        """Seat one formed table (steps 1-4 of the module docstring); 1 if it was seated, else 0.  The group
        is one pool's: its game length is the table's ``rounds`` option."""
        table_id, rounds = new_table_id(), group[0].rounds
        if not await self.store.claim(table_id, group):
            return 0  # someone left between the read and the claim: the next wave sees the pool afresh
        users = [e.user_id for e in group]
        claimed_at = time.monotonic()
        try:
            refused = await self.quickplay.commitments.seat(table_id, room.value, variant.value, rounds, users)
        except Exception:
            log.exception("quick play: seating %s failed before the commitments changed", table_id)
            await self.store.give_back(table_id, group)
            return 0
        if refused:
            await self.store.give_back(table_id, [e for e in group if e.user_id not in refused])
            return 0
        try:
            if time.monotonic() - claimed_at > self.lease_seconds / 2 or not await self.leads():
                raise RuntimeError("the matcher lost its lease mid-match")
            table = await self.state.registry.create_matched_table(
                room=room, variant=variant, options={**default_options(variant), "rounds": rounds},
                seats=[(e.user_id, e.username) for e in group], table_id=table_id)
            if table.status != TableStatus.PLAYING:
                raise RuntimeError(f"table {table_id} did not start")
        except Exception:
            log.exception("quick play: table %s was not seated; its players queue again", table_id)
            # Back to the queue first: removing the table gives its seats' commitments back.
            await self.give_back(table_id, room, variant, group)
            if self.state.registry.is_open(table_id):
                await self.state.registry.remove(table_id)
            return 0
        if not await self._durable(table_id):
            log.warning("quick play: table %s is not in the journal yet; recovery finishes its claim", table_id)
            return 1
        await self._matched(table_id, group)
        return 1

    async def _durable(self, table_id: str) -> bool:
        """Wait (at most half the lease) until the table's row is in the journal: until then a crash of this
        process would lose the table, so the claim stays for recovery to resolve."""
        deadline = time.monotonic() + self.lease_seconds / 2
        while not await self.table_durable(table_id):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def _matched(self, table_id: str, group: list[QueueEntry]) -> None:
        await self.store.finish(table_id)
        metrics.quickplay_matched(group[0].room, group[0].variant, [time.time() - e.since for e in group])
        for e in group:
            await self._publish({"type": "matched", "table_id": table_id, "to": e.user_id})
        log.info("quick play: seated %s", table_id, extra={"table_id": table_id})

    async def give_back(self, table_id: str, room: RoomKey | str, variant: VariantKey | str,
                        group: list[QueueEntry]) -> None:
        """A matched table that is not playing: its members still committed to it queue again."""
        requeued = await self.quickplay.commitments.unseat(table_id, str(room), str(variant), group[0].rounds,
                                                           [e.user_id for e in group])
        await self.store.give_back(table_id, [e for e in group if e.user_id in requeued])

    async def recover(self) -> None:
        """Resolve claims a matcher left behind (it died or lost its lease mid-match)."""
        stale = time.time() - 2 * self.lease_seconds
        for claim in await self.store.claims():
            if claim.at > stale or not claim.entries:
                continue
            if await self.table_live(claim.table_id):
                await self._matched(claim.table_id, claim.entries)
            else:
                first = claim.entries[0]
                log.warning("quick play: claim %s was left unseated; its players queue again", claim.table_id)
                await self.give_back(claim.table_id, first.room, first.variant, claim.entries)

    async def publish_sizes(self, sizes: dict[Pool, int] | None = None) -> None:
        """The queue sizes per pool (room, variant, rounds) to every lobby, when they changed (``sizes`` when
        the caller has just read them, else read here)."""
        try:
            sizes = await self.store.sizes() if sizes is None else sizes
        except REDIS_ERRORS:
            raise
        except Exception:
            log.exception("quick play: the queue sizes could not be read")
            return
        metrics.queue_sizes(per_variant(sizes))
        if sizes != self.sizes:
            self.sizes = sizes
            await self._publish({"type": "queue_sizes", "queues": lobby_queues(sizes)})

    async def _publish(self, event: dict[str, Any]) -> None:
        try:
            await self.state.broker.publish(event)
        except Exception:  # the lobby is best effort: GET /api/me/queue has the table too
            log.exception("quick play: lobby publish failed")

    async def run(self) -> None:
        while True:
            pause = self.wave_seconds * (1 + self.rng.uniform(-JITTER, JITTER))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.quickplay.joined.wait(), pause)
            self.quickplay.joined.clear()
            try:
                await self.wave()
            except REDIS_ERRORS as exc:
                self.outage.failed(exc)
            except Exception:
                log.exception("quick play: wave failed")
            else:
                self.outage.ok()


def lobby_queues(sizes: dict[Pool, int]) -> list[dict[str, Any]]:
    """Every pool with its waiting players (zeros included) and a game's typical minutes, as the lobby shows
    them: per room and variant, one 圈 (東風戰) first, then four (全莊)."""
    return [{"room": r.value, "variant": v.value, "rounds": n, "minutes": TYPICAL_GAME_MINUTES[v.value, n],
             "queued": sizes.get((r.value, v.value, n), 0)}
            for r, v, n in itertools.product(RoomKey, VariantKey, QUICK_PLAY_ROUNDS)]


def per_variant(sizes: dict[Pool, int]) -> dict[tuple[str, str], int]:
    """The pools' sizes summed over the game lengths: the queue metric's (room, variant) labels."""
    summed: dict[tuple[str, str], int] = {}
    for (room, variant, _), n in sizes.items():
        summed[room, variant] = summed.get((room, variant), 0) + n
    return summed


def make_lease(state: AppState) -> DirectorLease:
    s = state.settings
    if not s.redis_url:
        return LocalLease()
    # The holder's name says which process it is (host-pid-random), as the table leases' owners do.
    owner = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
    return RedisLease(s.redis_url, prefix=f"{s.redis_prefix}:quickplay-matcher:", seconds=s.quickplay_lease_seconds,
                      owner=owner)


@contextlib.asynccontextmanager
async def running_matcher(matcher: Matcher) -> AsyncIterator[Matcher]:
    """Entered at startup after the table runtime; at exit the lease goes back (another process leads)."""
    tasks = []
    if matcher.state.settings.quickplay_matcher:
        tasks.append(asyncio.create_task(matcher.run(), name="quickplay-matcher"))
        pokes = getattr(matcher.store, "pokes", None)  # Redis: players queueing on other processes
        if pokes is not None:
            tasks.append(asyncio.create_task(pokes(matcher.quickplay.joined), name="quickplay-pokes"))
    try:
        yield matcher
    finally:
        await stop_tasks(*tasks)
        with contextlib.suppress(Exception):
            await matcher.lease.release(LEASE_ID)
        await matcher.lease.close()
        await matcher.store.close()
