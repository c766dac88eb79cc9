"""Issue 34: a Redis blip changes nothing a player sees.

Two real server processes host tables (seats on both, so some sockets are relayed) with a private Postgres
and a private Redis (tests/chaos/services.py; the processes reach Redis through a ``FaultProxy``) while every
player polls ``GET /api/me`` on both processes.  Then (1) Redis is stopped for 5 s and comes back empty, or
(2) every chunk to and from Redis is delayed.  A scenario fails on any 5xx, any traceback in a process's log,
any table whose owner changes, any seated socket that is closed (or reconnects) before its game is over,
and on ``/api/me`` not naming the player's table while its game runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.support.cluster_harness import (
    Cluster,
    RecordingSeat,
    open_table_across,
    quick_players,
    running_cluster,
    sequence_faults,
)
from tests.app.support.live_server import ServerProcess
from tests.chaos.scenario import REPORTS
from tests.chaos.services import FaultProxy, PrivatePostgres, PrivateRedis

# Long prompts and slow seats: every game outlives the fault; two rounds (圈) keep them going.
OPTIONS = {"rounds": 2, "claim_seconds": 60, "discard_seconds": 120}
THINK = 0.15
TABLES = 4  # two opened on each process
OUTAGE_SECONDS = 5.0
AFTER_SECONDS = 8.0  # watched after Redis answers again: past the take-over grace and a few renewals
POLL_SECONDS = 0.25


@dataclass
class Blip:
    cluster: Cluster
    seats: list[tuple[str, RecordingSeat]] = field(default_factory=list)  # (table id, seat)
    players: list[tuple[dict[str, Any], str, RecordingSeat]] = field(default_factory=list)
    polls: int = 0
    faults: list[str] = field(default_factory=list)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    polling: bool = True

    async def start(self) -> None:
        for i in range(TABLES):
            players = await quick_players(self.cluster, f"blip{i}", 3)
            table_id = await open_table_across(self.cluster, players, "tiantai", i % 2, OPTIONS)
            urls = self.cluster.urls
            for j, p in enumerate(players):
                seat = RecordingSeat([urls[(i + j) % 2]], table_id, p["token"], smart=True, think=THINK)
                self.seats.append((table_id, seat))
                self.players.append((p, table_id, seat))
                self.tasks.append(asyncio.create_task(seat.run()))
        await self._until(lambda: all(s.events >= 3 for _t, s in self.seats), 60, "every table to play")
        self.tasks += [asyncio.create_task(self._poll(p, t, s, k)) for k, (p, t, s) in enumerate(self.players)]

    async def _until(self, predicate: Any, seconds: float, what: str) -> None:
        for _ in range(int(seconds / 0.05)):
            if predicate():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}\n{self.cluster.logs()}")

    async def _poll(self, player: dict[str, Any], table_id: str, seat: RecordingSeat, k: int) -> None:
        """The player's ``GET /api/me``, on each process in turn: never a 5xx; its table while the game runs."""
        # The pool drops an idle connection after 2 s, before the server does (uvicorn: 5 s).  At httpx's
        # default (5 s, the same) a GET could go out on a connection the server was closing that very moment
        # and fail with RemoteProtocolError, the client's own race (a browser resends on a reused connection
        # that closed; behind the shipped proxy there is no upstream keep-alive): once in ~800 polls here.
        async with httpx.AsyncClient(timeout=10, limits=httpx.Limits(keepalive_expiry=2.0)) as client:
            while self.polling:
                url = self.cluster.urls[(k + self.polls) % 2]
                playing = seat.game_over is None
                try:
                    me = await client.get(f"{url}/api/me", headers=player["headers"])
                except httpx.HTTPError as exc:
                    self.faults.append(f"GET /api/me on {url}: {type(exc).__name__}")
                else:
                    self.polls += 1
                    if me.status_code >= 500:
                        self.faults.append(f"GET /api/me on {url}: {me.status_code} {me.text[:200]}")
                    elif me.status_code != 200:
                        self.faults.append(f"GET /api/me on {url}: {me.status_code}")
                    elif playing and seat.game_over is None and (me.json().get("table") or {}).get("table_id") != table_id:
                        self.faults.append(f"GET /api/me on {url} during the game named {me.json().get('table')}")
                await asyncio.sleep(POLL_SECONDS)

    async def owners(self) -> dict[str, int | None]:
        return {t: await self.cluster.owner_pid(t) for t in sorted({t for t, _s in self.seats})}

    async def finish(self, before: dict[str, int | None]) -> list[str]:
        self.polling = False
        after = await self.owners()
        for table_id, pid in before.items():
            over = all(s.game_over is not None for t, s in self.seats if t == table_id)
            if pid is None:
                keys = sorted(k.decode() async for k in self.cluster.redis.scan_iter(f"{self.cluster.prefix}:*"))
                self.faults.append(f"table {table_id} had no owner before the fault: {keys}")
            elif after[table_id] != pid and not over:
                self.faults.append(f"table {table_id} changed owner: {pid} -> {after[table_id]}")
        for table_id, seat in self.seats:
            self.faults += [f"table {table_id}: {f}" for f in sequence_faults(seat.connections)]
            closed_early = [c for c in seat.closes if seat.game_over is None] or seat.connects != 1
            if closed_early:
                self.faults.append(f"table {table_id}: a seat's socket was closed {seat.closes} "
                                   f"({seat.connects} connections) before its game ended")
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for i, server in enumerate(self.cluster.servers):
            self.faults += [f"server {i}: {line}" for line in _tracebacks(server)]
            for needle in ("took over", "lease lost", "is no longer current"):
                if needle in server.tail(10**8):
                    self.faults.append(f"server {i} logged {needle!r}")
        return self.faults


def _tracebacks(server: ServerProcess) -> list[str]:
    """Every log line that carries a traceback (the JSON log's ``exc``), or a plain one."""
    found = []
    for line in server.tail(10**8).splitlines():
        with contextlib.suppress(ValueError):
            record = json.loads(line)
            if isinstance(record, dict) and record.get("exc"):
                found.append(f"{record.get('logger')}: {record.get('msg') or record.get('message')}")
                continue
        if "Traceback (most recent call last)" in line:
            found.append(line[:200])
    return found


@pytest.fixture
async def proxy(private_redis: PrivateRedis) -> AsyncIterator[FaultProxy]:
    proxy = FaultProxy(private_redis.port, seed=34)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.stop()


@pytest.fixture
async def cluster(private_postgres: PrivatePostgres, proxy: FaultProxy, tmp_path: Path) -> AsyncIterator[Cluster]:
    async with running_cluster(private_postgres.url, proxy.url, tmp_path, n=2) as running:
        yield running


@pytest.mark.timeout(240)
async def test_redis_stopped_for_5_s_changes_nothing_a_player_sees(cluster: Cluster,
                                                                   private_redis: PrivateRedis) -> None:
    blip = Blip(cluster)
    await blip.start()
    before = await blip.owners()
    loop = asyncio.get_running_loop()
    started = loop.time()
    await private_redis.restart(OUTAGE_SECONDS)  # killed; back on the same port, empty (no persistence)
    await asyncio.sleep(AFTER_SECONDS)
    faults = await blip.finish(before)
    REPORTS.append(f"Redis stopped {OUTAGE_SECONDS:.0f} s and restarted empty ({loop.time() - started:.1f} s "
                   f"watched): {len(blip.seats)} seats on {len(before)} tables, {blip.polls} GET /api/me; "
                   f"faults: {faults or 'none'}")
    assert faults == []


@pytest.mark.timeout(240)
async def test_latency_on_redis_changes_nothing_a_player_sees(cluster: Cluster, proxy: FaultProxy) -> None:
    blip = Blip(cluster)
    await blip.start()
    before = await blip.owners()
    proxy.delay, proxy.jitter = 0.05, 0.15  # 50-200 ms on every chunk, both ways
    await asyncio.sleep(OUTAGE_SECONDS * 2)
    proxy.delay = proxy.jitter = 0.0
    await asyncio.sleep(AFTER_SECONDS / 2)
    faults = await blip.finish(before)
    REPORTS.append(f"50-200 ms added to every chunk to and from Redis for {OUTAGE_SECONDS * 2:.0f} s: "
                   f"{len(blip.seats)} seats on {len(before)} tables, {blip.polls} GET /api/me; "
                   f"faults: {faults or 'none'}")
    assert faults == []
