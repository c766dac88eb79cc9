"""Issue 9 items 5 and 7: WebSocket refusals arrive as the documented close codes, a socket closes when
its token expires, and open sockets are capped per account and per address.

The original attack, reproduced over a real socket (uvicorn on loopback): a missing, forged or expired
token, another table's seat and an unknown table all got an HTTP 403 at the handshake, which a browser
cannot tell apart; the docs promised 1008 / 4003 / 4004.
"""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest
import uvicorn
import websockets
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.tables.protocol.close_codes import CLOSE_CODES
from tests.app.conftest import PASSWORD, bearer, end_session_in
from tests.app.support.table_harness import Closed, SeatClient, harness, is_type


@contextlib.asynccontextmanager
async def _server(settings):
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


async def _close_code(url: str, token: str | None = None) -> int:
    """The close code the server sends; an HTTP rejection of the handshake fails the test."""
    async with websockets.connect(url, open_timeout=20, additional_headers=bearer(token) if token else None) as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 20)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


async def test_refusals_are_close_codes_after_the_handshake(settings):
    async with _server(settings) as port:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base) as http:
            tokens = {}
            for name in ("ann", "ben", "cal", "dan"):
                body = (await http.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
                tokens[name] = (body["user"]["id"], body["access_token"])
            headers = {n: {"Authorization": f"Bearer {t}"} for n, (_, t) in tokens.items()}
            table_id = (await http.post("/api/rooms/beginner/tables", json={"variant": "tiantai"},
                                        headers=headers["ann"])).json()["id"]
            for name in ("ben", "cal"):
                assert (await http.post(f"/api/tables/{table_id}/sit", headers=headers[name])).status_code == 200
            await http.post("/api/auth/logout", headers=headers["cal"])  # cal's token: a logged-out session
        ws = f"ws://127.0.0.1:{port}"
        cases = [
            (f"{ws}/ws/table/{table_id}", None, 1008),  # no ticket, no token
            (f"{ws}/ws/table/{table_id}", "forged.token", 1008),
            (f"{ws}/ws/table/{table_id}?ticket=forged", None, 1008),
            (f"{ws}/ws/table/{table_id}", tokens["cal"][1], 1008),
            (f"{ws}/ws/table/{table_id}", tokens["dan"][1], 4003),  # not seated here
            (f"{ws}/ws/table/nosuchtable", tokens["ann"][1], 4004),
            (f"{ws}/ws/lobby", "forged.token", 1008),
            (f"{ws}/ws/lobby", tokens["cal"][1], 1008),
        ]
        for url, token, code in cases:
            assert await _close_code(url, token) == code, url
            assert code in CLOSE_CODES  # and documented


def test_a_socket_closes_when_its_session_expires(settings):
    with TestClient(create_app(settings)) as client:
        token = client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD}).json()[
            "access_token"]
        client.portal.call(end_session_in, client.app, token, 1.0)  # one second left
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect("/ws/lobby", headers=bearer(token)) as ws:
            assert ws.receive_json()["type"] == "snapshot"
            ws.receive_json()  # nothing else comes: the close does
        assert closed.value.code == 4401


def test_open_sockets_are_capped_per_account_and_per_address(settings):
    """Lobby sockets were uncapped: one account held 200 open."""
    capped = settings.model_copy(update={"sockets_per_user": 2, "sockets_per_ip": 3})
    with TestClient(create_app(capped)) as client:
        tokens = [client.post("/api/auth/register", json={"username": f"cap{i}", "password": PASSWORD}
                              ).json()["access_token"] for i in range(2)]
        with contextlib.ExitStack() as stack:
            for _ in range(2):
                ws = stack.enter_context(client.websocket_connect("/ws/lobby", headers=bearer(tokens[0])))
                assert ws.receive_json()["type"] == "snapshot"
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect("/ws/lobby", headers=bearer(tokens[0])) as extra:
                extra.receive_json()
            assert refused.value.code == 4029  # the account's cap
            ws = stack.enter_context(client.websocket_connect("/ws/lobby", headers=bearer(tokens[1])))
            assert ws.receive_json()["type"] == "snapshot"
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect("/ws/lobby", headers=bearer(tokens[1])) as extra:
                extra.receive_json()
            assert refused.value.code == 4029  # the address's cap (3 open from testclient)
        # closed sockets no longer count
        with client.websocket_connect("/ws/lobby", headers=bearer(tokens[0])) as ws:
            assert ws.receive_json()["type"] == "snapshot"


async def test_resyncs_and_reconnects_are_capped_per_seat(settings):
    """59 reconnecting sockets were served 5,841 resyncs in 5 s; now each seat gets at most
    ``resyncs_per_window`` snapshots per window (connects included), then errors or a 4029 close."""
    async with harness(settings, resyncs_per_window=4, resync_window_seconds=10) as h:
        players = [await h.register(f"rs{i}") for i in range(3)]
        table_id = await h.coin_table("tiantai", players, rounds=1)
        me = await h.connect(table_id, players[0])  # snapshot 1
        await me.recv_until(is_type("snapshot"))
        for _ in range(3):  # snapshots 2-4
            await me.send({"type": "resync"})
            await me.recv_until(is_type("snapshot"))
        await me.send({"type": "resync"})
        error = await me.recv_until(is_type("error"))
        assert error["code"] == "resync_limited" and error["params"]["retry_after"] >= 1
        again = SeatClient(h.app, f"/ws/table/{table_id}", token=players[0]["token"])
        await again.connect()
        with pytest.raises(Closed) as closed:
            await again.recv_until(is_type("snapshot"))
        assert closed.value.code == 4029
        h.clock.advance(10.5)  # the window passes: served again
        await me.send({"type": "resync"})
        await me.recv_until(is_type("snapshot"))
