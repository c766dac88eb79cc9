"""Redis lost mid-run (issue 24): the listing answers from this process, the lobby socket stays up, lease
renewal logs one warning when it starts failing and one when it recovers.

Before: ``GET /api/rooms/{room}/tables`` answered 500, ``/ws/lobby`` dropped with 1006 and lease renewal logged
a traceback every ~1.5 s.  The Redis here is this test's own (``redis_server``), never the shared one.
"""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from app.main import create_app
from tests.app.conftest import PASSWORD
from tests.app.support.table_harness import SeatClient

CLUSTER_LOG = "app.tables.cluster.cluster"


def _lines(caplog: pytest.LogCaptureFixture, needle: str, level: int = logging.WARNING) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level and needle in r.getMessage()]


async def _until(condition, what: str, seconds: float = 30.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def test_losing_redis_mid_run_keeps_listing_and_the_lobby_and_logs_two_lines(settings, redis_server, caplog):
    if settings.is_sqlite:  # the Postgres run of this test is the real one (.ci/run sets TEST_DATABASE_URL)
        pytest.skip("several processes (leases, the directory) need Postgres")
    caplog.set_level(logging.DEBUG, logger=CLUSTER_LOG)
    clustered = settings.model_copy(update={"redis_url": redis_server.url, "cluster": True, "lease_seconds": 0.6,
                                            "takeover_scan_seconds": 0.3, "redis_prefix": f"t{redis_server.port}"})
    app = create_app(clustered)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        body = (await client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})).json()
        alice = {"Authorization": f"Bearer {body['access_token']}"}
        first = (await client.post("/api/rooms/beginner/tables", headers=alice,
                                   json={"variant": "tiantai"})).json()
        lobby = SeatClient(app, "/ws/lobby", token=body["access_token"])
        await lobby.connect()
        assert (await lobby.recv())["type"] == "snapshot"

        redis_server.stop()
        failing = "lease renewal (Redis) is failing"
        await _until(lambda: _lines(caplog, failing), "the renewal warning")
        await _until(lambda: len(_lines(caplog, "lease renewal (Redis) still failing", logging.DEBUG)) >= 3,
                     "three more failed renewals")
        listed = await client.get("/api/rooms/beginner/tables")
        assert listed.status_code == 200 and [t["id"] for t in listed.json()] == [first["id"]]
        await client.post(f"/api/tables/{first['id']}/stand", headers=alice)  # the lobby still hears it
        event = await lobby.recv(timeout=10)
        assert event["type"] in ("table_updated", "table_removed") and event["table"]["id"] == first["id"]
        assert lobby.closed is None

        redis_server.start()  # the same port, empty: leases and the directory are rebuilt
        await _until(lambda: _lines(caplog, "lease renewal (Redis) recovered"), "the recovery line")
        assert len(_lines(caplog, failing)) == 1
        assert len(_lines(caplog, "lease renewal (Redis) recovered")) == 1
        assert not [r for r in caplog.records if r.name == CLUSTER_LOG and r.levelno >= logging.ERROR]
        assert not [r for r in caplog.records if r.exc_info and r.name.startswith(("app.tables", "app.lobby"))]
        await lobby.disconnect()
