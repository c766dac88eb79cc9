"""GET /api/hands/{hand_id}: a finished hand's record (seed, commitment, actions, result, settlement).

Hands are written only when they are settled, so every record is of a finished hand; its seed is public
by then (it was revealed at the hand's end) and ``app.tables.fairness.verify_hand`` can replay it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from app.api.deps import CurrentUser, SessionDep
from app.models import Hand
from app.services.errors import ErrorCode, NotFound

router = APIRouter(prefix="/api", tags=["hands"])


class HandOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    hand_key: str
    table_id: str | None
    variant: str
    room: str | None
    practice: bool
    seed: str | None
    commitment: str | None
    seats: list[Any]
    actions: list[Any]
    result: dict[str, Any]
    settlement: dict[str, Any]
    created_at: datetime


@router.get("/hands/{hand_id}")
async def read_hand(hand_id: int, _user: CurrentUser, session: SessionDep) -> HandOut:
    hand = await session.get(Hand, hand_id)
    if hand is None:
        raise NotFound("no such hand", ErrorCode.HAND_NOT_FOUND, hand_id=hand_id)
    return HandOut.model_validate(hand)
