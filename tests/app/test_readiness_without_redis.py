"""Issue 34: readiness beside liveness, and what answers while Redis is away.

``/healthz`` says the process runs (never a dependency's outage: that would get it restarted for nothing);
``/readyz`` checks the database and the configured Redis and names each; ``mahjong_redis_unreachable`` follows it.
Routes whose data lives in the database (``/api/me``, sessions, listings, history) answer without Redis.
The Redis here is this test's own (``redis_server``), never the shared one.
"""

from __future__ import annotations

import httpx

from app.main import create_app
from tests.app.conftest import PASSWORD
from tests.app.metrics_scrape import samples


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
