"""Issue 35 item 7: every request and socket has an id (X-Request-ID: the client's when valid, else a new one),
returned in the response or the socket's handshake, and on every log line the request causes; access lines
name the account; in JSON mode a socket is one structured line, not uvicorn's plain ones."""

from __future__ import annotations

import json
import logging
import re

import httpx
import pytest

from app.api.request_ids import RequestIds
from app.core.request_ids import REQUEST_ID_MAX, RequestIdFilter, note_user, request_id_of
from app.logs import JsonFormatter, UvicornSocketLines
from app.main import create_app
from app.monitoring.http import HttpMetrics
from tests.app.conftest import PASSWORD

NEW_ID = re.compile(r"[0-9a-f]{32}")


@pytest.mark.parametrize("given", ["a" * (REQUEST_ID_MAX + 1), "bad id!", "", "naïve", "id\n", "a;b", None])
def test_an_invalid_or_missing_id_is_replaced(given) -> None:
    made = request_id_of(given)
    assert NEW_ID.fullmatch(made) and made != request_id_of(given)  # new each time


@pytest.mark.parametrize("given", ["a", "A-b_9", "x" * REQUEST_ID_MAX, "0f9e2c41-6b0d-4f6a-9f1e-1b7e0c2d9a11"])
def test_a_valid_id_is_kept(given) -> None:
    assert request_id_of(given) == given


async def test_every_response_returns_the_id(client, player) -> None:
    alice = await player("rid_alice")
    kept = await client.get("/api/me", headers={**alice.headers, "X-Request-ID": "trace-42_a"})
    assert kept.status_code == 200 and kept.headers["x-request-id"] == "trace-42_a"
    replaced = await client.get("/api/me", headers={**alice.headers, "X-Request-ID": "no spaces allowed"})
    assert NEW_ID.fullmatch(replaced.headers["x-request-id"])
    made = await client.get("/api/nowhere")
    assert made.status_code == 404 and NEW_ID.fullmatch(made.headers["x-request-id"])
    refused = await client.get("/api/me", headers={"X-Request-ID": "who-am-i"})
    assert refused.status_code == 401 and refused.headers["x-request-id"] == "who-am-i"


async def test_the_lines_a_request_causes_carry_its_id(client, player, caplog) -> None:
    caplog.handler.addFilter(RequestIdFilter())  # as on the JSON handler (app.logs.use_json_logs)
    caplog.set_level(logging.INFO, logger="app.acts")
    boss, bob = await player("rid_boss", role="admin"), await player("rid_bob")
    caplog.clear()
    response = await client.post(f"/api/admin/users/{bob.id}/freeze", json={"frozen": True, "reason": "test"},
                                 headers={**boss.headers, "X-Request-ID": "freeze-7"})
    assert response.status_code == 200, response.text
    [act] = [r for r in caplog.records if r.name == "app.acts"]
    assert json.loads(JsonFormatter().format(act))["request_id"] == "freeze-7"


async def test_json_access_lines_name_the_account_and_the_request(settings, monkeypatch, caplog) -> None:
    monkeypatch.setattr("app.main.use_json_logs", lambda: None)  # not the whole test process's logging
    app = create_app(settings.model_copy(update={"log_format": "json"}))
    caplog.handler.addFilter(RequestIdFilter())
    caplog.set_level(logging.INFO, logger="app.access")
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        registered = await client.post("/api/auth/register", json={"username": "rid_carol", "password": PASSWORD})
        assert registered.status_code == 201, registered.text
        token = registered.json()["access_token"]
        caplog.clear()
        await client.get("/api/me", headers={"Authorization": f"Bearer {token}", "X-Request-ID": "me-1"})
    [line] = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == "app.access"]
    assert (line["path"], line["status"], line["request_id"], line["user_id"]) == (
        "/api/me", 200, "me-1", registered.json()["user"]["id"])


async def test_a_socket_is_one_line_with_its_id_account_and_close_code(caplog) -> None:
    caplog.handler.addFilter(RequestIdFilter())
    caplog.set_level(logging.INFO, logger="app.access")
    caplog.set_level(logging.INFO, logger="app.ws")
    sent: list[dict] = []

    async def socket_app(scope, receive, send):
        note_user(31)
        logging.getLogger("app.ws").info("serving")  # a line the socket causes
        await send({"type": "websocket.accept"})
        await receive()
        await send({"type": "websocket.close", "code": 4005})

    async def receive():
        return {"type": "websocket.receive", "text": "{}"}

    async def send(message):
        sent.append(message)

    stack = RequestIds(HttpMetrics(socket_app, log_access=True))
    scope = {"type": "websocket", "path": "/ws/lobby", "query_string": b"ticket=t", "client": ("10.0.0.2", 9),
             "headers": [(b"x-request-id", b"sock-9")]}
    await stack(scope, receive, send)
    assert (b"x-request-id", b"sock-9") in sent[0]["headers"]  # returned in the handshake
    lines = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name in ("app.access", "app.ws")]
    assert [line["event"] for line in lines] == ["serving", "websocket"]
    assert lines[0]["request_id"] == "sock-9"
    assert {k: lines[1][k] for k in ("path", "status", "close_code", "user_id", "request_id")} == {
        "path": "/ws/lobby", "status": 101, "close_code": 4005, "user_id": 31, "request_id": "sock-9"}


def test_uvicorns_plain_socket_lines_are_dropped_in_json_mode() -> None:
    keep = UvicornSocketLines()

    def record(msg, *args):
        return logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, msg, args, None)

    assert not keep.filter(record('%s - "WebSocket %s" [accepted]', "1.2.3.4:5", "/ws/lobby?ticket=x"))
    assert not keep.filter(record("connection open"))
    assert not keep.filter(record("connection closed"))
    assert keep.filter(record("Started server process [%d]", 7))
