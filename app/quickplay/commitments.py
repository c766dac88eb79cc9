"""The queue's side of the one owner of commitments (承諾, app.services.commitments).

Quick play holds no rule of its own about who may queue or sit: a queue entry is a commitment, taken and
given back through the commitments service, and a match turns each member's queue commitment into the new
table's seat in one transaction (all members or none).  This module is the seam the queue calls.
"""

from __future__ import annotations

from typing import Protocol

from app.models import User


def queue_key(room: str, variant: str) -> str:
    """The commitment's ``ref`` for a queue entry: the pool, ``{room}:{variant}``."""
    return f"{room}:{variant}"


class QueueCommitments(Protocol):
    async def hold(self, user: User, room: str, variant: str) -> None:
        """Commit the player to this pool's queue; raises the coded 409 when they hold another commitment
        (a seat, another pool, a tournament).  Holding exactly this one already is fine."""
        ...

    async def release(self, user_id: int, room: str, variant: str) -> bool:
        """Drop the player's commitment to this pool; False if they did not hold it (e.g. matched)."""
        ...

    async def seat(self, table_id: str, room: str, variant: str, user_ids: list[int]) -> list[int]:
        """Turn every member's queue commitment into a seat at ``table_id``, all or none.  Returns those
        who no longer hold this pool's queue commitment (then nothing changed)."""
        ...

    async def unseat(self, table_id: str, room: str, variant: str, user_ids: list[int]) -> list[int]:
        """A matched table that never started: the members still committed to its seat go back to the
        queue's commitment.  Returns those who did."""
        ...
