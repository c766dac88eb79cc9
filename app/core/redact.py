"""Secrets out of logs: the one place that masks session tokens and socket tickets in log lines.

Browsers open sockets with ``?ticket=`` (single use, seconds long) and old clients may still send
``?token=``; uvicorn logs every request's path with its query string (the access log, and the
``WebSocket /ws/... [accepted]`` lines), in text or JSON.  ``scrub`` masks the values of the secret query
parameters and of ``Bearer`` credentials in any text; ``ScrubSecrets`` is a logging filter that applies it to
a record's message and arguments before any handler formats it, so every format (text, JSON, a future
one) gets the masked line.  ``install_secret_scrubbing`` puts it on uvicorn's loggers; any other logger
that writes URLs (an access-log middleware) should call ``scrub`` or carry the filter.
"""

from __future__ import annotations

import logging
import re

SECRET_PARAMS = ("ticket", "token", "access_token")
MASK = "[redacted]"
_QUERY = re.compile(r"(?i)([?&;](?:" + "|".join(SECRET_PARAMS) + r")=)[^&#\s\"']*")
_BEARER = re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]+")
SCRUBBED_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def scrub(text: str) -> str:
    """``text`` with every secret query parameter's value and every bearer credential masked."""
    return _BEARER.sub(rf"\g<1>{MASK}", _QUERY.sub(rf"\g<1>{MASK}", text))


class ScrubSecrets(logging.Filter):
    """Masks secrets in a record's message and string arguments (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = scrub(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(scrub(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: scrub(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def install_secret_scrubbing(names: tuple[str, ...] = SCRUBBED_LOGGERS) -> None:
    """Put ``ScrubSecrets`` on the named loggers (idempotent)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ScrubSecrets) for f in logger.filters):
            logger.addFilter(ScrubSecrets())
