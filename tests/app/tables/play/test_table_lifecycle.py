"""A table's life around the actor: players who go broke stand up, leaving a practice table stops it,
and the whole path works over a real socket (uvicorn on loopback)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from pathlib import Path

import pytest

from app.services.ledger import adjust_balance
from tests.app.support.table_harness import Closed, PlayLog, harness, is_type, play_to_the_end

pytestmark = pytest.mark.asyncio


async def test_players_below_the_entry_stand_up_and_the_table_closes(settings):
    async with harness(settings) as h:
        players = [await h.register(f"broke{i}") for i in range(3)]
        async with h.app.state.services.sessionmaker() as session:
            for p in players:  # leave each exactly the 初級 entry: any loss puts them below it
                await adjust_balance(session, user_id=p["id"], asset="coins", delta=-30_000, reason="test",
                                     actor_id=p["id"])
        table_id = await h.coin_table("tiantai", players, rounds=4)
        clients = [await h.connect(table_id, p) for p in players]
        logs = [PlayLog() for _ in clients]
        await asyncio.wait_for(asyncio.gather(*(
            play_to_the_end(c, random.Random(i), log) for i, (c, log) in enumerate(zip(clients, logs, strict=True)))),
            60)
        over = logs[0].game_over
        assert over["reason"] == "player_left" and over["stood_up"]
        last = logs[0].results[-1]
        assert set(over["stood_up"]) == {s for s, c in enumerate(last["coins_after"]) if c < 20_000}
        # Issue 9 item 4: at game over the table closes and every seat is released, not only the broke.
        assert (await h.client.get(f"/api/tables/{table_id}")).json()["code"] == "table_not_found"
        for p in players:
            assert h.app.state.services.registry.table_of(p["id"]) is None
        assert table_id not in h.runtime.actors


async def test_after_game_over_players_sit_nowhere_and_may_open_another_table(settings):
    """The original bug: after game_over every player stayed seated, and creating or joining another table
    answered 409 "already seated at another table" without saying which."""
    async with harness(settings) as h:
        players = [await h.register(f"done{i}") for i in range(3)]
        registry = h.app.state.services.registry
        table_id = await h.coin_table("tiantai", players, rounds=1)
        me = (await h.client.get("/api/me", headers=players[1]["headers"])).json()
        assert me["table"] == {"table_id": table_id, "seat": 1, "status": "playing", "practice": False}
        refused = await h.client.post("/api/rooms/beginner/tables", json={"variant": "tiantai"},
                                      headers=players[1]["headers"])
        assert refused.status_code == 409 and refused.json()["params"] == {"table_id": table_id, "seat": 1}
        assert table_id in refused.json()["detail"]
        with registry_events(registry) as events:
            clients = [await h.connect(table_id, p) for p in players]
            logs = [PlayLog() for _ in clients]
            await asyncio.wait_for(asyncio.gather(*(
                play_to_the_end(c, random.Random(i), log) for i, (c, log) in enumerate(zip(clients, logs,
                                                                                           strict=True)))), 60)
        assert logs[0].game_over is not None
        assert ("table_removed", table_id) in events  # the lobby was told
        for p in players:
            assert (await h.client.get("/api/me", headers=p["headers"])).json()["table"] is None
        again = await h.client.post("/api/rooms/beginner/tables", json={"variant": "tiantai"},
                                    headers=players[1]["headers"])
        assert again.status_code == 201, again.text


@contextlib.contextmanager
def registry_events(registry):
    """(kind, table id) of every lobby event the registry publishes meanwhile."""
    seen: list[tuple[str, str]] = []
    publish = registry._publish

    async def spy(event):
        seen.append((event["type"], event["table"]["id"]))
        if publish is not None:
            await publish(event)

    registry._publish = spy
    try:
        yield seen
    finally:
        registry._publish = publish


async def test_leaving_a_practice_table_stops_its_actor(settings):
    async with harness(settings) as h:
        alice = await h.register("alice")
        table = (await h.client.post("/api/practice", headers=alice["headers"],
                                     json={"variant": "tiantai"})).json()
        seat = await h.connect(table["id"], alice)
        await seat.recv_until(is_type("prompt"))
        response = await h.client.post(f"/api/tables/{table['id']}/stand", headers=alice["headers"])
        assert response.status_code == 200 and response.json()["table"] is None
        over = await seat.recv_until(is_type("game_over"))
        assert over["reason"] == "table_closed"
        with pytest.raises(Closed) as closed:
            await seat.recv_until(lambda m: False)
        assert closed.value.code == 4005  # gone for good, not 1001 "reconnect" (issue 24)
        await h.settle_loop()
        assert table["id"] not in h.runtime.actors


async def test_a_practice_table_over_a_real_socket():
    from bench.server_bench import make_tables, parse_args, run_clients, start_server

    with tempfile.TemporaryDirectory() as tmp:
        args = parse_args(["--tables", "3", "--seconds", "3", "--warmup", "0", "--bot-delay", "0.01",
                           "--hold", "0.01", "--hand-pause", "0.05", "--time-scale", "0.1"])
        server, app, task, port = await start_server(args, f"sqlite+aiosqlite:///{Path(tmp) / 'b.sqlite3'}")
        try:
            seats = await make_tables(app, args)
            stats = await run_clients(port, seats, args)
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 30)
    assert stats["failed"] == 0 and stats["errors"] == 0
    assert stats["hands"] >= 1 and stats["latency"] and stats["messages"] > 50
