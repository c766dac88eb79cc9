"""Structured logs: with ``LOG_FORMAT=json`` every log record is one JSON line.

Fields: ``ts`` (ISO, UTC), ``level``, ``logger``, ``event`` (the message) and, when the call passes them
as ``extra``, the ids of ``CONTEXT_FIELDS`` — so one hand's lines can be found by its table and hand, one
operator's acts by ``actor_id``.  Access lines (logger ``app.access``, written by ``app.monitoring.http``) carry
``method``, ``path`` (never the query string), ``status``, ``duration_ms`` and ``client``; uvicorn's own access
log, which prints query strings, is off then.  ``exc`` carries a traceback when there is one.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

CONTEXT_FIELDS = ("actor_id", "user_id", "tournament_id", "table_id", "hand_no", "hand_id", "game_id", "action",
                  "state", "code", "reason", "method", "path", "status", "duration_ms", "client")


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
    root.handlers = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").disabled = True  # app.access replaces it, without query strings
