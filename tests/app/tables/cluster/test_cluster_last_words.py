"""Issue 27: a table's last words reach every socket, whatever process it is on.

Three real servers on one Postgres and one Redis; one table of each variant, opened on a different process,
its three or four players seated and connected through processes 0, 1, 2(, 0) counted from the table's own, so
two of each table's seats are relayed to its owner; an operator watches each table from every process.
Every game is played to its end (one 圈).  Every seat and spectator must have received a gap-free sequence
of table events, ending with ``game_over`` and a normal close (1000), and never a 1012 (a relayed message
lost).  A connection may still end with 1001 and resync (each connection begins with a snapshot): on a
loaded machine an owner starved past its 3 s lease loses its table to another process, as it should.

Before the fix, closing a relayed link at game over forgot the link's relay counter before that turn's
``hand_result`` / ``game_over`` were numbered: the holder saw a gap, closed the socket with 1012 and the
reconnect found no game (4004).
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from app.tables.cluster.relay import RELAY_GAP
from tests.app.support.cluster_harness import (
    SEATS,
    VARIANT_NAMES,
    RecordingSeat,
    Spectator,
    coin_faults,
    last_message,
    open_table_across,
    register_players,
    running_cluster,
    sequence_faults,
    until,
)
from tests.app.support.live_server import OPTIONS

PG = os.environ.get("TEST_DATABASE_URL")
REDIS = os.environ.get("REDIS_URL")
pytestmark = pytest.mark.skipif(not (PG and REDIS), reason="several processes need Postgres and Redis: set "
                                "TEST_DATABASE_URL (postgresql+asyncpg://...) and REDIS_URL (CI sets both)")
ONE_ROUND = {**OPTIONS, "rounds": 1}


@pytest.mark.timeout(600)
async def test_every_socket_on_every_process_gets_every_message_up_to_game_over(tmp_path: Path) -> None:
    assert PG is not None and REDIS is not None
    async with running_cluster(PG, REDIS, tmp_path) as cluster:
        urls = cluster.urls
        seats: list[RecordingSeat] = []
        watchers: list[Spectator] = []
        tasks: list[asyncio.Task[None]] = []
        operator = None
        for home, variant in enumerate(VARIANT_NAMES):
            players = await register_players(cluster, f"lw{home}", SEATS[variant])
            if operator is None:
                operator = players[0]
                await cluster.make_operator(operator["id"])
            table_id = await open_table_across(cluster, players, variant, home, ONE_ROUND)
            for i, p in enumerate(players):
                first = (home + i) % 3
                seats.append(RecordingSeat(urls[first:] + urls[:first], table_id, p["token"], smart=True))
            watchers += [Spectator(urls[k:] + urls[:k], table_id, operator["token"]) for k in range(3)]
        tasks = [asyncio.create_task(x.run()) for x in [*seats, *watchers]]
        try:
            def state() -> object:
                return [(s.table_id, s.hand_no, s.connects, s.closes, last_message(s.connections)) for s in seats]

            await until(lambda: all(t.done() for t in tasks), 480, "every game to end on every socket",
                        cluster, state)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for server in cluster.servers:
            server.signal(signal.SIGTERM)
            await server.wait(20)

        for s in seats:
            seen = (s.table_id, s.connects, s.closes, sequence_faults(s.connections))
            assert s.closes[-1:] == [1000] and RELAY_GAP not in s.closes, seen  # nothing was lost
            assert sequence_faults(s.connections) == [], seen
            assert last_message(s.connections) == "game_over" and s.game_over is not None, seen
        for w in watchers:
            seen = (w.table_id, w.closes, sequence_faults(w.connections))
            assert w.closes[-1:] == [1000] and RELAY_GAP not in w.closes, seen
            assert sequence_faults(w.connections) == [], seen
            assert last_message(w.connections) == "game_over", seen
        coins, hands = await cluster.ledger()
        assert coin_faults(coins, hands) == []
        assert {r.table_id for r in hands} == {s.table_id for s in seats}
