"""Quick play (快速開始): joining and leaving a pool, and what a player's queue looks like.

A pool is one coin room × one variant × one game length (1 or 4 圈, docs/rules/rooms.md#quick-play F-8).  ``QuickPlay.join`` checks the account (frozen: 403; below the room's
entry coins: 409), takes the queue commitment (seated, queued in another pool, registered in an unfinished
tournament: the commitments service's 409) and puts the player in the pool; the matcher
(app.quickplay.matcher) seats them.  ``leave`` gives the commitment back first: a match that has not yet
turned it into a seat can no longer seat the player, and one that has is a match made before the leave.

With the store (Redis) away each of them is a 503 ``queue_unavailable`` (issues 23/24: never a 500), and a
join that had already taken the commitment gives it back, so the refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from app.core.outage import REDIS_ERRORS
from app.game.rooms import RoomKey
from app.game.titles import title_index
from app.game.variants import VariantKey
from app.models import User
from app.quickplay.commitments import QueueCommitments, queue_key
from app.quickplay.matching import DEFAULT_QUICK_PLAY_ROUNDS, QUICK_PLAY_ROUNDS, QueueEntry
from app.quickplay.store import QueueStore
from app.services.errors import Conflict, ErrorCode, Unavailable
from app.tables.seating import check_entry_coins, check_not_frozen


@contextlib.contextmanager
def store_reachable() -> Iterator[None]:
    """A lost store (Redis) becomes the coded 503 ``queue_unavailable`` instead of a 500."""
    try:
        yield
    except REDIS_ERRORS as exc:
        raise Unavailable("the quick-play queue cannot be reached; try again in a few seconds",
                          ErrorCode.QUEUE_UNAVAILABLE) from exc


@dataclass(frozen=True, slots=True)
class QueueStatus:
    """``GET /api/me/queue``: queued (or being seated) now, or the table of the last match."""

    queued: bool
    room: str | None = None
    variant: str | None = None
    since: datetime | None = None
    table_id: str | None = None
    rounds: int | None = None


class QuickPlay:
    def __init__(self, store: QueueStore, commitments: QueueCommitments, *, settle_seconds: float = 5.0) -> None:
        self.store = store
        self.commitments = commitments
        self.settle_seconds = settle_seconds  # how long a leave waits for a match in flight to end
        self.joined = asyncio.Event()  # a player queued here: the matcher's next wave need not wait

    async def join(self, user: User, room: RoomKey, variant: VariantKey,
                   rounds: int = DEFAULT_QUICK_PLAY_ROUNDS) -> QueueEntry:
        """Queue the player in the pool of ``rounds`` 圈 games (the same pool again: the entry they hold)."""
        with store_reachable():
            return await self._join(user, room, variant, rounds)

    async def _join(self, user: User, room: RoomKey, variant: VariantKey, rounds: int) -> QueueEntry:
        check_not_frozen(user)
        check_entry_coins(user, room)
        waiting = await self.store.entry(user.id) if (await self._status(user.id)).queued else None
        if waiting is not None and waiting.pool == (room.value, variant.value, rounds):
            return waiting
        if waiting is not None:
            raise Conflict("you are waiting in the quick-play queue; leave it first", ErrorCode.IN_QUEUE,
                           queue=queue_key(*waiting.pool))
        await self.commitments.hold(user, room.value, variant.value, rounds)
        entry = QueueEntry(user_id=user.id, username=user.username, room=room.value, variant=variant.value,
                           since=time.time(), title_rank=title_index(user.rank_points),
                           rank_points=user.rank_points, rounds=rounds)
        try:
            await self.store.forget_matched(user.id)
            queued = await self.store.add(entry)
        except REDIS_ERRORS:
            # Not queued: the commitment goes back (an entry the store kept finds no commitment to seat).
            await self.commitments.release(user.id, room.value, variant.value, rounds)
            raise
        self.joined.set()
        return queued

    async def leave(self, user_id: int, room: RoomKey) -> None:
        """Leave the room's queue (idempotent).  The commitment goes first (see above); with no entry in the
        store (Redis lost it) a commitment to any of the room's pools is given back all the same."""
        with store_reachable():
            await self._leave(user_id, room)

    async def _leave(self, user_id: int, room: RoomKey) -> None:
        waiting = await self.store.entry(user_id)
        if waiting is not None and waiting.room != room.value:
            return
        pools = ([waiting.pool] if waiting else
                 [(room.value, v.value, n) for v in VariantKey for n in QUICK_PLAY_ROUNDS])
        for pool in pools:
            await self.commitments.release(user_id, *pool)
        await self.store.remove(user_id)
        # Claimed by a match: wait (bounded) for it to end, so the answer is definite — out of the queue, or
        # seated by a match made before the leave (GET /api/me/queue names the table).
        deadline = time.monotonic() + self.settle_seconds
        while await self.store.claim_of(user_id) is not None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    async def status(self, user_id: int) -> QueueStatus:
        """The player's queue now (``GET /api/me/queue``)."""
        with store_reachable():
            return await self._status(user_id)

    async def _status(self, user_id: int) -> QueueStatus:
        waiting = await self.store.entry(user_id)
        # Being seated: still queued until the table is sure (app.quickplay.matcher), unless the player left,
        # which gave the commitment back: then no match can seat them.
        if (waiting is not None and await self.store.claim_of(user_id) is not None
                and await self.commitments.current(user_id) is None):
            return QueueStatus(False)
        if waiting is not None:
            return QueueStatus(True, waiting.room, waiting.variant, waiting.joined_at, rounds=waiting.rounds)
        matched = await self.store.matched(user_id)
        if matched is not None:
            return QueueStatus(False, matched.room, matched.variant, datetime.fromtimestamp(matched.since, UTC),
                               matched.table_id, matched.rounds)
        return QueueStatus(False)
