"""Before serving: can the server reach what its settings name?  One clear line if not.

A wrong ``DATABASE_URL``, a database that does not exist, a closed Postgres port or a Redis that is down
used to end ``python -m app`` with 75-186 lines of traceback, the cause somewhere inside (issue 24).
``check_services`` tries each service once, briefly, and raises ``StartupError`` naming the setting and
the cause; ``python -m app`` prints that one line and exits with ``EXIT_CONFIG`` (``DEBUG=true`` shows
the traceback instead).  Settings that do not validate are reported the same way (``settings_error``).
"""

from __future__ import annotations

import asyncio
import socket

from pydantic import ValidationError
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.core.config import Settings
from app.core.db import make_engine

EXIT_CONFIG = 78  # EX_CONFIG (sysexits.h): the configuration is wrong
CONNECT_SECONDS = 10.0


class StartupError(Exception):
    """The server cannot start: ``setting`` (its environment name) and a one-line ``cause``."""

    def __init__(self, setting: str, cause: str) -> None:
        super().__init__(f"{setting}: {cause}")
        self.setting, self.cause = setting, cause


def describe(exc: BaseException) -> str:
    """A one-line cause: the deepest exception's message (drivers wrap theirs), never a traceback."""
    while exc.__cause__ is not None or (exc.__context__ is not None and not exc.__suppress_context__):
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    if isinstance(exc, TimeoutError):
        return f"no answer within {CONNECT_SECONDS:.0f} s"
    if isinstance(exc, socket.gaierror):
        return f"unknown host ({exc.strerror})"
    message = " ".join(str(exc).split()) or type(exc).__name__
    return message if len(message) <= 300 else message[:297] + "..."


def settings_error(exc: ValidationError) -> StartupError:
    """The first invalid setting of a pydantic ValidationError, named as its environment variable."""
    first = exc.errors()[0]
    name = "_".join(str(part) for part in first["loc"]).upper() or "settings"
    return StartupError(name, first["msg"])


async def check_database(settings: Settings) -> None:
    try:
        url = make_url(settings.database_url)
        engine = make_engine(settings.database_url)
    except Exception as exc:
        raise StartupError("DATABASE_URL", f"not a usable database URL ({describe(exc)})") from exc
    shown = url.render_as_string(hide_password=True)
    try:
        async with asyncio.timeout(CONNECT_SECONDS), engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception as exc:
        raise StartupError("DATABASE_URL", f"cannot use {shown}: {describe(exc)}") from exc
    finally:
        await engine.dispose()


async def check_redis(settings: Settings) -> None:
    if not settings.redis_url:
        return
    redis = Redis.from_url(settings.redis_url, socket_connect_timeout=CONNECT_SECONDS)
    try:
        async with asyncio.timeout(CONNECT_SECONDS):
            await redis.ping()
    except Exception as exc:
        shown = make_url(settings.redis_url).render_as_string(hide_password=True) if "://" in settings.redis_url \
            else settings.redis_url
        raise StartupError("REDIS_URL", f"cannot reach Redis at {shown}: {describe(exc)}") from exc
    finally:
        await redis.aclose()


async def check_services(settings: Settings) -> None:
    """Raise StartupError for the first service the settings name that cannot be used."""
    await check_database(settings)
    await check_redis(settings)
