"""The one owner of what a player is committed to (承諾): a seat, a quick-play queue entry, or a tournament.

A player holds **at most one** commitment that can seat them or move their coins:

* ``seat``: a practice, coin or lobby table (``ref`` = the table id).  Tournament tables are not separate
  seats: the tournament's commitment covers them.
* ``queue``: a quick-play queue entry (``ref`` = the queue's key).
* ``tournament``: a registration in a tournament that has not finished (``ref`` = the tournament id), from
  registering until the player leaves before the start, is disqualified, or the tournament ends.

Every path that creates one (sit, open a table, practice, register, queue, tournament start) calls
``acquire`` inside its own write transaction; it locks the account row first (SELECT ... FOR UPDATE on
Postgres, the database write lock on SQLite: ``app.services.ledger.lock_users``), and the table's primary key
is the account, so no race and no second process can ever record two.  A clash is a coded 409
(``already_seated``, ``in_queue``, ``registered_elsewhere``) and changes nothing.

The API (all take the caller's session; none commits, so the commitment lands with the caller's change):

* ``acquire(session, user_id, kind, ref, *, replaces=None, seat_probe=None) -> Acquired``
* ``release(session, user_id, kind, ref) -> bool`` (only that exact commitment; False if not held)
* ``release_all(session, kind, ref) -> list[int]`` (everyone's: a table closed, a tournament ended)
* ``current(session, user_id) -> Commitment | None``

``SeatCommitments`` is the table registry's side of it, with sessions of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.db import begin_write
from app.models import Commitment
from app.services.errors import Conflict, ErrorCode
from app.services.ledger import lock_users

log = logging.getLogger(__name__)

# A seat's commitment younger than this is trusted even if its table does not (yet) show the player: the
# commitment is written before the registry places the player, and that placing may be on its way.
SEAT_GRACE = timedelta(seconds=30)

SeatProbe = Callable[[int, str], Awaitable[bool]]
"""``probe(user_id, table_id)``: whether that table (in any process) still seats the player.  A seat
commitment whose table no longer seats them (the process that held the table stopped) is stale and is
replaced instead of refusing forever."""


class CommitmentKind(StrEnum):
    """What a commitment is to: 座位 a table's seat, 排隊 the quick-play queue, 比賽 a tournament."""

    SEAT = "seat"
    QUEUE = "queue"
    TOURNAMENT = "tournament"


@dataclass(frozen=True)
class Acquired:
    """The commitment the player now holds; ``created`` is False when they already held exactly it."""

    commitment: Commitment
    created: bool


def _refusal(held: Commitment) -> Conflict:
    """The coded 409 for wanting something while ``held`` is in force."""
    if held.kind == CommitmentKind.SEAT:
        return Conflict(f"you already sit at another table ({held.ref}); stand up there first",
                        ErrorCode.ALREADY_SEATED, table_id=held.ref, seat=None)
    if held.kind == CommitmentKind.QUEUE:
        return Conflict("you are waiting in the quick-play queue; leave it first", ErrorCode.IN_QUEUE,
                        queue=held.ref)
    return Conflict(f"you are registered in tournament {held.ref}, which has not finished; leave it before it "
                    "starts, or wait for its end", ErrorCode.REGISTERED_ELSEWHERE, tournament_id=int(held.ref))


async def current(session: AsyncSession, user_id: int) -> Commitment | None:
    """The player's commitment now, if any (fresh from the database)."""
    return await session.get(Commitment, user_id, populate_existing=True)


async def _stale(held: Commitment, probe: SeatProbe | None) -> bool:
    if probe is None or held.kind != CommitmentKind.SEAT:
        return False
    created = held.created_at if held.created_at.tzinfo else held.created_at.replace(tzinfo=UTC)
    if datetime.now(UTC) - created < SEAT_GRACE:
        return False
    try:
        return not await probe(held.user_id, held.ref)
    except Exception:  # cannot tell (the directory is unreachable): keep it, refusing is the safe side
        log.exception("seat probe failed for user %s at %s", held.user_id, held.ref)
        return False


async def acquire(
    session: AsyncSession, user_id: int, kind: CommitmentKind, ref: str, *,
    replaces: tuple[CommitmentKind, str] | None = None, seat_probe: SeatProbe | None = None,
) -> Acquired:
    """Record that the player is committed to ``(kind, ref)``, under the account's row lock.

    Holding exactly that already: returned with ``created=False``.  Holding ``replaces`` (e.g. the queue
    entry a match seats them from): it becomes the new one.  Holding something else: Conflict (409, coded),
    unless it is a seat ``seat_probe`` finds gone.  Does not commit: the caller commits with its own change
    (or rolls back, and nothing was recorded).
    """
    await lock_users(session, [user_id])
    held = await current(session, user_id)
    if held is not None and (held.kind, held.ref) == (kind.value, ref):
        return Acquired(held, False)
    if held is not None:
        if replaces is None or (held.kind, held.ref) != (replaces[0].value, replaces[1]):
            if not await _stale(held, seat_probe):
                raise _refusal(held)
            log.info("replacing stale seat commitment of user %s at %s", user_id, held.ref)
        held.kind, held.ref, held.created_at = kind.value, ref, datetime.now(UTC)
        await session.flush()
        return Acquired(held, True)
    commitment = Commitment(user_id=user_id, kind=kind.value, ref=ref, created_at=datetime.now(UTC))
    session.add(commitment)
    await session.flush()
    return Acquired(commitment, True)


async def release(session: AsyncSession, user_id: int, kind: CommitmentKind, ref: str) -> bool:
    """Drop the player's commitment if it is exactly ``(kind, ref)`` (a newer one is left alone)."""
    await begin_write(session)
    result = await session.execute(delete(Commitment).where(
        Commitment.user_id == user_id, Commitment.kind == kind.value, Commitment.ref == ref))
    return bool(getattr(result, "rowcount", 0))


async def release_all(session: AsyncSession, kind: CommitmentKind, ref: str,
                      user_ids: Iterable[int] | None = None) -> list[int]:
    """Drop every commitment to ``(kind, ref)`` (of ``user_ids`` only, if given); returns whose went."""
    await begin_write(session)
    query = select(Commitment.user_id).where(Commitment.kind == kind.value, Commitment.ref == ref)
    if user_ids is not None:
        query = query.where(Commitment.user_id.in_(list(user_ids)))
    users = list(await session.scalars(query))
    if users:
        await session.execute(delete(Commitment).where(
            Commitment.kind == kind.value, Commitment.ref == ref, Commitment.user_id.in_(users)))
    return users


class SeatCommitments:
    """The table registry's commitments (``TableRegistry.commitments``): a seat is claimed before the
    registry places the player and released when the seat is freed, each in a short transaction of its own.

    ``probe`` tells a stale seat (its table gone) from a live one (see ``SeatProbe``).
    """

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], probe: SeatProbe | None = None) -> None:
        self.sessionmaker = sessionmaker
        self.probe = probe

    async def claim(self, user_id: int, table_id: str) -> bool:
        """Commit the player to ``table_id``'s seat; True if this call created it (release it if the
        seating then fails), False if they already held it.  Raises the coded Conflict."""
        async with self.sessionmaker() as session:
            got = await acquire(session, user_id, CommitmentKind.SEAT, table_id, seat_probe=self.probe)
            await session.commit()
            return got.created

    async def release(self, seats: Iterable[tuple[int, str]]) -> None:
        """Free these (user id, table id) seats.  Best effort: a failure is logged, and the commitment left
        behind is found stale by the probe later."""
        seats = list(seats)
        if not seats:
            return
        try:
            async with self.sessionmaker() as session:
                for user_id, table_id in seats:
                    await release(session, user_id, CommitmentKind.SEAT, table_id)
                await session.commit()
        except Exception:
            log.exception("could not release seat commitments %s", seats)
