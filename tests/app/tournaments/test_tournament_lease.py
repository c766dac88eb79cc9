"""Issue 11: one tournament director per tournament, however many server processes share the database and
Redis (app.tournaments.lease).  Two app instances on one database and one Redis stand in for two processes:
only the lease holder starts a tournament's tables, the other's ticks and start requests launch nothing,
and when the holder stops, the other takes the tournament over and resumes its table from the journal."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.core.config import Settings
from app.main import create_app
from app.models import Tournament
from app.tables.cluster.cluster import ClusterRuntime
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.settings import TableSettings
from app.tournaments.lease import RedisLease
from tests.app.conftest import PASSWORD, grant_role

REDIS_URL = os.environ.get("REDIS_URL")
NEEDS_REDIS = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL not set: the lease lives in Redis (CI sets it)")
# Nothing plays while the test looks: the players never connect and the tables wait for them.
IDLE = {"join_seconds": 600.0, "resume_join_seconds": 600.0, "freeze_gc": False, "durable": True}


@NEEDS_REDIS
async def test_a_lease_has_one_holder_renews_and_passes_on() -> None:
    assert REDIS_URL is not None
    prefix = f"test-lease-{uuid.uuid4()}:"
    one, two = (RedisLease(REDIS_URL, prefix=prefix, seconds=0.5) for _ in range(2))
    try:
        assert await one.hold(7) and await one.holder(7) == one.owner
        assert not await two.hold(7)  # held: refused
        assert await two.hold(8)  # another tournament's lease is free
        assert await one.hold(7)  # the holder renews
        await two.release(7)  # not the holder: changes nothing
        assert await one.holder(7) == one.owner
        await one.release(7)
        assert await two.hold(7) and not await one.hold(7)
        await asyncio.sleep(0.7)  # the holder stopped renewing: the lease lapses
        assert await one.hold(7) and await one.holder(7) == one.owner
    finally:
        for lease in (one, two):
            await lease.redis.delete(lease.key(7), lease.key(8))
            await lease.close()


def _app(settings: Settings, kind: str):  # noqa: ANN202 - a FastAPI app
    table_settings = TableSettings(_env_file=None, **IDLE)  # type: ignore[call-arg]
    # "cluster": the runtime of `python -m app` on Postgres + Redis (tables leased per process, issue 10).
    runtime = ClusterRuntime(table_settings) if kind == "cluster" else ProcessRuntime(table_settings)
    return create_app(settings, table_runtime=runtime)


async def _people(client: httpx.AsyncClient, app: Any, names: list[str]) -> list[dict]:
    out = []
    for name in names:
        body = (await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
        out.append({"id": body["user"]["id"], "headers": {"Authorization": f"Bearer {body['access_token']}"}})
    await grant_role(app, out[0]["id"], "operator")
    return out


def _spec(name: str, starts_at: datetime) -> dict:
    return {"name": name, "room": "beginner", "variant": "tiantai", "entry_fee": 1_000,
            "starts_at": starts_at.isoformat(), "player_limit": 3, "rounds": 1, "hands_per_round": 1,
            "prize_split": [100], "options": {"rounds": 1}}


def _tables(app: Any) -> list:
    return app.state.services.registry.all_tables()


@NEEDS_REDIS
@pytest.mark.parametrize("kind", ["plain", "cluster"])
async def test_two_processes_one_director_and_a_take_over(settings: Settings, kind: str) -> None:
    if kind == "cluster" and settings.is_sqlite:
        pytest.skip("the cluster runtime runs on Postgres only (app.tables.cluster.cluster.cluster_wanted)")
    settings = settings.model_copy(update={
        "redis_url": REDIS_URL, "lobby_channel": f"test-{uuid.uuid4()}", "redis_prefix": f"test-{uuid.uuid4()}"})
    first, second = _app(settings, kind), _app(settings, kind)
    async with contextlib.AsyncExitStack() as outer:
        await outer.enter_async_context(second.router.lifespan_context(second))
        client_b = await outer.enter_async_context(httpx.AsyncClient(
            transport=httpx.ASGITransport(app=second), base_url="http://b"))
        director_a, director_b = None, second.state.tournaments
        async with first.router.lifespan_context(first), httpx.AsyncClient(
                transport=httpx.ASGITransport(app=first), base_url="http://a") as client_a:
            director_a = first.state.tournaments
            assert all(getattr(d.runtime, "active", False) == (kind == "cluster") for d in (director_a, director_b))
            op, *players = await _people(client_a, first, ["oper", "ls_a", "ls_b", "ls_c", "ls_d", "ls_e", "ls_f"])
            later = datetime.now(UTC) + timedelta(hours=1)
            tid = (await client_a.post("/api/operator/tournaments", headers=op["headers"],
                                       json=_spec("Lease cup", later))).json()["id"]
            for p in players[:3]:
                await client_a.post(f"/api/tournaments/{tid}/register", headers=p["headers"])
            # The operator starts it on A: A leads it and runs its table.
            started = await client_a.post(f"/api/operator/tournaments/{tid}/start", headers=op["headers"])
            (game,) = started.json()["tables"]
            assert [t.id for t in _tables(first)] == [game["table_id"]]
            # B ticks, and is asked to start it too: it is running already and led by A, so B refuses and starts nothing.
            for _ in range(3):
                await director_b.tick()
            again = await client_b.post(f"/api/operator/tournaments/{tid}/start", headers=op["headers"])
            # Starting a running tournament is an impossible transition (issue 23): a coded 409, nothing started.
            assert again.status_code == 409 and again.json()["code"] == "tournament_wrong_state", again.text
            assert _tables(second) == [] and tid in director_a.held and tid not in director_b.held

            # A second tournament falls due while both processes tick at once: one leads, one table.
            due = (await client_a.post("/api/operator/tournaments", headers=op["headers"],
                                       json=_spec("Race cup", later))).json()["id"]
            for p in players[3:]:
                await client_a.post(f"/api/tournaments/{due}/register", headers=p["headers"])
            async with first.state.services.sessionmaker() as session:
                row = await session.get(Tournament, due)
                row.starts_at = datetime.now(UTC) - timedelta(seconds=1)
                await session.commit()
            await asyncio.gather(director_a.tick(), director_b.tick())
            leaders = [d for d in (director_a, director_b) if due in d.held]
            assert len(leaders) == 1
            raced = [t for app in (first, second) for t in _tables(app) if t.seats and set(t.seats) <= {
                p["id"] for p in players[3:]}]
            assert len(raced) == 1
            leader_app = first if leaders[0] is director_a else second
            assert raced[0].id in {t.id for t in _tables(leader_app)}
            for _ in range(2):  # later ticks keep it where it is
                await asyncio.gather(director_a.tick(), director_b.tick())
            assert len(_tables(first)) + len(_tables(second)) == 2

        # A stops (its leases go back, its table stays in the journal); B's next tick takes the Lease cup over
        # and resumes the very table from the journal, as the tournament's, instead of starting a second one.
        await director_b.tick()
        assert tid in director_b.held
        (resumed,) = [t for t in _tables(second) if t.id == game["table_id"]]
        assert sorted(resumed.seats) == sorted(p["id"] for p in players[:3])
        actor = second.state.tournaments.runtime.actors[game["table_id"]]
        assert actor.info.tournament_game_id is not None and actor.info.hands_limit == 1
        detail = (await client_b.get(f"/api/tournaments/{tid}")).json()
        assert [g["table_id"] for g in detail["tables"]] == [game["table_id"]]
        assert len(_tables(second)) == 2  # both tournaments' tables now run in B, one each


@pytest.mark.parametrize(("tick", "lease", "ok"), [(5.0, 30.0, True), (5.0, 5.0, False), (40.0, 30.0, False)])
def test_the_lease_must_outlive_a_tick(tick: float, lease: float, ok: bool) -> None:
    """A lease no longer than the tick lapses between renewals and lets a second director in."""
    make = lambda: Settings(_env_file=None, environment="development",  # type: ignore[call-arg]  # noqa: E731
                            tournament_tick_seconds=tick, tournament_lease_seconds=lease)
    if ok:
        assert make().tournament_lease_seconds == lease
    else:
        with pytest.raises(ValueError, match="TOURNAMENT_LEASE_SECONDS"):
            make()
