"""Moderation (issue 35 item 4): an account's login sessions, notes on an account, the collusion report.

Admins only; ending a session and writing a note are audited.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, status
from sqlalchemy import select

from app.api.deps import NO_NUL, AdminUser, SessionDep, SettingsDep, StateDep, UserId
from app.core.db import begin_write
from app.models import User
from app.schemas_moderation import (
    AdminSessionOut,
    CollusionAccount,
    CollusionPairOut,
    NoteIn,
    NoteOut,
)
from app.services import accounts, audit, collusion, notes, sessions
from app.services.errors import ErrorCode, InvalidInput, NotFound
from app.services.text import reason_text

router = APIRouter(prefix="/api/admin", tags=["admin"])

ReasonQuery = Annotated[str, Query(min_length=1, max_length=500, pattern=NO_NUL,
                                   description="why; recorded in the audit log")]
SessionId = Annotated[str, Path(pattern=r"^[0-9a-f]{1,32}$", description="a login session's public id")]


async def _user(session: SessionDep, user_id: int) -> User:
    user = await accounts.get_user(session, user_id=user_id)
    if user is None:
        raise NotFound("no such user", ErrorCode.USER_NOT_FOUND, user_id=user_id)
    return user


@router.get("/users/{user_id}/sessions")
async def user_sessions(_admin: AdminUser, session: SessionDep, settings: SettingsDep,
                        user_id: UserId) -> list[AdminSessionOut]:
    """The account's live login sessions, newest first: when, from where, which browser."""
    await _user(session, user_id)
    rows = await sessions.list_sessions(session, settings, user_id=user_id)
    return [AdminSessionOut.model_validate(row) for row in rows]


@router.delete("/users/{user_id}/sessions/{session_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses={404: {"description": "no such live session of this account"}})
async def end_user_session(admin_user: AdminUser, session: SessionDep, state: StateDep, user_id: UserId,
                           session_id: SessionId, reason: ReasonQuery) -> None:
    """End one session of the account: its token stops working and its sockets close at once (4401).  Audited
    as ``session.end`` with ``reason``."""
    why = reason_text(reason)
    await _user(session, user_id)
    ended = await state.live_sessions.revoke(session, user_id=user_id, session_id=session_id,
                                             reason=sessions.EndReason.ADMIN)
    if not ended:
        raise NotFound("no such live session of this account", ErrorCode.SESSION_NOT_FOUND, session_id=session_id)
    await begin_write(session)
    audit.record(session, actor_id=admin_user.id, action="session.end", target_type="user", target_id=user_id,
                 before={"session": session_id, "live": True}, after={"session": session_id, "live": False},
                 reason=why)
    await session.commit()


@router.post("/users/{user_id}/notes", status_code=status.HTTP_201_CREATED)
async def add_note(admin_user: AdminUser, session: SessionDep, user_id: UserId, body: NoteIn) -> NoteOut:
    """Write a note on the account (who and when are recorded); audited as ``note.add``."""
    await _user(session, user_id)
    note = await notes.add_note(session, user_id=user_id, author_id=admin_user.id, text=body.text)
    return NoteOut.model_validate(note).model_copy(update={"author_name": admin_user.username})


@router.get("/users/{user_id}/notes")
async def read_notes(_admin: AdminUser, session: SessionDep, user_id: UserId) -> list[NoteOut]:
    """The account's notes, newest first (at most NOTES_PAGE_MAX)."""
    await _user(session, user_id)
    rows = await notes.list_notes(session, user_id=user_id)
    authors = {row.author_id for row in rows}
    names = dict((await session.execute(select(User.id, User.username).where(User.id.in_(authors)))).all()) \
        if authors else {}
    return [NoteOut.model_validate(row).model_copy(update={"author_name": names.get(row.author_id, "")})
            for row in rows]


@router.get("/reports/collusion")
async def collusion_report(
    _admin: AdminUser,
    session: SessionDep,
    since: Annotated[datetime, Query(description="the period's start (ISO 8601 with a time zone)")],
) -> list[CollusionPairOut]:
    """Every pair of accounts that shared a coin hand since ``since``, ranked by the signals of chip dumping
    (docs/operations.md, "The collusion report").  No minimum: a human reads the signals and decides."""
    if since.tzinfo is None:
        raise InvalidInput("since needs a time zone (e.g. 2026-12-01T00:00:00Z)", field="since", reason="timezone")
    pairs = await collusion.collusion_report(session, since=since)
    return [CollusionPairOut(
        giver=CollusionAccount(id=p.giver, username=p.names[0]),
        receiver=CollusionAccount(id=p.receiver, username=p.names[1]),
        score=p.score, hands_together=p.hands_together, tables_together=p.tables_together,
        together_rate=p.together_rate, net_coins=p.net_coins, loss_share=p.loss_share, fed_wins=p.fed_wins,
        fed_wins_back=p.fed_wins_back, shared_address=p.shared_address, shared_device=p.shared_device,
    ) for p in pairs]
