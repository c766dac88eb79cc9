from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import SessionDep, SettingsDep
from app.core.config import Settings
from app.core.security import create_access_token
from app.models import User
from app.schemas import Credentials, MeOut, RegisterIn, TokenOut
from app.services import accounts
from app.services.errors import ErrorCode, Unauthorized

router = APIRouter(prefix="/api/auth", tags=["auth"])

# The same words whether the name or the password was wrong: no probing for which accounts exist.
BAD_LOGIN = "incorrect username or password"


def _token(user: User, settings: Settings) -> TokenOut:
    return TokenOut(
        access_token=create_access_token(user.id, secret_key=settings.secret_key),
        expires_in=settings.token_ttl_seconds,
        user=MeOut.of(user),
    )


@router.post("/register", status_code=status.HTTP_201_CREATED, responses={409: {"description": "name taken"}})
async def register(body: RegisterIn, session: SessionDep, settings: SettingsDep) -> TokenOut:
    """Create an account (with the welcome grant of coins) and log it in."""
    user = await accounts.register(
        session,
        username=body.username,
        password=body.password,
        welcome_grant=settings.welcome_grant,
    )
    return _token(user, settings)


@router.post("/login", responses={401: {"description": BAD_LOGIN}})
async def login(body: Credentials, session: SessionDep, settings: SettingsDep) -> TokenOut:
    user = await accounts.authenticate(session, username=body.username, password=body.password)
    if user is None:
        raise Unauthorized(BAD_LOGIN, ErrorCode.BAD_CREDENTIALS)
    return _token(user, settings)
