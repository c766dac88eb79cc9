"""Accounts: registration with the welcome grant, login, look-ups.  Roles are app.services.roles."""

from __future__ import annotations

import re
import unicodedata

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.core.security import hash_password, verify_password
from app.game.names import LANGUAGES, Language
from app.models import LedgerEntry, User
from app.services.errors import Conflict, ErrorCode, Forbidden, InvalidInput, NotFound

USERNAME_MIN, USERNAME_MAX = 3, 20
# A name that holds a Chinese character may be two long (阿明): two 漢字 say as much as three letters.
USERNAME_MIN_CJK = 2
PASSWORD_MIN, PASSWORD_MAX = 8, 256
# ASCII letters only (plus CJK): other scripts would allow look-alike names (Cyrillic "а" for Latin "a").
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_USERNAME_RE = re.compile(rf"[A-Za-z0-9_{_CJK}]+")
_HAS_CJK = re.compile(rf"[{_CJK}]")


def username_minimum(name: str) -> int:
    """The shortest a name may be: 2 when it holds a Chinese character (USERNAME_MIN_CJK), else 3."""
    return USERNAME_MIN_CJK if _HAS_CJK.search(name) else USERNAME_MIN
WELCOME_REASON = "welcome_grant"


def canonical_username(username: str) -> tuple[str, str]:
    """(the name as shown, the key that must be unique).  Raises InvalidInput.

    NFKC first, so full-width "ａｌｉｃｅ" is stored as "alice"; the key is also case-folded so "Alice" and
    "alice" are one account.
    The error names the rule that failed (``rule``: too_short, too_long or characters) and the bounds that
    apply to this name (a name with a Chinese character may be 2 long).
    """
    shown = unicodedata.normalize("NFKC", username)
    minimum = username_minimum(shown)
    if not _USERNAME_RE.fullmatch(shown) and shown:
        raise InvalidInput("username may contain only letters, digits, underscore and Chinese characters",
                           ErrorCode.INVALID_USERNAME, rule="characters", minimum=minimum, maximum=USERNAME_MAX)
    if len(shown) < minimum:
        raise InvalidInput(f"username must be at least {minimum} characters"
                           + (" (2 with a Chinese character)" if minimum == USERNAME_MIN else ""),
                           ErrorCode.INVALID_USERNAME, rule="too_short", minimum=minimum, maximum=USERNAME_MAX)
    if len(shown) > USERNAME_MAX:
        raise InvalidInput(f"username must be at most {USERNAME_MAX} characters", ErrorCode.INVALID_USERNAME,
                           rule="too_long", minimum=minimum, maximum=USERNAME_MAX)
    return shown, shown.casefold()


def check_password(password: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise InvalidInput(f"password must be at least {PASSWORD_MIN} characters", ErrorCode.INVALID_PASSWORD,
                           minimum=PASSWORD_MIN, maximum=PASSWORD_MAX)
    if len(password) > PASSWORD_MAX:
        raise InvalidInput(f"password must be at most {PASSWORD_MAX} characters", ErrorCode.INVALID_PASSWORD,
                           minimum=PASSWORD_MIN, maximum=PASSWORD_MAX)


async def register(
    session: AsyncSession,
    *,
    username: str,
    password: str,
    welcome_grant: int,
) -> User:
    """Create a player account and credit the welcome grant in the same transaction.

    Every new account is a player, whatever its name (issue 9 item 6: no admin by registering a reserved
    name first).  Raises InvalidInput/Conflict.
    """
    shown, key = canonical_username(username)
    check_password(password)
    password_hash = await hash_password(password)  # before the transaction: it is slow
    user = User(
        username=shown,
        username_key=key,
        password_hash=password_hash,
        coins=welcome_grant,
        rank_points=0,
    )
    await begin_write(session)
    session.add(user)
    try:
        await session.flush()
        if welcome_grant:
            session.add(
                LedgerEntry(
                    user_id=user.id,
                    asset="coins",
                    delta=welcome_grant,
                    balance_after=welcome_grant,
                    reason=WELCOME_REASON,
                    idempotency_key=f"welcome:{user.id}",
                )
            )
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise Conflict("that username is taken", ErrorCode.USERNAME_TAKEN, username=shown) from None
    return user


async def check_credentials(session: AsyncSession, *, username: str, password: str) -> User | None:
    """The account for these credentials, or None; callers must not say which part was wrong.  (A session
    token is checked by ``app.services.sessions.authenticate``.)"""
    try:
        _, key = canonical_username(username)
    except InvalidInput:
        key = None
    user = None
    if key is not None:
        user = await session.scalar(select(User).where(User.username_key == key))
    await session.commit()  # argon2 runs outside any transaction (issue 9: it held SQLite's write lock)
    # Always verify (against a dummy hash when there is no such user) so timing reveals nothing.
    ok = await verify_password(password, user.password_hash if user else None)
    return user if ok else None


async def get_user(session: AsyncSession, *, user_id: int) -> User | None:
    return await session.get(User, user_id)


async def get_user_by_username(session: AsyncSession, *, username: str) -> User | None:
    try:
        _, key = canonical_username(username)
    except InvalidInput:
        return None
    return await session.scalar(select(User).where(User.username_key == key))


async def set_language(session: AsyncSession, *, user_id: int, language: Language | None) -> User:
    """Remember the client language (简体 / 繁體 / English) on the account; None forgets it.

    Only the ``language`` column is written, so a concurrent settlement's coins are never overwritten.
    """
    if language is not None and language not in LANGUAGES:
        raise InvalidInput(f"language must be one of {', '.join(LANGUAGES)}", field="language",
                           reason="choices", choices=list(LANGUAGES))
    await begin_write(session)
    await session.execute(update(User).where(User.id == user_id).values(language=language))
    await session.commit()
    user = await session.get(User, user_id, populate_existing=True)
    if user is None:
        raise NotFound("no such user", ErrorCode.USER_NOT_FOUND, user_id=user_id)
    return user


async def change_password(session: AsyncSession, *, user: User, current: str, new: str) -> None:
    """Set a new password after checking the current one (Forbidden ``wrong_password`` otherwise).  The
    caller ends the account's other sessions (app.services.sessions.revoke)."""
    check_password(new)
    await session.commit()  # argon2 runs outside any transaction
    if not await verify_password(current, user.password_hash):
        raise Forbidden("the current password is wrong", ErrorCode.WRONG_PASSWORD)
    password_hash = await hash_password(new)
    await begin_write(session)
    await session.execute(update(User).where(User.id == user.id).values(password_hash=password_hash))
    await session.commit()
