"""Operator tools.  Every change is a ledger entry naming the admin and the reason; nothing is overwritten."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, status

from app.api.deps import AdminUser, SessionDep
from app.models import User
from app.schemas import AdjustmentIn, AdminUserOut, LedgerEntryOut
from app.services import accounts, ledger
from app.services.errors import ErrorCode, NotFound

router = APIRouter(prefix="/api/admin", tags=["admin"])


async def _user(session: SessionDep, user_id: int) -> User:
    user = await accounts.get_user(session, user_id=user_id)
    if user is None:
        raise NotFound("no such user", ErrorCode.USER_NOT_FOUND, user_id=user_id)
    return user


@router.get("/users")
async def find_user(_admin: AdminUser, session: SessionDep, username: str) -> AdminUserOut:
    user = await accounts.get_user_by_username(session, username=username)
    if user is None:
        raise NotFound("no such user", ErrorCode.USER_NOT_FOUND, username=username)
    return AdminUserOut.of(user)


@router.get("/users/{user_id}")
async def read_user(_admin: AdminUser, session: SessionDep, user_id: int) -> AdminUserOut:
    return AdminUserOut.of(await _user(session, user_id))


@router.post("/users/{user_id}/adjustments", status_code=status.HTTP_201_CREATED)
async def adjust_user(admin: AdminUser, session: SessionDep, user_id: int, body: AdjustmentIn) -> LedgerEntryOut:
    """Add (or take) coins or 積分 with a reason.  409 if the balance would go below 0."""
    await _user(session, user_id)
    entry = await ledger.adjust_balance(
        session,
        user_id=user_id,
        asset=body.asset,
        delta=body.delta,
        reason=body.reason,
        actor_id=admin.id,
        idempotency_key=body.idempotency_key,
    )
    return LedgerEntryOut.model_validate(entry)


@router.get("/users/{user_id}/ledger")
async def read_user_ledger(
    _admin: AdminUser,
    session: SessionDep,
    user_id: int,
    asset: Literal["coins", "rank_points"] | None = None,
    before_id: int | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[LedgerEntryOut]:
    await _user(session, user_id)
    entries = await ledger.list_entries(session, user_id=user_id, asset=asset, before_id=before_id, limit=limit)
    return [LedgerEntryOut.model_validate(entry) for entry in entries]
