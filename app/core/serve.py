"""Serving with uvicorn, and draining on SIGTERM (``python -m app``).

uvicorn's own shutdown closes every WebSocket with 1012 and says nothing first.  ``DrainingServer`` drains
the app before that: it stops accepting connections, calls ``ProcessRuntime.drain`` (no new tables or seats;
``server_restarting`` to the lobby and every seat; sockets closed with 1001; the journal keeps every hand),
then lets uvicorn finish.  A watchdog ends the process if all that takes longer than
``Settings.shutdown_seconds``: exiting in bounded time matters more than a tidy exit, since the journal
already holds everything a restart needs.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from types import FrameType
from typing import Any

import uvicorn

from app.core.config import Settings

log = logging.getLogger(__name__)
WATCHDOG_EXIT = 70  # the exit status when the watchdog had to end the process
# The WebSocket layer, declared once: ``serve`` runs it and bench/server_bench.py measures it.  No
# permessage-deflate (uvicorn's default is on): a table's frames are small JSON (a few hundred bytes; a snapshot
# a few KB), and each compressed socket keeps its own zlib state for its whole life (~70 KiB at websockets' defaults:
# the memory that made engine.io turn it off by default, and uvicorn discussion #1900), plus a compression per
# frame on the table's event loop; its CPU cost did not show above the noise at production pace
# (bench/results/throughput.md, issue 36), the memory grows with every socket.
WS_OPTIONS: dict[str, Any] = {
    "ws": "websockets-sansio",
    "ws_max_size": 64 * 1024,  # no legitimate client message comes near this
    "ws_per_message_deflate": False,
}


def find_fastapi_app(app: Any) -> Any:
    """The FastAPI app inside uvicorn's middleware wrappers (each keeps the next one in ``.app``)."""
    seen = 0
    while app is not None and not hasattr(app, "state") and seen < 20:
        app = getattr(app, "app", None)
        seen += 1
    return app


class DrainingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, settings: Settings) -> None:
        super().__init__(config)
        self.settings = settings
        self._watchdog: threading.Timer | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig == signal.SIGTERM and self._watchdog is None:
            self._watchdog = threading.Timer(self.settings.shutdown_seconds, os._exit, (WATCHDOG_EXIT,))
            self._watchdog.daemon = True
            self._watchdog.start()
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()  # no new connections while draining
        app = find_fastapi_app(self.config.loaded_app)
        runtime = getattr(getattr(app, "state", None), "table_runtime", None)
        if runtime is not None and hasattr(runtime, "drain"):
            try:
                await runtime.drain(self.settings.restart_pause_seconds, self.settings.shutdown_seconds / 2)
            except Exception:
                log.exception("draining the tables failed; the journal still resumes them at the next start")
        await super().shutdown(sockets)


def serve(settings: Settings) -> None:
    config = uvicorn.Config(
        "app.main:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,  # the proxy only, never "*" (Settings)
        **WS_OPTIONS,
        timeout_graceful_shutdown=max(1, int(settings.shutdown_seconds / 4)),
    )
    DrainingServer(config, settings).run()
