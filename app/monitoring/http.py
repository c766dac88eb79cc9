"""Every HTTP request timed and counted by route template, method and status class, and (with
``LOG_FORMAT=json``) one JSON access-log line per request and one per socket (when it ends: its handshake
status, close code and duration), without its query string.  Each line carries the request's id and the
account it authenticated as (``request_id``, ``user_id``: ``app.core.request_ids``).

A pure ASGI middleware, outermost: it sees the status the client got, and after routing it reads the route
Starlette matched (``scope["route"]``) — its template, never the raw path, so the label set stays bounded.
The access line carries the path only: query strings hold tokens and tickets (``/ws/table/…?ticket=``).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics
from app.api.gate import client_host
from app.core import request_ids
from app.core.redact import scrub

access_log = logging.getLogger("app.access")
_METHODS = frozenset(metrics.METHODS)


def route_template(scope: Scope, status: int) -> str:
    """The matched route's template (``/api/tables/{table_id}``), ``static`` for the web client's files,
    ``unmatched`` when nothing matched."""
    route = scope.get("route")
    if isinstance(route, Mount):
        return "static"
    path = getattr(route, "path", None)
    if isinstance(path, str) and path:
        return path
    return "static" if status < 400 and scope.get("type") == "http" else "unmatched"


class HttpMetrics:
    """Times and counts each HTTP request; logs each request and socket handshake as JSON when asked."""

    def __init__(self, app: ASGIApp, *, log_access: bool = False) -> None:
        self.app = app
        self.log_access = log_access
        # (route, method, class) → bound children: a request pays a dict lookup, not a label lookup
        self.children: dict[tuple[str, str, str], tuple[Any, Any]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.log_access:
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            seconds = time.perf_counter() - started
            self.count(scope, status, seconds)
            if self.log_access:
                access_log.info("request", extra=_access(scope, status, seconds))

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One line per socket when it ends (uvicorn's own plain lines for it are dropped: ``app.logs``):
        101 once accepted, else the refusal's status (403 closed before accepting), and the close code."""
        started = time.perf_counter()
        status: int | None = None
        close_code: int | None = None

        async def watch_send(message: Message) -> None:
            nonlocal status, close_code
            if message["type"] == "websocket.accept":
                status = 101
            elif message["type"] == "websocket.close":
                status = status or 403
                close_code = close_code or message.get("code", 1000)
            elif message["type"] == "websocket.http.response.start":
                status = message["status"]
            await send(message)

        async def watch_receive() -> Message:
            nonlocal close_code
            message = await receive()
            if message["type"] == "websocket.disconnect":
                close_code = close_code or message.get("code", 1005)
            return message

        try:
            await self.app(scope, watch_receive, watch_send)
        finally:
            fields = _access(scope, status or 500, time.perf_counter() - started)
            access_log.info("websocket", extra={**fields, "close_code": close_code})

    def count(self, scope: Scope, status: int, seconds: float) -> None:
        method = scope["method"] if scope["method"] in _METHODS else "other"
        key = (route_template(scope, status), method, f"{min(max(status // 100, 1), 5)}xx")
        children = self.children.get(key)
        if children is None:
            children = self.children[key] = (metrics.HTTP_SECONDS.labels(key[0], method),
                                             metrics.HTTP_RESPONSES.labels(*key))
        children[0].observe(seconds)
        children[1].inc()


def _access(scope: Scope, status: int, seconds: float | None) -> dict[str, Any]:
    """The access line's fields: no query string (it may carry a token or a ticket), no headers, and the path
    through ``app.core.redact.scrub`` (a ``;token=`` path parameter is masked too)."""
    context = request_ids.current.get()
    fields: dict[str, Any] = {"method": scope.get("method", "WS"), "path": scrub(scope.get("path") or ""),
                              "status": status,
                              "client": client_host(scope),
                              "user_id": context.user_id if context is not None else None}
    if seconds is not None:
        fields["duration_ms"] = round(seconds * 1000, 2)
    return fields
