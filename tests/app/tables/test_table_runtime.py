"""The actor's seam end to end: create_app(table_runtime=…), on_table_full, settle_hand, unseating."""

from __future__ import annotations

import contextlib

import httpx
import pytest

from app.game.rooms import ROOMS
from app.main import create_app
from app.services.settlement import settle_hand
from app.state import AppState
from app.tables.registry import TableInfo, TableStatus
from app.tables.seating import unseat_below_entry


class FakeActors:
    """What the real actor will do, in miniature: play one hand the moment a table fills."""

    def __init__(self) -> None:
        self.state: AppState | None = None
        self.outcomes: list = []
        self.stopped = False

    @contextlib.asynccontextmanager
    async def run(self, state: AppState):
        self.state = state
        state.registry.on_table_full = self.play_one_hand
        yield
        self.stopped = True

    async def play_one_hand(self, table: TableInfo) -> None:
        assert self.state is not None
        # The database must be usable from inside the hook (no lock held by the sitting request).
        async with self.state.sessionmaker() as session:
            outcome = await settle_hand(
                session, hand_key=f"{table.id}:1", room=ROOMS[table.room] if table.room else None,
                seats=table.seats, variant=table.variant, record={"table_id": table.id},
                payments=[(1, 0, 310)], winners=[0], practice=table.practice,
            )
        self.outcomes.append(outcome)
        await unseat_below_entry(registry=self.state.registry, table_id=table.id, coins_after=outcome.coins_after)
        await self.state.registry.set_status(table.id, TableStatus.FINISHED)


@pytest.fixture
async def actors_client(settings):
    actors = FakeActors()
    app = create_app(settings, table_runtime=actors)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        yield actors, client
    assert actors.stopped


async def _register(client, name):
    body = (await client.post("/api/auth/register", json={"username": name, "password": "password1"})).json()
    return body["user"]["id"], {"Authorization": f"Bearer {body['access_token']}"}


async def test_a_full_table_plays_settles_and_unseats_the_broke(actors_client):
    actors, client = actors_client
    players = [await _register(client, name) for name in ("alice", "bob", "carol", "dave")]
    table_id = (await client.post("/api/rooms/beginner/tables", json={"variant": "taiwan"},
                                  headers=players[0][1])).json()["id"]
    for _, headers in players[1:]:
        response = await client.post(f"/api/tables/{table_id}/sit", headers=headers)
        assert response.status_code == 200
    (outcome,) = actors.outcomes
    assert outcome.coin_deltas == [31_000, -31_000, 0, 0]
    table = (await client.get(f"/api/tables/{table_id}")).json()
    # bob is down to 19,000, below the 20,000 entry of 初級: his seat opened.
    assert [s["user_id"] for s in table["seats"]] == [players[0][0], None, players[2][0], players[3][0]]
    assert table["status"] == "finished"
    me = (await client.get("/api/me", headers=players[1][1])).json()
    assert (me["coins"], me["rank_points"]) == (19_000, 0)
    winner = (await client.get("/api/me", headers=players[0][1])).json()
    assert (winner["coins"], winner["rank_points"], winner["title"]) == (81_000, 310, "二萬")


async def test_practice_runs_through_the_same_seam_without_coins(actors_client):
    actors, client = actors_client
    _, headers = await _register(client, "alice")
    response = await client.post("/api/practice", json={"variant": "taipao"}, headers=headers)
    assert response.status_code == 201
    (outcome,) = actors.outcomes
    assert outcome.practice and outcome.coin_deltas == [0, 0, 0, 0]
    assert (await client.get("/api/me", headers=headers)).json()["coins"] == 50_000


def test_warm_up_sets_the_gc_thresholds_the_settings_declare(monkeypatch: pytest.MonkeyPatch) -> None:
    """TABLE_GC_GEN0_THRESHOLD / TABLE_GC_GEN2_THRESHOLD reach the collector (0 keeps Python's own)."""
    import gc

    from app.tables.hosting import runtime as runtime_module

    saved, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        monkeypatch.setattr(runtime_module, "_warm", False)
        runtime_module.warm_up(gen2_threshold=77, gen0_threshold=12_345)
        assert gc.get_threshold() == (12_345, saved[1], 77) and gc.get_freeze_count() > 0
        monkeypatch.setattr(runtime_module, "_warm", False)
        runtime_module.warm_up(gen2_threshold=0, gen0_threshold=0)  # leaves them as they are
        assert gc.get_threshold() == (12_345, saved[1], 77)
    finally:
        gc.set_threshold(*saved)
        if not frozen:
            gc.unfreeze()


async def test_paced_collections_collect_young_and_middle_on_a_clock_and_everything_now_and_then() -> None:
    """TABLE_GC_YOUNG_INTERVAL_SECONDS / TABLE_GC_FULL_INTERVAL_SECONDS: generations 0 and 1 together every
    tick, a full collection once ``full`` has passed (explicit collections do not advance Python's own counts,
    so without it cyclic garbage that outlived a young collection would stay for ever)."""
    import asyncio
    import gc

    from app.tables.hosting.runtime import paced_collections

    seen: list[int] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    # Its own time: each tick moves it by ``young`` (binary-exact steps, so no rounding decides a boundary).
    now = 0.0
    ticks = 0
    done = asyncio.Event()
    running_while_paced: list[bool] = []

    async def sleep(seconds: float) -> None:
        nonlocal now, ticks
        now += seconds
        ticks += 1
        running_while_paced.append(gc.isenabled())
        if ticks == 30:
            done.set()
            await asyncio.Event().wait()  # stay here until cancelled
        await asyncio.sleep(0)

    gc.callbacks.append(callback)
    pacer = asyncio.create_task(paced_collections(0.125, 1.0, now=lambda: now, sleep=sleep))
    try:
        await asyncio.wait_for(done.wait(), 30)
    finally:
        pacer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pacer
        gc.callbacks.remove(callback)
    assert not any(running_while_paced)  # only the pacer collects while it runs
    assert gc.isenabled()  # and Python collects again once it stops
    # 29 ticks collected (the 30th is cancelled in its sleep): at 1.0, 2.0 and 3.0 s everything, else the
    # young and middle generations together; never generation 0 alone.
    assert seen.count(2) == 3
    assert seen.count(1) == 26 and seen.count(0) == 0
