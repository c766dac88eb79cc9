"""GET /api/hands/{hand_id}: a finished hand's record (seed, commitment, actions, result, settlement).

Hands are written only when they are settled, so every record is of a finished hand; its seed is public
by then (it was revealed at the hand's end) and ``app.tables.fairness.verify_hand`` can replay it.
Who may read a record is ``readable_hand``'s rule (docs/server.md).
"""

from __future__ import annotations

from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import CurrentUser, HandId, RegistryDep, SessionDep, SettingsDep
from app.models import Hand, User
from app.schemas import UtcDatetime
from app.services.errors import Conflict, ErrorCode, Forbidden, NotFound
from app.services.replay import ReplayError, replay_frames
from app.services.roles import Role, has_role

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
    created_at: UtcDatetime


async def readable_hand(hand_id: HandId, user: CurrentUser, session: SessionDep, registry: RegistryDep,
                        settings: SettingsDep) -> Hand:
    """The hand record, if this account may read it: a player of the hand, an operator or admin (the console
    opens any finished hand, issue 11), or anyone once the table has closed when
    ``Settings.hands_public_after_close`` is on.  404 unknown, 403 otherwise."""
    hand = await session.get(Hand, hand_id)
    if hand is None:
        raise NotFound("no such hand", ErrorCode.HAND_NOT_FOUND, hand_id=hand_id)
    closed = hand.table_id is None or not registry.is_open(hand.table_id)
    staff = has_role(user, Role.OPERATOR)  # operators and admins
    if user.id in (hand.seats or []) or staff or (settings.hands_public_after_close and closed):
        return hand
    raise Forbidden("only the hand's players (and operators and admins) may read this hand",
                    ErrorCode.HAND_PRIVATE, hand_id=hand_id)


@router.get("/hands/{hand_id}", responses={403: {"description": "not a player of this hand"}})
async def read_hand(hand: Annotated[Hand, Depends(readable_hand)]) -> HandOut:
    """A finished hand: seed, commitment, every action, the result and the settlement.  Readable by the
    hand's players, operators and admins; by every logged-in account after the table closed if the server
    allows it (``HANDS_PUBLIC_AFTER_CLOSE``)."""
    return HandOut.model_validate(hand)


class ReplayOut(BaseModel):
    """A finished hand step by step: the deal, then one face-up view per recorded action."""

    hand: HandOut
    seat: int = Field(description="the seat shown at the bottom: yours if you played the hand, else 0")
    names: list[str | None] = Field(description="each seat's username; null for a bot")
    frames: list[dict[str, Any]] = Field(description='[{"action": null | action, "view": face-up seat view}]')


@router.get("/hands/{hand_id}/replay", responses={403: {"description": "not a player of this hand"}})
async def replay_hand(hand: Annotated[Hand, Depends(readable_hand)], user: CurrentUser,
                      session: SessionDep) -> ReplayOut:
    """The replay of a finished hand; who may open it is exactly who may read its record."""
    seats = list(hand.seats or [])
    seat = seats.index(user.id) if user.id in seats else 0
    try:
        frames = replay_frames(hand, seat)
    except ReplayError as exc:
        raise Conflict(str(exc), ErrorCode.HAND_NOT_REPLAYABLE, hand_id=hand.id) from None
    ids = [uid for uid in seats if uid is not None]
    users = {u.id: u.username for u in (await session.scalars(sa.select(User).where(User.id.in_(ids)))).all()}
    return ReplayOut(hand=HandOut.model_validate(hand), seat=seat,
                     names=[users.get(uid) if uid else None for uid in seats], frames=frames)
