from __future__ import annotations

import unicodedata

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.cookie_session import check_origin, set_session_cookie
from app.api.deps import SessionDep, SettingsDep, StateDep
from app.api.gate import client_host, rate_limited
from app.core.config import Settings
from app.core.throttle import Throttle
from app.models import User
from app.schemas import Credentials, MeOut, RegisterIn, TokenOut
from app.services import accounts, sessions
from app.services.errors import ErrorCode, Unauthorized

router = APIRouter(prefix="/api/auth", tags=["auth"])

# The same words whether the name or the password was wrong: no probing for which accounts exist.
BAD_LOGIN = "incorrect username or password"


def _throttled_user(throttle: Throttle, key: str) -> None:
    wait = throttle.wait(key)
    if wait:
        raise rate_limited(wait, "username")


async def _log_in(session: AsyncSession, user: User, settings: Settings, request: Request,
                 response: Response) -> TokenOut:
    """Open a session (a row per login, app.services.sessions): its opaque token is the access_token, and the
    browser's HttpOnly session cookie (app.api.cookie_session).  Each login is a new session with a new token,
    so a cookie planted before the login is never the one that ends up logged in."""
    _, token = await sessions.open_session(session, user.id, settings, user_agent=request.headers.get("user-agent", ""),
                                           address=client_host(request.scope))
    set_session_cookie(response, request, settings, token)
    return TokenOut(access_token=token, expires_in=settings.session_absolute_seconds, user=MeOut.of(user))


class AccountRules(BaseModel):
    """The account form's rules, from the declarations in app.services.accounts (shown before submitting)."""

    username_min: int
    username_min_cjk: int = Field(description="the shortest name that holds a Chinese character (阿明)")
    username_max: int
    username_chars: str = Field(description="letters, digits, underscore and Chinese characters")
    password_min: int
    password_max: int


@router.get("/rules")
async def account_rules() -> AccountRules:
    """What a username and a password must be, so the sign-up form can say so before it is sent."""
    return AccountRules(username_min=accounts.USERNAME_MIN, username_min_cjk=accounts.USERNAME_MIN_CJK,
                        username_max=accounts.USERNAME_MAX,
                        username_chars="letters_digits_underscore_chinese",
                        password_min=accounts.PASSWORD_MIN, password_max=accounts.PASSWORD_MAX)


@router.post("/register", status_code=status.HTTP_201_CREATED,
             responses={409: {"description": "name taken"}, 429: {"description": "too many registrations"}})
async def register(body: RegisterIn, session: SessionDep, settings: SettingsDep, request: Request,
                   response: Response) -> TokenOut:
    """Create an account (with the welcome grant of coins) and log it in (the token, and the browser's session
    cookie).  Throttled per IP (app.api.gate); refused from another site's page (403 ``csrf_refused``)."""
    check_origin(request)
    user = await accounts.register(
        session,
        username=body.username,
        password=body.password,
        welcome_grant=settings.welcome_grant,
    )
    return await _log_in(session, user, settings, request, response)


@router.post("/login", responses={401: {"description": BAD_LOGIN}, 429: {"description": "too many attempts"}})
async def login(body: Credentials, session: SessionDep, settings: SettingsDep, state: StateDep,
                request: Request, response: Response) -> TokenOut:
    """Log in: the token, and the browser's session cookie.  Throttled per IP (every attempt, app.api.gate) and
    per username (failed attempts): 429 with Retry-After.  Refused from another site's page (403
    ``csrf_refused``: login CSRF)."""
    check_origin(request)
    throttles = state.throttles
    name_key = unicodedata.normalize("NFKC", body.username).casefold()
    _throttled_user(throttles.login_user, name_key)
    user = await accounts.check_credentials(session, username=body.username, password=body.password)
    if user is None:
        throttles.login_user.hit(name_key)
        raise Unauthorized(BAD_LOGIN, ErrorCode.BAD_CREDENTIALS)
    return await _log_in(session, user, settings, request, response)
