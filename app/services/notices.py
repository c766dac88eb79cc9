"""Notices to every player (公告): maintenance at 03:00, a tournament starting (issue 35).

An admin posts one with its text in the three languages and the window it shows in; ``current`` lists those
showing now (``GET /api/notices``, public); ``end_early`` ends one before its time.  Both acts are audited
(``notice.create``, ``notice.end``).  Every socket hears a notice when it starts (``app.lobby.notices``).

The limits are declared here once: the request bodies (``app.schemas_notices``) and docs/operations.md
read them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.models import Notice
from app.services import audit
from app.services.errors import ErrorCode, InvalidInput, NotFound

TEXT_MAX = 300  # characters per language: a banner, not an article
SHOWN_MAX = timedelta(days=30)  # the longest window a notice shows in
AHEAD_MAX = timedelta(days=365)  # how far ahead a notice may be scheduled
CURRENT_MAX = 20  # notices showing at once, as listed
LANGUAGES = ("zh_hans", "zh_hant", "en")


def _utc(moment: datetime) -> datetime:
    """A moment in UTC: SQLite hands a stored one back naive (it was written in UTC), and one just posted keeps
    its sender's offset; the same notice must read the same wherever it comes from."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


def notice_view(notice: Notice) -> dict[str, Any]:
    """What clients see of a notice (the socket's ``notice`` message and ``GET /api/notices`` alike)."""
    return {"id": notice.id, "text": {lang: notice.text[lang] for lang in LANGUAGES},
            "starts_at": _utc(notice.starts_at), "ends_at": _utc(notice.ends_at)}


async def create(session: AsyncSession, *, text: dict[str, str], starts_at: datetime | None, ends_at: datetime,
                 actor_id: int | None, reason: str | None = None, now: datetime | None = None) -> Notice:
    """Post a notice showing from ``starts_at`` (None: now) until ``ends_at``.  InvalidInput for a window
    that is over, reversed, longer than ``SHOWN_MAX`` or starting more than ``AHEAD_MAX`` ahead."""
    now = now or datetime.now(UTC)
    # Stored in UTC: SQLite keeps a moment's wall time and drops its offset.
    starts_at, ends_at = _utc(starts_at or now), _utc(ends_at)
    if ends_at <= now:
        raise InvalidInput("ends_at is in the past", field="ends_at", reason="past")
    if ends_at <= starts_at:
        raise InvalidInput("ends_at is not after starts_at", field="ends_at", reason="before_start")
    if ends_at - starts_at > SHOWN_MAX:
        raise InvalidInput(f"a notice shows for at most {SHOWN_MAX.days} days", field="ends_at", reason="range",
                           maximum=SHOWN_MAX.days)
    if starts_at - now > AHEAD_MAX:
        raise InvalidInput(f"a notice starts at most {AHEAD_MAX.days} days ahead", field="starts_at",
                           reason="range", maximum=AHEAD_MAX.days)
    await begin_write(session)
    notice = Notice(text={lang: text[lang] for lang in LANGUAGES}, starts_at=starts_at, ends_at=ends_at,
                    created_by=actor_id)
    session.add(notice)
    await session.flush()
    audit.record(session, actor_id=actor_id, action="notice.create", target_type="notice", target_id=notice.id,
                 after={"starts_at": starts_at.isoformat(), "ends_at": ends_at.isoformat(), "en": text["en"]},
                 reason=reason)
    await session.commit()
    return notice


async def current(session: AsyncSession, now: datetime | None = None) -> list[Notice]:
    """The notices showing now, the soonest to end first."""
    now = now or datetime.now(UTC)
    rows = await session.scalars(select(Notice).where(Notice.starts_at <= now, Notice.ends_at > now)
                                 .order_by(Notice.ends_at, Notice.id).limit(CURRENT_MAX))
    return list(rows)


async def upcoming(session: AsyncSession, now: datetime | None = None, limit: int = 50) -> list[Notice]:
    """The notices showing now or later (the console's list), the soonest to start first."""
    now = now or datetime.now(UTC)
    rows = await session.scalars(select(Notice).where(Notice.ends_at > now)
                                 .order_by(Notice.starts_at, Notice.id).limit(limit))
    return list(rows)


async def started_between(session: AsyncSession, after: datetime, until: datetime) -> list[Notice]:
    """Notices that started in ``(after, until]`` and still show at ``until`` (the crier's next batch)."""
    rows = await session.scalars(select(Notice).where(Notice.starts_at > after, Notice.starts_at <= until,
                                                      Notice.ends_at > until).order_by(Notice.starts_at))
    return list(rows)


async def end_early(session: AsyncSession, *, notice_id: int, actor_id: int | None, reason: str | None = None,
                    now: datetime | None = None) -> Notice:
    """End a notice now (one not started yet never shows).  NotFound for an unknown or already ended one."""
    now = now or datetime.now(UTC)
    await begin_write(session)
    notice = await session.get(Notice, notice_id)
    if notice is None or _utc(notice.ends_at) <= now:
        raise NotFound("no such notice showing or to come", ErrorCode.NOTICE_NOT_FOUND, notice_id=notice_id)
    before = _utc(notice.ends_at).isoformat()
    notice.ends_at, notice.ended_early = now, True
    if _utc(notice.starts_at) > now:
        notice.starts_at = now
    audit.record(session, actor_id=actor_id, action="notice.end", target_type="notice", target_id=notice_id,
                 before={"ends_at": before}, after={"ends_at": now.isoformat()}, reason=reason)
    await session.commit()
    return notice
