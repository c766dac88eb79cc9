"""Structured logs: with ``LOG_FORMAT=json`` every log record is one JSON line.

Fields: ``ts`` (ISO, UTC), ``level``, ``logger``, ``event`` (the message) and, when the call passes them
as ``extra``, ``table_id``, ``hand_no``, ``hand_id``, ``tournament_id``, ``user_id`` and ``code`` — so one
hand's lines can be found by its table and hand.  ``exc`` carries a traceback when there is one.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

CONTEXT_FIELDS = ("table_id", "hand_no", "hand_id", "game_id", "tournament_id", "user_id", "code", "reason")


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
