"""A player who (re)connects between two hands is sent the last hand's result again, even from a restarted
process: the process that settled the hand may have stopped after the journal had the settlement and before
the player's socket had the result (a kill -9 in that window lost hand 1's result in CI, and with it the
player's only view of how the hand ended and what it paid).

Until the next deal every snapshot is followed by the settled hand's ``hand_result`` (the same message:
its hand id, seed and salt), for seats and spectators alike; the next deal ends that.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.core.config import Settings
from app.main import create_app
from app.models import Hand, LiveTable
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.settings import TableSettings
from tests.app.conftest import PASSWORD, grant_role
from tests.app.support.table_harness import SeatClient, answer_until, harness, is_event, is_type

DURABLE = {"join_seconds": 0.0, "resume_join_seconds": 30.0, "auto_play_delay_seconds": 0.0,
           "bot_delay_seconds": 0.0, "claim_hold_seconds": 0.0, "grace_seconds": 0.0, "freeze_gc": False,
           "durable": True}


async def _register(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    body = (await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
    return {"id": body["user"]["id"], "token": body["access_token"],
            "headers": {"Authorization": f"Bearer {body['access_token']}"}}


async def test_a_seat_and_a_spectator_that_come_in_the_pause_see_the_last_result(settings: Settings) -> None:
    async with harness(settings, hand_pause_seconds=600.0) as h:
        alice, watcher = await h.register("alice"), await h.register("watcher")
        await grant_role(h.app, watcher["id"], "operator")
        table_id = (await h.client.post("/api/practice", headers=alice["headers"],
                                        json={"variant": "tiantai"})).json()["id"]
        seat = await h.connect(table_id, alice)
        result = await answer_until(seat, "hand_result")
        await seat.disconnect()

        again = await h.connect(table_id, alice)  # back in the pause: the snapshot, then the same result
        snapshot = await again.recv()
        assert snapshot["type"] == "snapshot" and snapshot["table"]["hand_no"] == result["hand_no"] == 1
        assert snapshot["commitment"] == result["commitment"]
        resent = await again.recv_until(is_type("hand_result"))
        assert resent == result

        spectator = SeatClient(h.app, f"/ws/spectate/{table_id}", token=watcher["token"])
        await spectator.connect()
        assert (await spectator.recv(30))["type"] == "snapshot"
        assert await spectator.recv_until(is_type("hand_result")) == result

        await again.send({"type": "resync"})  # a resync in the pause is a snapshot and the result too
        assert (await again.recv_until(is_type("snapshot")))["table"]["hand_no"] == 1
        assert await again.recv_until(is_type("hand_result")) == result

        h.clock.advance(600.0)  # the next deal: from now on a snapshot comes alone
        await again.recv_until(is_event("hand_start"))
        await again.send({"type": "resync"})
        snapshot = await again.recv_until(is_type("snapshot"))
        assert snapshot["table"]["hand_no"] == 2
        await again.send({"type": "ping"})
        assert (await again.recv_until(lambda m: m["type"] in ("pong", "hand_result")))["type"] == "pong"


def _durable_app(settings: Settings, hand_pause_seconds: float) -> FastAPI:
    runtime = ProcessRuntime(TableSettings(_env_file=None, **{**DURABLE, "hand_pause_seconds": hand_pause_seconds}))  # type: ignore[call-arg]
    return create_app(settings, table_runtime=runtime)


@contextlib.asynccontextmanager
async def _first_hand_played(settings: Settings, practice: dict[str, Any]) -> AsyncIterator[
        tuple[FastAPI, str, dict[str, Any], dict[str, Any]]]:
    """A first process (durable tables) whose practice table has played hand 1 and waits in the pause after
    it; yields the app, the table id, its player and hand 1's result.  The process stops on leaving."""
    first = _durable_app(settings, hand_pause_seconds=600.0)
    async with first.router.lifespan_context(first), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=first), base_url="http://test") as client:
        alice = await _register(client, "alice")
        table_id = (await client.post("/api/practice", headers=alice["headers"], json=practice)).json()["id"]
        seat = SeatClient(first, f"/ws/table/{table_id}", token=alice["token"])
        await seat.connect()
        yield first, table_id, alice, await answer_until(seat, "hand_result")


async def test_a_restarted_process_sends_the_last_result_before_the_next_deal(settings: Settings) -> None:
    """The journal keeps the settled hand's result with the closed hand; the resumed table sends it after the
    snapshot and deals the next hand after the usual pause, not at once."""
    async with (_first_hand_played(settings, {"variant": "taipao"}) as (first, table_id, alice, result),
                first.state.services.sessionmaker() as session):  # the hand is closed in the journal
        row = await session.get(LiveTable, table_id)
        assert row is not None and row.hand_closed and row.last_result == result

    second = _durable_app(settings, hand_pause_seconds=0.3)
    async with second.router.lifespan_context(second):
        seat = SeatClient(second, f"/ws/table/{table_id}", token=alice["token"])
        await seat.connect()
        snapshot = await seat.recv()
        assert snapshot["type"] == "snapshot" and snapshot["table"]["hand_no"] == 1
        assert snapshot["view"] is None and snapshot["commitment"] == result["commitment"]
        resent = await seat.recv_until(is_type("hand_result"))
        assert resent == result
        start = await seat.recv_until(is_event("hand_start"), timeout=30)  # after the pause
        assert start["hand_no"] == 2
        async with second.state.services.sessionmaker() as session:
            hands = list(await session.scalars(select(Hand).where(Hand.table_id == table_id)))
            row = await session.get(LiveTable, table_id)
            assert [h.id for h in hands] == [result["hand_id"]]  # hand 1 settled once, before the restart
            assert row is not None and not row.hand_closed  # hand 2 is in play …
            assert row.last_result is None  # … and hand 1's result is no longer the table's to send
        await seat.disconnect()


async def test_a_resumed_table_whose_last_round_was_settled_ends_its_game(settings: Settings) -> None:
    """The process stopped after the journal closed the game's last hand and before it recorded the game's
    end: the resumed table ends the game (``rounds_complete``) instead of waiting for a deal that never comes."""
    practice = {"variant": "tiantai", "options": {"rounds": 1}}
    async with (_first_hand_played(settings, practice) as (first, table_id, alice, result),
                first.state.services.sessionmaker() as session):  # as if hand 1 had ended the only 圈
        row = await session.get(LiveTable, table_id)
        assert row is not None and row.hand_closed
        row.round_wind = 1
        await session.commit()

    second = _durable_app(settings, hand_pause_seconds=0.0)
    async with second.router.lifespan_context(second):
        seat = SeatClient(second, f"/ws/table/{table_id}", token=alice["token"])
        await seat.connect()
        assert (await seat.recv())["type"] == "snapshot"
        assert await seat.recv_until(is_type("hand_result")) == result
        over = await seat.recv_until(is_type("game_over"))
        assert over["reason"] == "rounds_complete" and over["hands_played"] == 1
        async with second.state.services.sessionmaker() as session:
            assert await session.get(LiveTable, table_id) is None  # the game left the journal
            hands = list(await session.scalars(select(Hand).where(Hand.table_id == table_id)))
            assert [h.id for h in hands] == [result["hand_id"]]  # and dealt no hand past its last 圈
