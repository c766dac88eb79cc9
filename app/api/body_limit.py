"""The request-body limit (``Settings.max_body_bytes``, docs/settings.md): a bigger body is answered 413
``body_too_large`` before anything reads, parses or validates it.

A pure ASGI middleware, so it counts the bytes as they arrive: a declared ``Content-Length`` over the limit is
refused at once, and a body without one (chunked) is read only until it passes the limit.  The body it has
read (at most the limit) is handed to the app unchanged.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_response
from app.services.errors import ErrorCode


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        messages: list[Message] = []
        size, more = 0, True
        while more:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break  # the client went away: the app hears it as it would have
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        await error_response(ErrorCode.BODY_TOO_LARGE, f"the request body is over {self.max_bytes} bytes",
                             {"maximum": self.max_bytes})(scope, receive, send)
