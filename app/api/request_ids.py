"""The ASGI middleware that gives every request and socket its id (``app.core.request_ids``): taken from
``X-Request-ID`` when valid, else made; held in the request's context while the app serves it; returned in the
response's (or the socket handshake's) ``X-Request-ID`` header.  Outermost, so the access line and every other
log line of the request carry it."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.request_ids import REQUEST_ID_HEADER, RequestContext, current, request_id_of

_HEADER = REQUEST_ID_HEADER.lower().encode()
_STARTS = frozenset({"http.response.start", "websocket.accept", "websocket.http.response.start"})


class RequestIds:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(Headers(scope=scope).get(REQUEST_ID_HEADER))
        token = current.set(RequestContext(request_id))

        async def send_with_id(message: Message) -> None:
            if message["type"] in _STARTS:
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != _HEADER]
                message = {**message, "headers": [*headers, (_HEADER, request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            current.reset(token)
