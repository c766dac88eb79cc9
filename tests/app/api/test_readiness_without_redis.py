"""Issue 34: readiness beside liveness, and what answers while Redis is away.

``/healthz`` says the process runs (never a dependency's outage: that would get it restarted for nothing);
``/readyz`` checks the database and the configured Redis and names each; ``mahjong_redis_unreachable`` follows it.
Routes whose data lives in the database (``/api/me``, sessions, listings, history) answer without Redis.
The Redis here is this test's own (``redis_server``), never the shared one.
"""

from __future__ import annotations

import httpx
import pytest

from app.main import create_app
from tests.app.conftest import PASSWORD
from tests.app.support.metrics_scrape import samples


async def test_readyz_names_redis_and_routes_on_the_database_answer_while_it_is_away(settings, redis_server):
    app = create_app(settings.model_copy(update={"redis_url": redis_server.url, "redis_prefix": f"r{redis_server.port}"}))
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        body = (await client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})).json()
        alice = {"Authorization": f"Bearer {body['access_token']}"}
        ready = await client.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ok", "database": "ok", "redis": "ok"}
        assert samples((await client.get("/metrics")).text)[("mahjong_redis_unreachable", ())] == 0

        redis_server.stop()
        ready = await client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json() == {"status": "unavailable", "database": "ok", "redis": "unreachable"}
        assert samples((await client.get("/metrics")).text)[("mahjong_redis_unreachable", ())] == 1
        assert (await client.get("/healthz")).status_code == 200
        for path in ("/api/me", "/api/me/sessions", "/api/me/ledger", "/api/me/hands", "/api/rooms",
                     "/api/rooms/beginner/tables"):
            answered = await client.get(path, headers=alice)
            assert answered.status_code == 200, (path, answered.status_code, answered.text)

        redis_server.start()
        assert (await client.get("/readyz")).status_code == 200


async def test_with_redis_away_a_cluster_process_answers_each_route_or_refuses_it_with_a_coded_503(settings,
                                                                                                  redis_server):
    """Several processes (Postgres, Redis): with Redis stopped, no route answers a bare 500; what needs Redis
    is a coded 503 (``ErrorCode``) that changes nothing, the rest answers from the database."""
    if settings.is_sqlite:  # the Postgres run of this test is the real one (.ci/run sets TEST_DATABASE_URL)
        pytest.skip("several processes (leases, the directory) need Postgres")
    clustered = settings.model_copy(update={"redis_url": redis_server.url, "cluster": True, "lease_seconds": 0.6,
                                            "takeover_scan_seconds": 0.3, "redis_prefix": f"c{redis_server.port}"})
    app = create_app(clustered)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        tokens = [(await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
                  ["access_token"] for name in ("alice", "bob")]
        alice, bob = ({"Authorization": f"Bearer {t}"} for t in tokens)
        table = (await client.post("/api/rooms/beginner/tables", headers=alice, json={"variant": "tiantai"})).json()

        redis_server.stop()
        sat = await client.post(f"/api/tables/{table['id']}/sit", headers=bob)
        assert sat.status_code == 503 and sat.json()["code"] == "seating_unavailable", sat.text
        opened = await client.post("/api/rooms/beginner/tables", headers=bob, json={"variant": "tiantai"})
        assert opened.status_code == 503 and opened.json()["code"] == "seating_unavailable", opened.text
        queued = await client.post("/api/rooms/beginner/queue", headers=bob, json={"variant": "tiantai"})
        assert queued.status_code == 503 and queued.json()["code"] == "queue_unavailable", queued.text
        for method, path, who, body in [
            ("GET", "/api/me", bob, None), ("GET", f"/api/tables/{table['id']}", bob, None),
            ("GET", "/api/me/queue", bob, None), ("POST", "/api/ws-ticket", bob, None),
            ("PATCH", "/api/me", bob, {"language": "en"}), ("POST", "/api/auth/logout", bob, None),
        ]:
            answered = await client.request(method, path, headers=who, json=body)
            assert answered.status_code < 500 or answered.json().get("code"), (path, answered.status_code, answered.text)
        assert (await client.get("/api/me", headers=alice)).json()["table"]["table_id"] == table["id"]
        listed = await client.get("/api/rooms/beginner/tables")
        assert [t["seats"] for t in listed.json()] == [table["seats"]]  # bob's refused sit changed nothing
        redis_server.start()


async def test_tickets_issued_while_redis_was_away_move_to_redis_and_stay_single_use(redis_server):
    from redis.asyncio import Redis

    from app.services.tickets import RedisTicketBook, SocketOwner

    one, two = Redis.from_url(redis_server.url), Redis.from_url(redis_server.url)
    try:
        issuer, other = RedisTicketBook(20, one, "tk"), RedisTicketBook(20, two, "tk")
        owner = SocketOwner(7, "abc", 1e12)
        redis_server.stop()
        away = await issuer.issue(owner)  # kept here only: another process cannot redeem it yet
        assert await issuer.rebuild() == 0  # still away: it stays here
        redis_server.start()
        assert await issuer.rebuild() == 1  # back (empty): the ticket moves to Redis
        assert await other.redeem(away) == owner
        assert await issuer.redeem(away) is None and await other.redeem(away) is None  # used once, in one place
    finally:
        await one.aclose()
        await two.aclose()
