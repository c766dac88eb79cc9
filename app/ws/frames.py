"""Quiet refusals of broken WebSocket frames: any client can send them, so they must not flood the log.

uvicorn closes a socket that sends a text frame of invalid UTF-8 with 1007 (right), but logs each one at
ERROR with a traceback (issue 24: one client, a log full of tracebacks).  ``QuietFrameErrors`` is a
logging filter on ``uvicorn.error`` that turns that record into a count
(``mahjong_ws_frame_errors_total{kind="invalid_utf8"}``) and, only when debug logging is on, one
DEBUG line without the traceback.
"""

from __future__ import annotations

import logging

from app.metrics import INVALID_UTF8_FRAMES

# The message uvicorn's WebSocket protocols log for a text frame that is not UTF-8.
UVICORN_INVALID_UTF8 = "Invalid UTF-8 sequence received from client."


class QuietFrameErrors(logging.Filter):
    def __init__(self) -> None:
        super().__init__()
        self.invalid_utf8 = 0  # this filter's own count, for the debug line (the metric is process-wide)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != UVICORN_INVALID_UTF8:
            return True
        INVALID_UTF8_FRAMES.inc()
        self.invalid_utf8 += 1
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.msg, record.args = "invalid UTF-8 text frame from a client; closed 1007 (%d so far)", (self.invalid_utf8,)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_frame_errors() -> None:
    """Install ``QuietFrameErrors`` on uvicorn's error logger (idempotent)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietFrameErrors) for f in logger.filters):
        logger.addFilter(QuietFrameErrors())
