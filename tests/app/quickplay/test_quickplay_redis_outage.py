"""Quick play with its Redis restarted or lost (chaos suite of issue 27, issues 23/24/25).

Before: the first queue request after a Redis restart answered 500 ``internal`` (a dead pooled connection),
requests with Redis away answered 500 too, and the matcher logged a traceback every wave.  Now a dead pooled
connection is retried once, a lost Redis is a coded 503 that changes nothing, and the matcher logs one warning
when Redis starts failing and one when it is back.  The Redis here is this test's own (``redis_server``).
"""

from __future__ import annotations

import logging

import httpx
import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from app.main import create_app
from tests.app.conftest import PASSWORD
from tests.app.tables.cluster.test_redis_outage import _until  # the same wait on a condition (not a sleep)

MATCHER_LOG = "app.quickplay.matcher"


def _warnings(caplog: pytest.LogCaptureFixture, needle: str) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == MATCHER_LOG and r.levelno == logging.WARNING and needle in r.getMessage()]


async def test_queue_routes_survive_a_redis_restart_and_answer_503_while_it_is_away(settings, redis_server, caplog):
    caplog.set_level(logging.DEBUG, logger=MATCHER_LOG)
    with_redis = settings.model_copy(update={"redis_url": redis_server.url, "quickplay_wave_seconds": 0.1,
                                             "quickplay_lease_seconds": 1.0,
                                             "redis_prefix": f"t{redis_server.port}"})
    app = create_app(with_redis)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        body = (await client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})).json()
        alice = {"Authorization": f"Bearer {body['access_token']}"}
        queue = "/api/rooms/beginner/queue"
        assert (await client.post(queue, headers=alice, json={"variant": "tiantai"})).status_code == 202
        assert (await client.delete(queue, headers=alice)).status_code == 200

        # Restarted: the pooled connections are dead; the first request still gets its answer.
        redis_server.stop()
        redis_server.start()
        joined = await client.post(queue, headers=alice, json={"variant": "tiantai"})
        assert joined.status_code == 202, joined.text
        assert (await client.delete(queue, headers=alice)).status_code == 200
        # A wave may have hit the restart's window (the machine is slow): let its outage end, then count afresh.
        await _until(lambda: len(_warnings(caplog, "is failing")) == len(_warnings(caplog, "recovered")),
                     "the restart's outage, if a wave saw one, to end")
        caplog.clear()

        redis_server.stop()
        await _until(lambda: _warnings(caplog, "is failing"), "the matcher's outage warning")
        for method, url, kwargs in (("POST", queue, {"json": {"variant": "tiantai"}}), ("DELETE", queue, {}),
                                    ("GET", "/api/me/queue", {})):
            refused = await client.request(method, url, headers=alice, **kwargs)
            assert refused.status_code == 503, (method, refused.text)
            assert refused.json()["code"] == "queue_unavailable"
        # Nothing changed: the refused join took no commitment.
        assert await app.state.matcher.quickplay.commitments.current(body["user"]["id"]) is None
        await _until(lambda: len([r for r in caplog.records if r.name == MATCHER_LOG
                                  and "still failing" in r.getMessage()]) >= 3, "three more failed waves")

        redis_server.start()
        await _until(lambda: _warnings(caplog, "recovered"), "the matcher's recovery line")
        status = await client.get("/api/me/queue", headers=alice)
        assert status.status_code == 200 and status.json()["queued"] is False
        assert len(_warnings(caplog, "is failing")) == 1
        assert len(_warnings(caplog, "recovered")) == 1
        assert not [r for r in caplog.records if r.name.startswith("app.quickplay") and r.levelno >= logging.ERROR]


async def test_a_join_the_store_fails_midway_gives_its_commitment_back(client, player, app, monkeypatch):
    alice = await player("alice")
    commitments, store = app.state.matcher.quickplay.commitments, app.state.matcher.store

    async def lost(entry):  # noqa: ANN001 - Redis dies after the commitment was taken
        raise RedisConnectionError("Connection closed by server.")

    monkeypatch.setattr(store, "add", lost)
    refused = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json={"variant": "taiwan"})
    assert refused.status_code == 503 and refused.json()["code"] == "queue_unavailable"
    assert await commitments.current(alice.id) is None
    monkeypatch.undo()
    joined = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json={"variant": "taiwan"})
    assert joined.status_code == 202, joined.text
    assert await commitments.current(alice.id) == ("queue", "beginner:taiwan:1")  # the default pool: one 圈
