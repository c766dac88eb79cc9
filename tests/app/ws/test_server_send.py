"""A socket's frames go straight to the server's ``send`` (``app.ws.serve.ServerSend``), past the middlewares'
wrappers, which only watch the handshake and the close; the close still goes down the whole stack."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.tables.play.seats import SeatLink
from app.ws.serve import SERVER_SEND, ServerSend, send_outbox

pytestmark = pytest.mark.asyncio


class _Socket:
    """What ``send_outbox`` uses of Starlette's ``WebSocket``: its scope, ``send_text`` and ``close``."""

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope
        self.through_starlette: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.through_starlette.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def _link_with(*texts: str) -> SeatLink:
    link = SeatLink(16)
    for text in texts:
        link.send(text)
    link.close(4001, "replaced by a newer connection")
    return link


async def test_frames_go_to_the_kept_server_send_and_the_close_through_starlette():
    server: list[dict[str, Any]] = []

    async def server_send(message: dict[str, Any]) -> None:
        server.append(message)

    socket = _Socket({"type": "websocket", SERVER_SEND: server_send})
    await asyncio.wait_for(send_outbox(socket, _link_with("a", "b")), 5)  # type: ignore[arg-type]
    assert server == [{"type": "websocket.send", "text": "a"}, {"type": "websocket.send", "text": "b"}]
    assert socket.through_starlette == []
    assert socket.closed == (4001, "replaced by a newer connection")


async def test_without_a_kept_send_frames_go_through_starlette():
    socket = _Socket({"type": "websocket"})
    await asyncio.wait_for(send_outbox(socket, _link_with("a", "b")), 5)  # type: ignore[arg-type]
    assert socket.through_starlette == ["a", "b"]
    assert socket.closed == (4001, "replaced by a newer connection")


@pytest.mark.parametrize("kind", ["websocket", "http", "lifespan"])
async def test_the_middleware_keeps_the_send_of_sockets_only(kind):
    seen: dict[str, Any] = {}

    async def inner(scope, receive, send):
        seen.update(scope)

    async def server_send(message):
        pass

    async def receive():
        return {}

    await ServerSend(inner)({"type": kind}, receive, server_send)
    assert seen["type"] == kind
    assert (seen.get(SERVER_SEND) is server_send) == (kind == "websocket")


async def test_the_app_keeps_the_send_outside_every_middleware_that_wraps_it(settings):
    """Outside ``RequestIds`` and ``HttpMetrics``: what it keeps is the server's own ``send``."""
    from app.main import create_app

    layers = []
    layer: Any = create_app(settings).build_middleware_stack()
    while hasattr(layer, "app"):
        layers.append(type(layer).__name__)
        layer = layer.app
    # every middleware of ours that wraps ``send`` sits inside it
    assert layers.index("ServerSend") < min(layers.index(n) for n in ("RequestIds", "HttpMetrics"))
