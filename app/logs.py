"""Structured logs: with ``LOG_FORMAT=json`` every log record is one JSON line.

Fields: ``ts`` (ISO, UTC), ``level``, ``logger``, ``event`` (the message) and, when the call passes them
as ``extra``, the ids of ``CONTEXT_FIELDS`` — so one hand's lines can be found by its table and hand, one
operator's acts by ``actor_id``.  Every line a request or socket causes carries its ``request_id``
(``app.core.request_ids``: the ``X-Request-ID`` it came with or was given).  Access lines (logger
``app.access``, written by ``app.monitoring.http``) carry ``method``, ``path`` (never the query string),
``status``, ``duration_ms``, ``client`` and the authenticated ``user_id``; a socket's one line, written when it
ends, its ``close_code`` too.  uvicorn's own access log, which prints query strings, is off then, and so are
its plain lines per socket (``"WebSocket /path" [accepted]``, ``connection open`` / ``closed``).  ``exc``
carries a traceback when there is one.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from app.core.request_ids import RequestIdFilter

CONTEXT_FIELDS = ("request_id", "actor_id", "user_id", "tournament_id", "table_id", "hand_no", "hand_id", "game_id",
                  "action", "state", "code", "reason", "method", "path", "status", "close_code", "duration_ms",
                  "client")
# uvicorn's plain lines about each socket (uvicorn.protocols.websockets, and the websockets library under the
# same logger): replaced in JSON mode by the socket's one access line.
UVICORN_SOCKET_LINES = frozenset({'%s - "WebSocket %s" [accepted]', '%s - "WebSocket %s" 403',
                                  '%s - "WebSocket %s" %d', "connection open", "connection closed"})


class UvicornSocketLines(logging.Filter):
    """Drops uvicorn's plain per-socket lines (``UVICORN_SOCKET_LINES``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in UVICORN_SOCKET_LINES


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def use_json_logs(level: int = logging.INFO) -> None:
    """Route every logger (ours, uvicorn's) to one stderr handler writing JSON lines.  Idempotent."""
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    root.handlers = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").disabled = True  # app.access replaces it, without query strings
    logging.getLogger("uvicorn.error").addFilter(UvicornSocketLines())  # a socket's access line replaces them
