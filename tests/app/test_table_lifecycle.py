"""A table's life around the actor: players who go broke stand up, leaving a practice table stops it,
and the whole path works over a real socket (uvicorn on loopback)."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

import pytest

from app.services.ledger import adjust_balance
from tests.app.table_harness import Closed, PlayLog, harness, is_type, play_to_the_end

pytestmark = pytest.mark.asyncio


async def test_players_below_the_entry_stand_up_and_the_table_reopens(settings):
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
        table = (await h.client.get(f"/api/tables/{table_id}")).json()
        assert table["status"] == "waiting"
        assert [s["seat"] for s in table["seats"] if s["user_id"] is None] == over["stood_up"]
        assert table_id not in h.runtime.actors


async def test_leaving_a_practice_table_stops_its_actor(settings):
    async with harness(settings) as h:
        alice = await h.register("alice")
        table = (await h.client.post("/api/practice", headers=alice["headers"],
                                     json={"variant": "tiantai"})).json()
        seat = await h.connect(table["id"], alice)
        await seat.recv_until(is_type("prompt"))
        response = await h.client.post(f"/api/tables/{table['id']}/stand", headers=alice["headers"])
        assert response.status_code == 200 and response.json()["table"] is None
        with pytest.raises(Closed) as closed:
            await seat.recv_until(lambda m: False)
        assert closed.value.code == 1001
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
