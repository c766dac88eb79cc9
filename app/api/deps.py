"""Request dependencies: the one DB session, the current user, the role checks, shared state."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Path, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.api.cookie_session import check_csrf, session_cookie
from app.core.config import Settings
from app.core.request_ids import note_user
from app.models import User
from app.quickplay.service import QuickPlay
from app.services import sessions
from app.services.errors import ErrorCode, Forbidden, Unauthorized, Unavailable
from app.services.roles import Role, has_role
from app.state import AppState
from app.tables.registry import TableRegistry

_bearer = HTTPBearer(auto_error=False, description="The access_token (a session token) from /api/auth/login or "
                     "/register")
# One message for every token problem: which part failed is nobody else's business.
BAD_TOKEN = "not authenticated: missing, invalid or expired token"


def get_state(conn: HTTPConnection) -> AppState:
    state: AppState = conn.app.state.services
    return state


StateDep = Annotated[AppState, Depends(get_state)]


def get_settings_dep(state: StateDep) -> Settings:
    return state.settings


def get_registry(state: StateDep) -> TableRegistry:
    return state.registry


def get_quickplay(state: StateDep) -> QuickPlay:
    if state.quickplay is None:
        raise Unavailable("quick play is starting; try again in a few seconds")
    return state.quickplay


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
RegistryDep = Annotated[TableRegistry, Depends(get_registry)]
QuickPlayDep = Annotated[QuickPlay, Depends(get_quickplay)]


async def get_session(state: StateDep) -> AsyncIterator[AsyncSession]:
    async with state.sessionmaker() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]

# Row ids as the database stores them (INTEGER keys: 32 bits; the hands', ledger's and audit's BIGINT: 64).  A
# bigger number names no row; refused here (422), it never reaches a driver that would fail on it (a 500).
ID_MAX, BIG_ID_MAX = 2**31 - 1, 2**63 - 1
UserId = Annotated[int, Path(ge=1, le=ID_MAX, description="an account id")]
TournamentId = Annotated[int, Path(ge=1, le=ID_MAX, description="a tournament id")]
HandId = Annotated[int, Path(ge=1, le=BIG_ID_MAX, description="a hand record's id")]
# Text a query filters by: never a NUL (Postgres cannot hold one in text, and refuses the whole statement).
NO_NUL = r"^[^\x00]*$"
# A table's id (app.tables.table_info.new_table_id and the tests' own): letters, digits, "-" and "_".
TableId = Annotated[str, Path(pattern=r"^[0-9A-Za-z_-]{1,64}$", description="a table id")]
# A finished game's record id (app.services.games.record_id): the table's id, ":", the table's game id.
GameId = Annotated[str, Path(pattern=r"^[0-9A-Za-z_-]{1,64}:[0-9a-f]{1,16}$", description="a finished game's id")]
# A login session's public id (app.services.sessions.SESSION_ID_PATTERN): a NUL or any other text is a 422.
LoginSessionId = Annotated[str, Path(pattern=sessions.SESSION_ID_PATTERN, description="a login session's id")]
BeforeId = Annotated[int | None, Query(ge=1, le=BIG_ID_MAX, description="page: entries older than this id")]


async def get_current_login(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> sessions.Authenticated:
    """The request's live login session and its account (401 for a missing, unknown, revoked or expired
    token).  The bearer header wins; without one, the browser's session cookie, and then a request that
    changes something must pass the CSRF check (403 ``csrf_refused``, app.api.cookie_session)."""
    token = credentials.credentials if credentials else session_cookie(request)
    if credentials is None and token:
        check_csrf(request)  # before the session is even looked up: a forged request touches nothing
    found = await sessions.authenticate(session, settings, token)
    if found is None:
        raise Unauthorized(BAD_TOKEN, headers={"WWW-Authenticate": "Bearer"})
    note_user(found.user.id)  # the access line names the account (app.core.request_ids)
    # End the read transaction now.  On SQLite it holds the database's write lock (see app.core.db), and
    # handlers go on to await other things, e.g. the registry's on_table_full hook, whose table actor may
    # need the database itself.  Services that write start a fresh transaction and lock what they need.
    await session.commit()
    return found


CurrentLogin = Annotated[sessions.Authenticated, Depends(get_current_login)]


def get_current_user(login: CurrentLogin) -> User:
    return login.user


CurrentUser = Annotated[User, Depends(get_current_user)]


def is_admin(user: User) -> bool:
    """The one admin check (the admin-only routes use it)."""
    return has_role(user, Role.ADMIN)


def get_operator_user(user: CurrentUser) -> User:
    if not has_role(user, Role.OPERATOR):
        raise Forbidden("operators and admins only", ErrorCode.OPERATOR_ONLY)
    return user


def get_admin_user(user: CurrentUser) -> User:
    if not is_admin(user):
        raise Forbidden("admins only", ErrorCode.ADMIN_ONLY)
    return user


# Routers of operator / admin endpoints carry the tag "operator" / "admin" and one of these on every route
# (tests/app/api/test_route_roles.py walks the OpenAPI document and checks both).
OperatorUser = Annotated[User, Depends(get_operator_user)]
AdminUser = Annotated[User, Depends(get_admin_user)]
