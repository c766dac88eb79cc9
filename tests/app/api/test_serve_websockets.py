"""The WebSocket layer the product serves is the one bench/server_bench.py measures (app.core.serve.WS_OPTIONS,
issue 36): uvicorn's sans-I/O protocol with no permessage-deflate, even for a client that offers it."""

from __future__ import annotations

import asyncio

import uvicorn
import websockets

from app.core import serve
from app.core.config import Settings


def test_the_server_runs_the_declared_websocket_options(no_env_settings, monkeypatch) -> None:
    seen: list[uvicorn.Config] = []
    monkeypatch.setattr(serve.DrainingServer, "run", lambda self, *a, **k: seen.append(self.config))
    serve.serve(Settings(_env_file=None))  # type: ignore[call-arg]
    config = seen[0]
    assert (config.ws, config.ws_max_size, config.ws_per_message_deflate) == (
        serve.WS_OPTIONS["ws"], serve.WS_OPTIONS["ws_max_size"], serve.WS_OPTIONS["ws_per_message_deflate"])


async def _echo(scope, receive, send) -> None:  # noqa: ANN001  # a bare ASGI app: accept, echo one message
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    message = await receive()
    await send({"type": "websocket.send", "text": message.get("text", "")})
    await receive()


async def test_a_client_offering_deflate_gets_uncompressed_frames() -> None:
    config = uvicorn.Config(_echo, host="127.0.0.1", port=0, log_level="warning", lifespan="off",
                            **serve.WS_OPTIONS)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        async with websockets.connect(f"ws://127.0.0.1:{port}/", compression="deflate") as client:
            assert client.response is not None
            assert "Sec-WebSocket-Extensions" not in client.response.headers  # deflate offered, not taken
            await client.send("東南西北" * 100)
            assert await asyncio.wait_for(client.recv(), 10) == "東南西北" * 100
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)
