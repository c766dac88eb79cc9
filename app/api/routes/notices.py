"""Notices to every player (公告): admins post and end them; anyone reads those showing now.

Posting one that starts now tells every lobby and table socket at once (``{"type": "notice", ...}``); one
scheduled for later is told when it starts (``app.lobby.notices``).  Ending one early tells the sockets
again, with ``ends_at`` now.  Both acts are audited (``notice.create``, ``notice.end``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import BIG_ID_MAX, NO_NUL, AdminUser, SessionDep, StateDep
from app.lobby.notices import announce
from app.schemas_notices import NoticeIn, NoticeOut
from app.services import notices

router = APIRouter(tags=["notices"])
admin_router = APIRouter(prefix="/api/admin", tags=["admin"])
NoticeId = Annotated[int, Path(ge=1, le=BIG_ID_MAX, description="a notice's id")]


@router.get("/api/notices")
async def read_notices(session: SessionDep) -> list[NoticeOut]:
    """The notices showing now (no login needed), the soonest to end first; at most
    ``app.services.notices.CURRENT_MAX``."""
    return [NoticeOut.model_validate(notices.notice_view(n)) for n in await notices.current(session)]


@admin_router.get("/notices")
async def read_upcoming_notices(_admin: AdminUser, session: SessionDep) -> list[NoticeOut]:
    """The notices showing now or later, the soonest to start first."""
    return [NoticeOut.model_validate(notices.notice_view(n)) for n in await notices.upcoming(session)]


@admin_router.post("/notices", status_code=status.HTTP_201_CREATED)
async def post_notice(admin_user: AdminUser, session: SessionDep, state: StateDep, body: NoticeIn) -> NoticeOut:
    """Post a notice in the three languages, shown from ``starts_at`` (null: now) until ``ends_at``.  422 for
    a window that is over, reversed, too long or too far ahead.  Audited."""
    notice = await notices.create(session, text=body.text.model_dump(), starts_at=body.starts_at,
                                  ends_at=body.ends_at, actor_id=admin_user.id,
                                  reason=body.reason.strip() if body.reason else None)
    if notices.notice_view(notice)["starts_at"] <= datetime.now(UTC):
        await announce(state.broker, notice)
    return NoticeOut.model_validate(notices.notice_view(notice))


@admin_router.delete("/notices/{notice_id}")
async def end_notice(
    admin_user: AdminUser, session: SessionDep, state: StateDep, notice_id: NoticeId,
    reason: Annotated[str, Query(min_length=1, max_length=500, pattern=NO_NUL, description="why; audited")],
) -> NoticeOut:
    """End a notice now (one not started yet never shows); every socket hears it with ``ends_at`` now.
    404 notice_not_found for an unknown or already ended one.  Audited."""
    notice = await notices.end_early(session, notice_id=notice_id, actor_id=admin_user.id, reason=reason.strip())
    await announce(state.broker, notice)
    return NoticeOut.model_validate(notices.notice_view(notice))
