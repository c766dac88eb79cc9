"""Issue 11: a running tournament survives a restart.  Its table resumes from the journal in a fresh app on
the same database and plays on as the tournament's — tournament points, no coins change hands at the table,
the round's hand limit, its points reported to the director — without the director ever ticking (so
nothing re-adopts the table by hand: ``TournamentDirector.adopt_resumed`` does it as the table resumes).

The restart is what tests/app/tables/durability/test_journal.py and test_drain.py rely on: the first app's lifespan ends
(its actors stop, the journal keeps the game) and a new ``create_app`` on the same database starts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import select

from app.core.config import Settings
from app.main import create_app
from app.models import Hand, LiveTable, TableAction, User
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.settings import TableSettings
from app.tournaments import service
from app.tournaments.director import tournament_view
from tests.app.conftest import PASSWORD, grant_role
from tests.app.support.table_harness import SeatClient

FEE, GRANT = 1_000, 50_000
# Nobody connects: every seat is played on 托管 at once; the rule timers shrunk.
QUICK = {"join_seconds": 0.0, "resume_join_seconds": 0.0, "auto_play_delay_seconds": 0.0, "bot_delay_seconds": 0.0,
         "claim_hold_seconds": 0.0, "grace_seconds": 0.0, "time_scale": 0.05, "freeze_gc": False, "durable": True}


def _app(settings: Settings, **table: Any):  # noqa: ANN202 - a FastAPI app
    runtime = ProcessRuntime(TableSettings(_env_file=None, **{**QUICK, **table}))  # type: ignore[call-arg]
    return create_app(settings, table_runtime=runtime)


async def _until(check: Callable[[], Any], what: str, timeout: float = 90.0) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def _hands(app, table_id: str) -> list[Hand]:  # noqa: ANN001
    async with app.state.services.sessionmaker() as session:
        rows = list(await session.scalars(select(Hand).where(Hand.table_id == table_id).order_by(Hand.id)))
        await session.commit()
    return rows


async def test_a_tournament_table_resumed_after_a_restart_settles_as_the_tournaments(settings: Settings):
    assert not settings.tournament_director  # no tick in either app: nothing adopts the table by hand
    first = _app(settings, hand_pause_seconds=600.0)  # after hand 1 the table waits: the restart comes then
    async with first.router.lifespan_context(first), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=first), base_url="http://test") as client:
        people = []
        for name in ("oper", "rs_a", "rs_b", "rs_c"):
            body = (await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
            people.append({"id": body["user"]["id"], "headers": {"Authorization": f"Bearer {body['access_token']}"}})
        op, players = people[0], people[1:]
        await grant_role(first, op["id"], "operator")
        spec = {"name": "Restart cup", "room": "beginner", "variant": "tiantai", "entry_fee": FEE,
                "starts_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(), "player_limit": 3,
                "rounds": 1, "hands_per_round": 2, "prize_split": [100], "options": {"rounds": 1}}
        tid = (await client.post("/api/operator/tournaments", headers=op["headers"], json=spec)).json()["id"]
        for p in players:
            assert (await client.post(f"/api/tournaments/{tid}/register", headers=p["headers"])).status_code == 200
        started = (await client.post(f"/api/operator/tournaments/{tid}/start", headers=op["headers"])).json()
        (table,) = started["tables"]
        table_id = table["table_id"]
        await _until(lambda: _hands(first, table_id), "the first hand before the restart")

    # Between the two apps: the journal holds the game after one hand; only the fees have moved.
    second = _app(settings, hand_pause_seconds=0.0)
    async with second.router.lifespan_context(second):
        services = second.state.services
        async with services.sessionmaker() as session:
            journalled = await session.get(LiveTable, table_id)
            assert journalled is not None and journalled.hands_played == 1
            await session.commit()
        runtime = second.state.tournaments.runtime
        actor = runtime.actors[table_id]  # resumed by the runtime at startup, before any director step
        assert actor.info.tournament_game_id is not None and actor.info.hands_limit == 2

        async def finished() -> dict | None:
            async with services.sessionmaker() as session:
                detail = await tournament_view(session, tid)
            return detail if detail["state"] == "finished" else None

        final = await _until(finished, "the resumed table to finish the tournament")
        hands = await _hands(second, table_id)
        async with services.sessionmaker() as session:
            coins = {uid: c for uid, c in (await session.execute(select(User.id, User.coins))).all()}
            await session.commit()

    # Both hands were played at the one table, hand 2 after the restart, and neither moved a coin.
    assert [h.result["hand_no"] for h in hands] == [1, 2]
    assert all(h.practice and h.settlement["coin_deltas"] == [0, 0, 0] for h in hands)
    # The game ended at the round's hand limit and its points are the two hands' points, seat by seat.
    (game,) = final["tables"]
    assert game["table_id"] == table_id and game["finished"] and game["hands_played"] == 2
    summed = [sum(h.settlement["point_deltas"][seat] for h in hands) for seat in range(3)]
    assert game["points"] == summed
    by_seat = dict(zip(game["seats"], summed, strict=True))
    assert {s["user_id"]: s["points"] for s in final["standings"]} == by_seat
    # Coins: the fee in, the prize out, nothing else; the pool is empty and the books balance.
    assert final["pool"] == 0
    prizes = {s["user_id"]: s["prize"] for s in final["standings"]}
    assert sum(prizes.values()) == 3 * FEE
    for p in players:
        assert coins[p["id"]] == GRANT - FEE + prizes[p["id"]]


async def test_a_resumed_table_of_a_tournament_cancelled_meanwhile_closes_at_the_first_tick(settings: Settings):
    """The tournament was cancelled (every fee refunded) while its table sat in the journal — on another
    process, or just before a crash.  The restarted process resumes the table as the tournament's, and its
    first tick closes it: the players are free, and no hand of a cancelled tournament is played on."""
    first = _app(settings, join_seconds=600.0)  # nothing plays before the restart
    async with first.router.lifespan_context(first), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=first), base_url="http://test") as client:
        people = []
        for name in ("oper", "cx_a", "cx_b", "cx_c"):
            body = (await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
            people.append({"id": body["user"]["id"], "headers": {"Authorization": f"Bearer {body['access_token']}"}})
        op, players = people[0], people[1:]
        await grant_role(first, op["id"], "operator")
        spec = {"name": "Stray cup", "room": "beginner", "variant": "tiantai", "entry_fee": FEE, "player_limit": 3,
                "starts_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(), "rounds": 1,
                "hands_per_round": 1, "prize_split": [100], "options": {}}
        tid = (await client.post("/api/operator/tournaments", headers=op["headers"], json=spec)).json()["id"]
        for p in players:
            await client.post(f"/api/tournaments/{tid}/register", headers=p["headers"])
        started = await client.post(f"/api/operator/tournaments/{tid}/start", headers=op["headers"])
        (game,) = started.json()["tables"]
    async with first.state.services.sessionmaker() as session:  # between the two processes
        assert await service.cancel(session, tid, actor_id=op["id"], reason="cancelled while it was down")

    second = _app(settings, resume_join_seconds=600.0)
    async with second.router.lifespan_context(second):
        registry, director = second.state.services.registry, second.state.tournaments
        assert registry.is_open(game["table_id"])  # resumed from the journal, as the tournament's
        actor = director.runtime.actors[game["table_id"]]
        assert actor.info.tournament_game_id is not None
        assert tid not in director.held  # the tick's due list has no cancelled tournament to wind down
        await director.tick()
        await asyncio.wait_for(actor.task, 10)  # its actor ends (and lets the journal row go)
        assert not registry.is_open(game["table_id"])
        assert all(registry.table_of(p["id"]) is None for p in players)
        async with second.state.services.sessionmaker() as session:
            coins = [c for (c,) in (await session.execute(
                select(User.coins).where(User.id.in_([p["id"] for p in players])))).all()]
            assert await session.get(LiveTable, game["table_id"]) is None  # the journal let it go too
            await session.commit()
    assert coins == [GRANT] * 3


async def test_a_tournament_hand_cut_off_mid_way_resumes_and_settles_without_coins(settings: Settings):
    """The restart comes in the middle of a tournament hand: one player is connected and leaves their prompt
    open, so the hand stops part-way with actions in the journal.  The fresh app resumes that hand (the
    journalled actions are the settled hand's first actions, the same wall) and settles it as the
    tournament's — again without any director tick."""
    first = _app(settings, time_scale=1.0)  # the held prompt keeps its full time while the test looks
    async with first.router.lifespan_context(first), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=first), base_url="http://test") as client:
        people = []
        for name in ("oper", "mh_a", "mh_b", "mh_c"):
            body = (await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
            people.append({"id": body["user"]["id"], "token": body["access_token"],
                           "headers": {"Authorization": f"Bearer {body['access_token']}"}})
        op, players = people[0], people[1:]
        await grant_role(first, op["id"], "operator")
        spec = {"name": "Mid-hand cup", "room": "beginner", "variant": "tiantai", "entry_fee": FEE,
                "starts_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(), "player_limit": 3,
                "rounds": 1, "hands_per_round": 1, "prize_split": [100], "options": {"rounds": 1}}
        tid = (await client.post("/api/operator/tournaments", headers=op["headers"], json=spec)).json()["id"]
        for p in players:
            await client.post(f"/api/tournaments/{tid}/register", headers=p["headers"])
        started = await client.post(f"/api/operator/tournaments/{tid}/start", headers=op["headers"])
        (game,) = started.json()["tables"]
        table_id = game["table_id"]
        holder = SeatClient(first, f"/ws/table/{table_id}", token=players[0]["token"])
        await holder.connect()  # never answers: the others play on 托管 until this seat's prompt

        async def held() -> list[dict] | None:
            async with first.state.services.sessionmaker() as session:
                row = await session.get(LiveTable, table_id, populate_existing=True)
                actions = list(await session.scalars(select(TableAction.action).where(
                    TableAction.table_id == table_id).order_by(TableAction.seq)))
                await session.commit()
            waiting = any(m["type"] == "prompt" for m in holder.received)
            return actions if row is not None and not row.hand_closed and actions and waiting else None

        async def pump() -> list[dict] | None:
            with contextlib.suppress(TimeoutError):
                await holder.recv(timeout=0.05)
            return await held()

        journalled = await _until(pump, "the hand to stop at the connected player's prompt", timeout=60)
        await holder.disconnect()
    assert await _hands(first, table_id) == []  # cut off: nothing settled yet

    second = _app(settings)
    async with second.router.lifespan_context(second):
        services = second.state.services
        actor = second.state.tournaments.runtime.actors[table_id]
        assert actor.info.tournament_game_id is not None  # before any tick

        async def finished() -> dict | None:
            async with services.sessionmaker() as session:
                detail = await tournament_view(session, tid)
            return detail if detail["state"] == "finished" else None

        final = await _until(finished, "the resumed hand to finish the tournament")
        (hand,) = await _hands(second, table_id)
        async with services.sessionmaker() as session:
            coins = {uid: c for uid, c in (await session.execute(select(User.id, User.coins))).all()}
            await session.commit()
    assert hand.actions[: len(journalled)] == journalled  # the same hand, picked up where it stopped
    assert hand.practice and hand.settlement["coin_deltas"] == [0, 0, 0]
    assert final["tables"][0]["points"] == hand.settlement["point_deltas"]
    prizes = {s["user_id"]: s["prize"] for s in final["standings"]}
    for p in players:
        assert coins[p["id"]] == GRANT - FEE + prizes[p["id"]]
