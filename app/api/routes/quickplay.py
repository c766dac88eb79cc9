"""Quick play (快速開始): queue for a coin table in a room; the matcher seats you (app.quickplay)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, status

from app.api.deps import CurrentUser, QuickPlayDep
from app.game.rooms import RoomKey
from app.schemas_quickplay import LeftOut, QueuedOut, QueueIn, QueueStatusOut

router = APIRouter(prefix="/api", tags=["quick play"])

# The refusals (codes and params: docs/errors.md); nothing changes on any of them.
JOIN_REFUSALS: dict[int | str, dict[str, Any]] = {
    403: {"description": "`account_frozen`"},
    409: {"description": "`already_seated` (seated at a table), `in_queue` (waiting in another pool), "
                         "`registered_elsewhere` (an unfinished tournament), `insufficient_coins` (below the "
                         "room's entry)"},
    503: {"description": "`queue_unavailable` (the queue's Redis cannot be reached)"},
}
# Redis away: leaving and reading the queue are refused too, changing nothing (app.quickplay.service).
STORE_AWAY: dict[int | str, dict[str, Any]] = {503: JOIN_REFUSALS[503]}


@router.post("/rooms/{room}/queue", status_code=status.HTTP_202_ACCEPTED, responses=JOIN_REFUSALS)
async def join_queue(room: RoomKey, body: QueueIn, user: CurrentUser, quickplay: QuickPlayDep) -> QueuedOut:
    """Wait for a table of this variant and game length (``rounds``: 1 圈, the default, or 4) in this room.  Refused (409) while seated, queued in another
    pool or registered in an unfinished tournament, or below the room's entry coins; 403 when frozen."""
    entry = await quickplay.join(user, room, body.variant, body.rounds)
    return QueuedOut(queued=True, room=entry.room, variant=entry.variant, rounds=entry.rounds, since=entry.joined_at)


@router.delete("/rooms/{room}/queue", responses=STORE_AWAY)
async def leave_queue(room: RoomKey, user: CurrentUser, quickplay: QuickPlayDep) -> LeftOut:
    """Leave this room's queue (idempotent).  A match made before the leave stands: see GET /api/me/queue."""
    await quickplay.leave(user.id, room)
    return LeftOut(queued=False)


@router.get("/me/queue", responses=STORE_AWAY)
async def my_queue(user: CurrentUser, quickplay: QuickPlayDep) -> QueueStatusOut:
    found = await quickplay.status(user.id)
    return QueueStatusOut(queued=found.queued, room=found.room, variant=found.variant, rounds=found.rounds,
                          since=found.since, table_id=found.table_id)
