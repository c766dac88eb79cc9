"""Request dependencies: the one DB session, the current user, the role checks, shared state."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.core.config import Settings
from app.core.security import read_access_token
from app.models import User
from app.quickplay.service import QuickPlay
from app.services.errors import ErrorCode, Forbidden, Unauthorized, Unavailable
from app.services.roles import Role, has_role
from app.state import AppState
from app.tables.registry import TableRegistry

_bearer = HTTPBearer(auto_error=False, description="The access_token from /api/auth/login or /register")
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


async def user_from_token(session: AsyncSession, settings: Settings, token: str | None) -> User | None:
    """The account a token belongs to (shared by HTTP and the WebSocket ?token= path)."""
    if not token:
        return None
    user_id = read_access_token(token, secret_key=settings.secret_key, max_age=settings.token_ttl_seconds)
    return None if user_id is None else await session.get(User, user_id)


async def get_current_user(
    session: SessionDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> User:
    user = await user_from_token(session, settings, credentials.credentials if credentials else None)
    if user is None:
        raise Unauthorized(BAD_TOKEN, headers={"WWW-Authenticate": "Bearer"})
    # End the read transaction now.  On SQLite it holds the database's write lock (see app.core.db), and
    # handlers go on to await other things, e.g. the registry's on_table_full hook, whose table actor may
    # need the database itself.  Services that write start a fresh transaction and lock what they need.
    await session.commit()
    return user


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
# (tests/app/test_route_roles.py walks the OpenAPI document and checks both).
OperatorUser = Annotated[User, Depends(get_operator_user)]
AdminUser = Annotated[User, Depends(get_admin_user)]
