"""Login sessions (登入): open one per login, find it from its token, list, and revoke — without HTTP.

A session's token is opaque (``app.core.security.new_secret_token``) and stored only as a digest.  It is
valid until the first of: its absolute expiry (``Settings.session_absolute_seconds`` after login), being
idle for ``Settings.session_idle_seconds``, or revocation.  ``last_seen_at`` is written at most once every
``LAST_SEEN_EVERY`` seconds per session, so a busy client does not write on every request.

Revoking here ends the rows; the caller also tells ``app.services.live_sessions.LiveSessions`` so open sockets
close at once (the routes do both through ``end_sessions``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.config import Settings
from app.core.db import begin_write
from app.core.security import new_secret_token, token_digest
from app.models import LoginSession, User

LAST_SEEN_EVERY = timedelta(seconds=60)  # the resolution of last_seen_at (and so of the idle lifetime)
USER_AGENT_MAX = 200  # characters kept of the User-Agent header, for the owner's list
# A session's public id: random bytes in lowercase hex (never secret: shown to its owner to end it).
SESSION_ID_BYTES = 8
SESSION_ID_PATTERN = rf"^[0-9a-f]{{{2 * SESSION_ID_BYTES}}}$"


class EndReason(StrEnum):
    """Why a session was revoked (``LoginSession.revoked_reason``)."""

    LOGOUT = "logout"  # the player logged out (this session)
    ENDED_BY_OWNER = "ended_by_owner"  # the player ended it from their list of sessions
    PASSWORD_CHANGED = "password_changed"  # every other session of the account
    FROZEN = "frozen"  # an admin froze the account
    ADMIN = "admin"  # an admin's "log out everywhere"


@dataclass(frozen=True)
class Authenticated:
    """A valid session and its account."""

    login: LoginSession
    user: User


def _now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """``moment`` with its time zone: SQLite hands back naive datetimes (stored as UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def ends_at(login: LoginSession, settings: Settings) -> datetime:
    """When the session ends if nothing else happens: its absolute expiry, or idle expiry if sooner."""
    return min(aware(login.expires_at), aware(login.last_seen_at) + timedelta(seconds=settings.session_idle_seconds))


async def open_session(session: AsyncSession, user_id: int, settings: Settings, *, user_agent: str,
                       address: str) -> tuple[LoginSession, str]:
    """Start a session for the account (at login or registration); returns its row and its token (shown once)."""
    token, now = new_secret_token(), _now()
    login = LoginSession(id=secrets.token_hex(SESSION_ID_BYTES), user_id=user_id, token_hash=token_digest(token), created_at=now,
                         last_seen_at=now, expires_at=now + timedelta(seconds=settings.session_absolute_seconds),
                         user_agent=user_agent[:USER_AGENT_MAX], address=address[:64])
    await begin_write(session)
    session.add(login)
    await session.commit()
    return login, token


async def authenticate(session: AsyncSession, settings: Settings, token: str | None) -> Authenticated | None:
    """The live session a token belongs to and its account, or None (unknown, revoked, idle or expired).

    One query; a write only when ``last_seen_at`` is older than ``LAST_SEEN_EVERY``.
    """
    if not token:
        return None
    row = (await session.execute(
        select(LoginSession, User).join(User, User.id == LoginSession.user_id)
        .where(LoginSession.token_hash == token_digest(token), LoginSession.revoked_at.is_(None))
    )).first()
    now = _now()
    if row is None or ends_at(row[0], settings) <= now:
        return None
    login, user = row
    if now - aware(login.last_seen_at) >= LAST_SEEN_EVERY:
        await touch(session, [login.id])
        login.last_seen_at = now
    return Authenticated(login, user)


async def touch(session: AsyncSession, session_ids: list[str]) -> None:
    """Mark sessions as used now (a request, or a socket still open: ``LiveSessions`` calls this)."""
    if not session_ids:
        return
    await begin_write(session)
    await session.execute(update(LoginSession).where(LoginSession.id.in_(session_ids),
                                                     LoginSession.revoked_at.is_(None)).values(last_seen_at=_now()))
    await session.commit()


async def list_sessions(session: AsyncSession, settings: Settings, *, user_id: int) -> list[LoginSession]:
    """The account's live sessions, newest first."""
    rows = await session.scalars(select(LoginSession).where(LoginSession.user_id == user_id,
                                                            LoginSession.revoked_at.is_(None))
                                 .order_by(LoginSession.created_at.desc()))
    now = _now()
    return [login for login in rows if ends_at(login, settings) > now]


async def revoke(session: AsyncSession, *, user_id: int, reason: EndReason, session_id: str | None = None,
                 keep: str | None = None) -> list[str]:
    """End the account's live sessions (just ``session_id`` if given; all but ``keep`` otherwise).
    Returns the ids ended (empty when there was nothing to end)."""
    query = select(LoginSession.id).where(LoginSession.user_id == user_id, LoginSession.revoked_at.is_(None))
    if session_id is not None:
        query = query.where(LoginSession.id == session_id)
    if keep is not None:
        query = query.where(LoginSession.id != keep)
    await begin_write(session)
    ids = list(await session.scalars(query))
    if ids:
        await session.execute(update(LoginSession).where(LoginSession.id.in_(ids))
                              .values(revoked_at=_now(), revoked_reason=reason.value))
    await session.commit()
    return ids
