"""One accepted table socket's life, the same for a seat, a spectator and a link relayed to another process.

A sender task forwards the link's queue (the actor, or the relay, fills it); a reader task consumes what the
client sends; the end of the socket's login session (revoked or expired) closes it with 4401
(app.services.live_sessions).  Whichever ends first ends the
socket: the table (or the owner, through the relay) is told the link left, the link is closed, the reader
is stopped and the sender gets ``FLUSH_SECONDS`` to send what is queued and close the socket with the
link's code.

A table socket sends thousands of frames after its handshake, and each went down every middleware's ``send``
wrapper (the request id's, the access log's, Starlette's exception handler's and its ``WebSocket`` state
checks), none of which looks at a frame: they watch the handshake and the close.  ``ServerSend`` (the
outermost middleware) keeps the server's own ``send`` in the socket's scope, and ``send_outbox`` sends frames
straight to it; the accept and the close still go down the whole stack (issue 36).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Coroutine
from contextlib import AbstractContextManager
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

from app import metrics
from app.lobby.broker import LobbyBroker
from app.services.live_sessions import SessionEnd
from app.tables.play.seats import SeatLink

FLUSH_SECONDS = 5.0  # how long a closing socket may take to send what its link still holds
SERVER_SEND = "mahjong.server_send"  # the scope key ``ServerSend`` keeps the server's ``send`` under


class ServerSend:
    """ASGI middleware, outermost: a socket's scope keeps the server's own ``send`` (``SERVER_SEND``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        await self.app(scope, receive, send)


async def send_outbox(websocket: WebSocket, link: SeatLink, kind: str = "table") -> None:
    """Forward a link's queued messages to its socket until the link is closed, then close the socket
    with the link's code (seats and spectators alike).  Frames go to the server's ``send`` when
    ``ServerSend`` kept it (the socket is accepted by now), else through Starlette's."""
    sent = metrics.MESSAGES_OUT_BY_KIND[kind].inc
    server_send: Send | None = websocket.scope.get(SERVER_SEND)
    while (text := await link.queue.get()) is not None:
        if server_send is None:
            await websocket.send_text(text)
        else:
            await server_send({"type": "websocket.send", "text": text})
        sent()
    await websocket.close(code=link.close_code or 1000, reason=link.close_reason)


def hearing_notices(broker: LobbyBroker, link: SeatLink) -> AbstractContextManager[None]:
    """While open, every notice (公告, ``app.lobby.notices``) delivered in this process is queued on the link,
    so a seat or a spectator hears it like a lobby socket."""
    return broker.hear_notices(lambda notice: link.send(json.dumps(notice, ensure_ascii=False)))


async def serve_link(websocket: WebSocket, link: SeatLink, reader: Coroutine[Any, Any, None], *,
                     left: Callable[[], None], ended: asyncio.Future[SessionEnd], kind: str = "table") -> None:
    """Serve an accepted socket until the client, the link or the session (``ended``: LiveSessions.watch)
    ends it; ``left`` runs once, first, when it ends (a ``Leave`` to the actor, an ``unwatch`` to the owner …).
    ``kind`` (``app.metrics.SOCKET_KINDS``) labels its metrics."""
    metrics.SOCKETS_OPEN_BY_KIND[kind].inc()
    sender = asyncio.create_task(send_outbox(websocket, link, kind))
    helpers = [asyncio.create_task(reader)]
    try:
        waiting: set[asyncio.Future[Any]] = {sender, ended, *helpers}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if ended.done() and not link.closed:
            link.close(*ended.result())
    finally:
        left()
        if not link.closed:
            link.close(1000, "bye")
        for task in helpers:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await task
        with contextlib.suppress(asyncio.TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
            await asyncio.wait_for(sender, FLUSH_SECONDS)
        metrics.SOCKETS_OPEN_BY_KIND[kind].dec()
        metrics.socket_closed(kind, link.close_code)
