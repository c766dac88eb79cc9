"""/ws/lobby and the lobby brokers (in-process always; Redis when REDIS_URL is set)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.lobby.broker import LobbyBroker, RedisLobbyBroker
from app.main import create_app
from tests.app.conftest import bearer


def _register(client: TestClient, name: str) -> dict:
    response = client.post("/api/auth/register", json={"username": name, "password": "password1"})
    assert response.status_code == 201
    body = response.json()
    return {"id": body["user"]["id"], "token": body["access_token"],
            "headers": {"Authorization": f"Bearer {body['access_token']}"}}


REDIS_URL = os.environ.get("REDIS_URL")


@pytest.mark.parametrize("fan_out", ["in-process"] + (["redis"] if REDIS_URL else []))
def test_lobby_sends_a_snapshot_then_changes(settings, fan_out):
    if fan_out == "redis":
        settings = settings.model_copy(update={"redis_url": REDIS_URL, "lobby_channel": f"test-{uuid.uuid4()}"})
    with TestClient(create_app(settings)) as client:
        alice, bob = _register(client, "alice"), _register(client, "bob")
        existing = client.post("/api/rooms/beginner/tables", json={"variant": "tiantai"}, headers=alice["headers"])
        with client.websocket_connect("/ws/lobby", headers=bearer(bob["token"])) as ws:
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot"
            assert [t["id"] for t in snapshot["tables"]] == [existing.json()["id"]]

            table_id = existing.json()["id"]
            client.post(f"/api/tables/{table_id}/sit", headers=bob["headers"])
            event = ws.receive_json()
            assert event["type"] == "table_updated" and event["table"]["seats"][1]["user_id"] == bob["id"]

            client.post(f"/api/tables/{table_id}/stand", headers=alice["headers"])
            client.post(f"/api/tables/{table_id}/stand", headers=bob["headers"])
            assert ws.receive_json()["type"] == "table_updated"
            removed = ws.receive_json()
            assert removed["type"] == "table_removed" and removed["table"]["id"] == table_id

            # Practice tables are private: nothing about them reaches the lobby.
            client.post("/api/practice", json={"variant": "taiwan"}, headers=bob["headers"])
            created = client.post("/api/rooms/beginner/tables", json={"variant": "taiwan"}, headers=alice["headers"])
            event = ws.receive_json()
            assert event["type"] == "table_created" and event["table"]["id"] == created.json()["id"]


@pytest.mark.parametrize("query", ["", "?token=", "?token=forged.token.value", "?ticket=", "?ticket=forged",
                                   "?token=REAL"])
def test_lobby_refuses_bad_tokens(settings, query):
    with TestClient(create_app(settings)) as client:
        # A real session token in the URL is refused too: sockets read tickets and headers only (issue 24).
        query = query.replace("REAL", _register(client, "alice")["token"])
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/lobby{query}") as ws:
            ws.receive_json()
        assert refused.value.code == 1008


async def test_broker_fans_out_and_drops_slow_subscribers():
    broker = LobbyBroker(max_queue=2)
    with broker.subscribe() as fast, broker.subscribe() as slow:
        await broker.publish({"n": 1})
        assert await fast.queue.get() == {"n": 1}
        await broker.publish({"n": 2})
        await broker.publish({"n": 3})  # slow now holds 1, 2 and cannot take 3
        assert slow.dropped and not fast.dropped
        assert [e async for e in slow] == [{"n": 2}]  # the oldest made room for the end-of-stream marker
        assert [await fast.queue.get(), await fast.queue.get()] == [{"n": 2}, {"n": 3}]


async def test_broker_stop_ends_subscriptions():
    broker = LobbyBroker()
    with broker.subscribe() as sub:
        await broker.stop()
        assert [e async for e in sub] == []


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL not set")
async def test_redis_broker_reaches_other_processes():
    channel = f"test-lobby-{uuid.uuid4()}"
    one = RedisLobbyBroker(REDIS_URL, channel=channel)
    two = RedisLobbyBroker(REDIS_URL, channel=channel)  # stands in for a second process
    await one.start()
    await two.start()
    try:
        with one.subscribe() as here, two.subscribe() as there:
            await one.publish({"type": "table_created", "table": {"id": "t", "name": "天台"}})
            got = await asyncio.wait_for(asyncio.gather(here.queue.get(), there.queue.get()), timeout=10)
            assert got == [{"type": "table_created", "table": {"id": "t", "name": "天台"}}] * 2
    finally:
        await one.stop()
        await two.stop()
