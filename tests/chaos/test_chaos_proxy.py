"""Issue 34: the proxy restarted.  Two real server processes (a private Postgres and Redis) behind the shipped
one-machine proxy (deploy/nginx.local.conf, ``tests.app.local_proxy``); every player, socket and poll goes
through it.  Two tables play (every seat and an operator's spectator socket through the proxy, so round-robin
puts most of them on the process that does not own the table and they are relayed), and each player polls
``GET /api/me`` as a browser would.  Then nginx is stopped and started again, and reloaded (``-s reload``:
the old worker drops its sockets within ``worker_shutdown_timeout``), both while the games play.

Nothing may be lost: every socket reconnects and resyncs (each connection begins with a snapshot, no table
event is skipped), every game reaches ``game_over`` on every socket, coins are conserved and each hand is
settled once (``ChaosRun.finish``).  No poll answers 5xx, and a poll fails (after one immediate retry, as a
browser retries an idempotent request on a dropped keep-alive connection) only while nginx is down.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.support.cluster_harness import (
    Cluster,
    RecordingSeat,
    Spectator,
    quick_players,
    running_cluster,
    until,
)
from tests.app.support.live_server import open_table
from tests.app.support.local_proxy import LocalProxy, nginx_installed
from tests.chaos.scenario import ChaosRun, ChaosTable
from tests.chaos.services import PrivatePostgres, PrivateRedis

pytestmark = pytest.mark.skipif(not nginx_installed(), reason="nginx is not installed (.ci/run installs it)")
# Two 圈 at 0.05 s a move (天台 and 台炮 hands are short): both faults, within the first ~20 s, land mid-game.
OPTIONS = {"rounds": 2, "claim_seconds": 60, "discard_seconds": 120}
THINK = 0.05
TABLES = {"tiantai": 3, "taipao": 4}
POLL_EVERY = 0.25
DOWN_SECONDS = 1.0
AFTER_START_GRACE = 1.0  # a poll in flight when nginx came back may still fail
PLAY_BOUND = 60.0


@pytest.fixture
async def cluster(private_postgres: PrivatePostgres, private_redis: PrivateRedis,
                  tmp_path: Path) -> AsyncIterator[Cluster]:
    async with running_cluster(private_postgres.url, private_redis.url, tmp_path, n=2) as running:
        yield running


@dataclass
class Poller:
    """One player's ``GET /api/me`` every ``POLL_EVERY`` s through the proxy: (when it answered, the status or
    the error) each."""

    base: str
    headers: dict[str, str]
    answers: list[tuple[float, int | str]] = field(default_factory=list)
    retried: int = 0

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        async with httpx.AsyncClient(base_url=self.base, timeout=10) as client:
            while True:
                answer = await self._poll(client)
                self.answers.append((loop.time(), answer))  # when it answered (or failed)
                await asyncio.sleep(POLL_EVERY)

    async def _poll(self, client: httpx.AsyncClient) -> int | str:
        for attempt in range(2):
            try:
                return (await client.get("/api/me", headers=self.headers)).status_code
            except httpx.TransportError as exc:
                if attempt:
                    return type(exc).__name__
                self.retried += 1
        raise AssertionError("unreachable")


async def _open(proxy: LocalProxy, cluster: Cluster, variant: str, operator: dict[str, Any]) -> ChaosTable:
    players = await quick_players(cluster, f"px{variant}", TABLES[variant])
    table_id = await open_table(proxy.url, players, variant, **OPTIONS)  # through the proxy, as a player would
    seats = [RecordingSeat([proxy.url], table_id, p["token"], smart=True, think=THINK) for p in players]
    spectator = Spectator([proxy.url], table_id, operator["token"])
    table = ChaosTable(variant, 0, table_id, players, seats, spectator)
    table.tasks = [asyncio.create_task(x.run()) for x in [*seats, spectator]]
    return table


@pytest.mark.timeout(300)
async def test_the_proxy_reloaded_and_restarted_under_play(cluster: Cluster, tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    with LocalProxy([s.port for s in cluster.servers], tmp_path / "proxy") as proxy:
        run = ChaosRun(cluster, seed=34_001, name="proxy")  # its checks and report; our own tables, not its
        (run.operator,) = await quick_players(cluster, "pxop", 1)
        await cluster.make_operator(run.operator["id"])
        run.tables = [await _open(proxy, cluster, variant, run.operator) for variant in TABLES]
        pollers = [Poller(proxy.url, p["headers"]) for t in run.tables for p in t.players]
        polling = [asyncio.create_task(p.run()) for p in pollers]
        sockets = [*(s for t in run.tables for s in t.seats)]

        async def plays_on(what: str, reconnected: bool) -> float:
            """Every live table plays on, and (``reconnected``) every socket of it has connected again."""
            started, marks = loop.time(), {t.table_id: t.events for t in run.live()}
            before = {id(s): s.connects for s in sockets}
            watch = {id(t.spectator): len(t.spectator.connections) for t in run.tables}

            def done() -> bool:
                live = [t for t in run.tables if t.table_id in marks and not t.over]
                return all(t.events >= marks[t.table_id] + 8 and (not reconnected or (
                    all(s.connects > before[id(s)] for s in t.seats)
                    and len(t.spectator.connections) > watch[id(t.spectator)])) for t in live)

            await until(done, PLAY_BOUND, f"play and sockets to go on after {what}", cluster, run.state)
            return loop.time() - started

        await until(lambda: all(t.events >= 10 for t in run.tables), PLAY_BOUND, "play", cluster, run.state)
        live_at_faults = [len(run.live())]
        down_at = loop.time()
        proxy.stop()
        await asyncio.sleep(DOWN_SECONDS)
        proxy.start()
        up_at = loop.time()
        run.injected.append(f"nginx stopped (every connection dropped), started again {DOWN_SECONDS} s later")
        took = await plays_on("the restart", reconnected=True)
        run.held.append(f"restart: every socket reconnected and every table played on within {took:.1f} s")

        live_at_faults.append(len(run.live()))
        connects = sum(x.connects for x in sockets)
        proxy.reload()
        run.injected.append("nginx -s reload (the old worker drops its sockets after worker_shutdown_timeout)")
        took = await plays_on("the reload", reconnected=True)
        run.held.append(f"reload: every socket reconnected and every table played on within {took:.1f} s")
        cut_by_reload = sum(x.connects for x in sockets) - connects

        tasks = [task for t in run.tables for task in t.tasks]
        await until(lambda: all(task.done() for task in tasks), 240, "every game to end", cluster, run.state)
        for task in polling:  # before finish() stops the processes
            task.cancel()
        await asyncio.gather(*polling, return_exceptions=True)
        answers = [a for p in pollers for a in p.answers]
        failed = [(round(at - down_at, 2), what) for at, what in answers if not isinstance(what, int)]
        outside = [f for f in failed if not 0 <= f[0] <= up_at - down_at + AFTER_START_GRACE]
        statuses = sorted({what for _, what in answers if isinstance(what, int)})
        run.held.append(f"{len(answers)} polls of /api/me answered {statuses}; {len(failed)} failed, "
                        f"{len(outside)} of them outside the {DOWN_SECONDS} s nginx was down; "
                        f"{sum(p.retried for p in pollers)} retried once on a dropped connection")
        faults = await run.finish()
        assert faults == []
        assert live_at_faults == [len(TABLES)] * 2, f"tables in play when each fault came: {live_at_faults}"
        assert cut_by_reload, "no socket was dropped by the reload's old worker: no table was left to cut"
        assert outside == [], f"polls that failed outside the restart (s after the stop, answer): {outside}"
        assert statuses == [200], f"answers to GET /api/me through the proxy: {statuses}"
        assert not [line for line in proxy.errors().splitlines() if "[emerg]" in line or "[alert]" in line]
