"""The queue's side of the one owner of commitments (承諾, app.services.commitments).

Quick play holds no rule of its own about who may queue or sit: a queue entry is a commitment, taken and
given back through the commitments service, and a match turns each member's queue commitment into the new
table's seat in one transaction (all members or none).  This module is the seam the queue calls.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.game.rooms import ROOMS, RoomKey
from app.models import User
from app.services import commitments
from app.services.commitments import CommitmentKind, SeatProbe
from app.services.ledger import lock_users


def queue_key(room: str, variant: str, rounds: int) -> str:
    """The commitment's ``ref`` for a queue entry: the pool, ``{room}:{variant}:{rounds}``."""
    return f"{room}:{variant}:{rounds}"


class QueueCommitments(Protocol):
    async def hold(self, user: User, room: str, variant: str, rounds: int) -> None:
        """Commit the player to this pool's queue; raises the coded 409 when they hold another commitment
        (a seat, another pool, a tournament).  Holding exactly this one already is fine."""
        ...

    async def release(self, user_id: int, room: str, variant: str, rounds: int) -> bool:
        """Drop the player's commitment to this pool; False if they did not hold it (e.g. matched)."""
        ...

    async def current(self, user_id: int) -> tuple[str, str] | None:
        """The player's commitment now, as (kind, ref): ``("seat", table_id)``, ``("queue", "room:variant:rounds")``."""
        ...

    async def seat(self, table_id: str, room: str, variant: str, rounds: int, user_ids: list[int]) -> list[int]:
        """Turn every member's queue commitment into a seat at ``table_id``, all or none.  Returns those
        who no longer hold this pool's queue commitment, or may no longer sit in the room (frozen, too few
        coins: their queue commitment is dropped); then no seat was taken."""
        ...

    async def unseat(self, table_id: str, room: str, variant: str, rounds: int, user_ids: list[int]) -> list[int]:
        """A matched table that never started: the members still committed to its seat go back to the
        queue's commitment.  Returns those requeued (the others had left the seat meanwhile)."""
        ...


class ServiceCommitments:
    """``QueueCommitments`` over app.services.commitments, each call one short transaction of its own."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], probe: SeatProbe | None = None) -> None:
        self.sessionmaker = sessionmaker
        self.probe = probe  # tells a stale seat (its table gone) from a live one: the registry's ``holds``

    async def hold(self, user: User, room: str, variant: str, rounds: int) -> None:
        async with self.sessionmaker() as session:
            await commitments.acquire(session, user.id, CommitmentKind.QUEUE, queue_key(room, variant, rounds),
                                      seat_probe=self.probe)
            await session.commit()

    async def release(self, user_id: int, room: str, variant: str, rounds: int) -> bool:
        async with self.sessionmaker() as session:
            gone = await commitments.release(session, user_id, CommitmentKind.QUEUE, queue_key(room, variant, rounds))
            await session.commit()
        return gone

    async def current(self, user_id: int) -> tuple[str, str] | None:
        async with self.sessionmaker() as session:
            held = await commitments.current(session, user_id)
            await session.commit()
        return None if held is None else (held.kind, held.ref)

    async def seat(self, table_id: str, room: str, variant: str, rounds: int, user_ids: list[int]) -> list[int]:
        key = queue_key(room, variant, rounds)
        unfit = await self._unfit(user_ids, room, key)
        if unfit:
            return unfit
        return await self._swap(user_ids, (CommitmentKind.QUEUE, key), (CommitmentKind.SEAT, table_id))

    async def _unfit(self, user_ids: list[int], room: str, key: str) -> list[int]:
        """Players frozen, or below the room's entry coins, since they queued (the same checks as joining,
        on fresh rows): they leave the queue (commitment dropped) and the match goes on without them."""
        async with self.sessionmaker() as session:
            users = await lock_users(session, user_ids)
            entry = ROOMS[RoomKey(room)].entry_coins
            unfit = [uid for uid, u in users.items() if u.frozen or u.coins < entry]
            for uid in unfit:
                await commitments.release(session, uid, CommitmentKind.QUEUE, key)
            await session.commit()
        return unfit

    async def unseat(self, table_id: str, room: str, variant: str, rounds: int, user_ids: list[int]) -> list[int]:
        # Each member alone: one who stood up meanwhile (their seat released) must not keep the others out.
        requeued = []
        for uid in user_ids:
            not_holding = await self._swap([uid], (CommitmentKind.SEAT, table_id),
                                           (CommitmentKind.QUEUE, queue_key(room, variant, rounds)))
            if uid not in not_holding:  # they still held the seat, and now hold the queue commitment again
                requeued.append(uid)
        return requeued

    async def _swap(self, user_ids: list[int], held: tuple[CommitmentKind, str],
                    wanted: tuple[CommitmentKind, str]) -> list[int]:
        """In one transaction, under the accounts' row locks: every player holding ``held`` now holds
        ``wanted``; if some do not hold ``held``, nothing changes and they are returned."""
        async with self.sessionmaker() as session:
            await lock_users(session, user_ids)
            found = {uid: await commitments.current(session, uid) for uid in user_ids}
            not_holding = [uid for uid, c in found.items()
                           if c is None or (c.kind, c.ref) != (held[0].value, held[1])]
            if not_holding:
                await session.rollback()
                return not_holding
            for uid in user_ids:
                await commitments.acquire(session, uid, wanted[0], wanted[1], replaces=held)
            await session.commit()
        return []
