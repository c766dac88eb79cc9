"""Each request's id (X-Request-ID), to tie a failure to the request that caused it (issue 35 item 7).

A request or socket brings its own id in ``X-Request-ID`` (at most ``REQUEST_ID_MAX`` letters, digits, ``-``
and ``_``; anything else is replaced) or gets a new one; the response (a socket's handshake too) returns it
in the same header (``app.api.request_ids.RequestIds``).  While the request runs, ``current`` holds its
``RequestContext``; ``RequestIdFilter`` writes its id on every log record made meanwhile (the JSON log's
``request_id``), and the account the request authenticated as is noted for its access line (``note_user``).
"""

from __future__ import annotations

import logging
import re
import secrets
from contextvars import ContextVar
from dataclasses import dataclass

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_MAX = 64
_VALID = re.compile(rf"[A-Za-z0-9_-]{{1,{REQUEST_ID_MAX}}}")


@dataclass
class RequestContext:
    """The request being served: its id, and the account it authenticated as (once known)."""

    request_id: str
    user_id: int | None = None


current: ContextVar[RequestContext | None] = ContextVar("request_context", default=None)


def request_id_of(given: str | None) -> str:
    """The client's id if it is a valid one, else a new one (32 hex digits)."""
    if given is not None and _VALID.fullmatch(given):
        return given
    return secrets.token_hex(16)


def note_user(user_id: int) -> None:
    """The request authenticated as this account (its access line names it)."""
    context = current.get()
    if context is not None:
        context.user_id = user_id


class RequestIdFilter(logging.Filter):
    """Writes the current request's id on each record (``record.request_id``), unless it has one."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = current.get()
        if context is not None and getattr(record, "request_id", None) is None:
            record.request_id = context.request_id
        return True
