"""One chaos scenario: three processes, live tables of every variant with seats on different processes, faults
injected one after another while they play, then every game played out and checked.

``ChaosRun`` keeps a table of each variant in play until the last fault (a game that ends early is replaced,
so every fault hits every variant mid-game), a player waiting in quick play (so the lobby's queue sizes are
checked too), an operator watching each table from a process that does not own it.  ``phase`` waits for a
seeded amount of play, injects a fault, waits until every table that was playing has played on (or ended)
and until the lobby of every process agrees with the truth, and records what was injected and what held.
``finish`` lets every game reach ``game_over``, stops the processes and returns what is wrong:

* each seat and spectator: every connection began with a snapshot and its table events have no gap
  (``sequence_faults``), and its last message was ``game_over``;
* coins conserved and each table's hands numbered 1..n, each settled once (``coin_faults``); no hand voided;
  nothing left in the journal to resume (every game ended);
* no table owned twice: every socket that saw a hand's result saw the same hand (id and wall commitment) as
  the database holds.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from sqlalchemy import func, select

from app.core.db import make_engine
from app.models import LiveTable
from tests.app.support.cluster_harness import (
    SEATS,
    VARIANT_NAMES,
    Cluster,
    RecordingSeat,
    Spectator,
    coin_faults,
    last_message,
    open_table_across,
    quick_players,
    sequence_faults,
    until,
)

OPTIONS = {"rounds": 1, "claim_seconds": 60, "discard_seconds": 120}
THINK = 0.03  # seconds a seat takes to answer: games last long enough for every fault, and spare the CPU
LOBBY_BOUND = 20.0  # seconds within which every process's lobby agrees with the truth after a fault
RECOVERY_BOUND = 90.0  # seconds within which every table plays on after a fault
QUEUED_VARIANT = "taipao"
REPORTS: list[str] = []  # printed at the end of the session (tests/chaos/conftest.py)


@dataclass
class ChaosTable:
    variant: str
    home: int
    table_id: str
    players: list[dict[str, Any]]
    seats: list[RecordingSeat]
    spectator: Spectator
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return any(s.game_over is not None for s in self.seats) or self.spectator.game_over

    @property
    def events(self) -> int:
        return max(s.events for s in self.seats)

    def sockets(self) -> list[tuple[str, list[list[dict[str, Any]]]]]:
        return [(f"seat {i}", s.connections) for i, s in enumerate(self.seats)] + [
            ("spectator", self.spectator.connections)]


class ChaosRun:
    def __init__(self, cluster: Cluster, seed: int, name: str) -> None:
        self.cluster, self.seed, self.name = cluster, seed, name
        self.rng = random.Random(seed)
        self.tables: list[ChaosTable] = []
        self.injected: list[str] = []
        self.held: list[str] = []
        self.operator: dict[str, Any] = {}
        self.waiting: dict[str, Any] = {}  # the player queued for quick play
        self._supplying = True
        self._supplier: asyncio.Task[None] | None = None
        self._made = 0
        self.open_waits: dict[str, int] = {}  # failed attempts to open a table (a process or service down)
        self.queue_retries = 0  # quick-play joins answered 5xx (and retried)

    # -- set-up --------------------------------------------------------------------------------------------

    async def start(self) -> None:
        self.operator, self.waiting = await quick_players(self.cluster, f"{self.name}x", 2)
        await self.cluster.make_operator(self.operator["id"])
        await self._queue()
        for home, variant in enumerate(VARIANT_NAMES):
            await self._open(variant, home)
        self._supplier = asyncio.create_task(self._supply())

    async def _open(self, variant: str, home: int) -> None:
        """A table opened on process ``home``: three players seated through three processes, bots in the
        rest; each seat connects first to the process it sat through, the operator to the next one."""
        urls = self.cluster.urls
        self._made += 1
        tag = f"{self.name}{self._made}"
        players = await quick_players(self.cluster, tag, 3)
        table_id = await open_table_across(self.cluster, players, variant, home, OPTIONS)
        if SEATS[variant] > len(players):
            async with httpx.AsyncClient(timeout=30) as client:
                filled = await client.post(f"{urls[home]}/api/tables/{table_id}/bots", headers=players[0]["headers"])
            assert filled.status_code == 200, filled.text
        seats = [RecordingSeat(urls[(home + i) % 3:] + urls[:(home + i) % 3], table_id, p["token"], smart=True,
                               think=THINK) for i, p in enumerate(players)]
        watch_from = (home + 1) % 3
        spectator = Spectator(urls[watch_from:] + urls[:watch_from], table_id, self.operator["token"])
        table = ChaosTable(variant, home, table_id, players, seats, spectator)
        table.tasks = [asyncio.create_task(x.run()) for x in [*seats, spectator]]
        self.tables.append(table)

    async def _supply(self) -> None:
        """Until the last fault, a game of a variant that ended is replaced by a new one."""
        while self._supplying:
            for variant in VARIANT_NAMES:
                running = [i for i, s in enumerate(self.cluster.servers) if s.proc is not None and s.proc.poll() is None]
                if not self.live(variant) and running:
                    try:
                        await self._open(variant, running[self._made % len(running)])
                    except Exception as exc:  # a process or a service is down: next round
                        self.open_waits[type(exc).__name__] = self.open_waits.get(type(exc).__name__, 0) + 1
            await asyncio.sleep(0.2)

    def live(self, variant: str | None = None) -> list[ChaosTable]:
        return [t for t in self.tables if not t.over and (variant is None or t.variant == variant)]

    # -- one fault -----------------------------------------------------------------------------------------

    async def phase(self, name: str, inject: Callable[[], Awaitable[str]]) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(3):  # a game may end meanwhile: until a table of every variant is in play
            await self.mid_game()
            playing = {t.table_id: t.events for t in self.live()}
            variants = sorted({t.variant for t in self.live()})
            if len(variants) == len(VARIANT_NAMES):
                break
        started = loop.time()
        what = await inject()
        self.injected.append(f"{name}: {what} (tables of {', '.join(variants)} mid-game)")
        progressed = 8

        def played_on() -> bool:
            return all(t.over or t.events >= playing[t.table_id] + progressed
                       for t in self.tables if t.table_id in playing)

        await until(played_on, RECOVERY_BOUND, f"play to go on after {name}", self.cluster, self.state)
        resumed = loop.time() - started
        agreed, queued = await self.lobby_agrees()
        self.held.append(f"{name}: {len(playing)} tables played on {resumed:.1f} s after the fault began; "
                         f"the lobby of every process agreed {agreed:.1f} s later (tables, seats, quick-play "
                         f"queue: {queued} waiting)")
        if not queued:  # the queue lost the player (it lives in Redis): it must at least be able to queue again
            await self._queue()
            self.held.append(f"{name}: the quick-play player had lost its place in the queue; it queued again")

    async def _queue(self) -> None:
        """Queue the waiting player; a 5xx is retried for a while, as a client would (right after a Redis
        restart a pooled connection may still be the dead one)."""
        async with httpx.AsyncClient(timeout=30) as client:
            for _ in range(20):
                queued = await client.post(f"{self.cluster.urls[1]}/api/rooms/beginner/queue",
                                           headers=self.waiting["headers"], json={"variant": QUEUED_VARIANT})
                if queued.status_code < 500:
                    break
                self.queue_retries += 1
                await asyncio.sleep(0.5)
            assert queued.status_code == 202, queued.text

    async def mid_game(self) -> None:
        """A seeded amount of play on a table of every variant."""
        k = self.rng.randint(3, 20)
        await until(lambda: all(self.live(v) for v in VARIANT_NAMES), 60, "a live table of every variant", self.cluster)
        marks = {t.table_id: t.events for t in self.live()}
        await until(lambda: all(t.over or t.events >= marks[t.table_id] + k
                                for t in self.tables if t.table_id in marks), 60, "play", self.cluster, self.state)

    def state(self) -> object:
        return [(t.variant, t.table_id, t.over, t.events, [(s.connects, s.closes[-3:]) for s in t.seats])
                for t in self.tables if not t.over]

    # -- the lobby -----------------------------------------------------------------------------------------

    async def lobby_agrees(self) -> tuple[float, int]:
        """Seconds until every running process's lobby snapshot lists exactly the tables still playing (with
        their seats) and the quick-play queue sizes match the queue (``GET /api/me/queue``); and how many
        players that queue holds."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        last: object = None
        while loop.time() - started < LOBBY_BOUND:
            truth = await self._lobby_truth()
            if truth is None:  # the queue could not be read (Redis is still coming back): look again
                await asyncio.sleep(0.25)
                continue
            ours = {t.table_id for t in self.tables}
            views = [await _lobby_view(s.url, self.operator["token"], ours)
                     for s in self.cluster.servers if s.proc is not None and s.proc.poll() is None]
            last = (truth, views)
            if all(v == truth for v in views) and views:
                return loop.time() - started, truth[1]
            await asyncio.sleep(0.25)
        raise AssertionError(f"the lobby did not agree within {LOBBY_BOUND} s: {last}")

    async def _lobby_truth(self) -> tuple[dict[str, tuple[str, list[int | None]]], int] | None:
        tables = {t.table_id: ("playing", [p["id"] for p in t.players]) for t in self.tables if not t.over}
        try:
            async with httpx.AsyncClient(timeout=10) as client:
                mine = await client.get(f"{self.cluster.urls[0]}/api/me/queue", headers=self.waiting["headers"])
        except httpx.HTTPError:
            return None
        if mine.status_code != 200:
            return None
        return tables, int(bool(mine.json()["queued"]))

    # -- the end -------------------------------------------------------------------------------------------

    async def finish(self, bound: float = 240) -> list[str]:
        """Every game to ``game_over``; the processes drained; what is wrong (nothing, if all held)."""
        self._supplying = False
        if self._supplier is not None:
            await self._supplier
        tasks = [task for t in self.tables for task in t.tasks]
        try:
            await until(lambda: all(task.done() for task in tasks), bound, "every game to end on every socket",
                        self.cluster, self.state)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        logs = ""
        for server in self.cluster.servers:
            if server.proc is not None and server.proc.poll() is None:
                server.signal(signal.SIGTERM)
                await server.wait(30)
            logs += server.tail(10**8)
        faults = self.socket_faults() + await self.ledger_faults()
        games = len(self.tables)
        if self.queue_retries:
            self.held.append(f"joining the quick-play queue answered 5xx {self.queue_retries} times (retried)")
        if self.open_waits:
            self.held.append(f"new tables were refused while a process or service was down: {self.open_waits}")
        self.held.append(f"end: {games} games reached game_over on every seat and spectator; gap-free or resynced; "
                         f"coins conserved; each hand settled once; {logs.count('resumed hand')} resumes from the journal, "
                         f"{logs.count('lease lost')} leases found lost, {logs.count('is no longer current')} "
                         "journal writes refused by the fence")
        REPORTS.append(self.report(faults))
        return faults

    def socket_faults(self) -> list[str]:
        faults = []
        for t in self.tables:
            for who, connections in t.sockets():
                faults += [f"{t.variant} {t.table_id} {who}: {f}" for f in sequence_faults(connections)]
                if last_message(connections) != "game_over":
                    seat = next((s for s in t.seats if s.connections is connections), None)
                    closes = seat.closes if seat is not None else t.spectator.closes
                    faults.append(f"{t.variant} {t.table_id} {who}: the last message was "
                                  f"{last_message(connections)}, not game_over (closes {closes})")
        return faults

    async def ledger_faults(self) -> list[str]:
        coins, hands = await self.cluster.ledger()
        faults = coin_faults(coins, hands)
        stored = {(r.table_id, r.result["hand_no"]): r for r in hands}
        for t in self.tables:
            seen: dict[int, set[tuple[Any, str]]] = {}
            for _who, connections in t.sockets():
                for m in (m for c in connections for m in c if m["type"] == "hand_result"):
                    seen.setdefault(m["hand_no"], set()).add((m["hand_id"], m["commitment"]))
                    if m["void"]:
                        faults.append(f"{t.table_id}: hand {m['hand_no']} was voided")
            for hand_no, results in seen.items():
                if len(results) != 1:  # two owners played the hand
                    faults.append(f"{t.table_id}: hand {hand_no} had results {results}")
                row = stored.get((t.table_id, hand_no))
                if row is None:
                    faults.append(f"{t.table_id}: hand {hand_no} was shown settled but is not in the database")
        engine = make_engine(self.cluster.database_url)
        try:
            async with engine.connect() as conn:
                left = (await conn.execute(select(func.count()).select_from(LiveTable))).scalar_one()
        finally:
            await engine.dispose()
        if left:
            faults.append(f"{left} games left in the journal after every game ended")
        return faults

    async def __aenter__(self) -> ChaosRun:
        await self.start()
        return self

    async def __aexit__(self, exc_type: object, exc: BaseException | None, _tb: object) -> None:
        if exc is not None:  # what was injected and what held so far, and where it stopped
            REPORTS.append(self.report([f"stopped: {str(exc).splitlines()[0][:300]}"]))
            self._supplying = False

    def report(self, faults: list[str]) -> str:
        lines = [f"[chaos] {self.name} (seed {self.seed}): {'HELD' if not faults else 'FAILED'}"]
        lines += [f"  injected  {line}" for line in self.injected]
        lines += [f"  held      {line}" for line in self.held]
        lines += [f"  FAULT     {line}" for line in faults[:20]]
        return "\n".join(lines)


async def _lobby_view(url: str, token: str, ours: set[str]) -> object:
    """What one process's lobby snapshot says of our tables and the quick-play queue (None: unreachable)."""
    ws_url = url.replace("http", "ws", 1) + "/ws/lobby"
    try:
        async with websockets.connect(ws_url, open_timeout=5,
                                      additional_headers={"Authorization": f"Bearer {token}"}) as ws:
            snapshot = json.loads(await asyncio.wait_for(ws.recv(), 5))
    except (OSError, TimeoutError, websockets.WebSocketException):
        return None
    tables = {t["id"]: (t["status"], [s["user_id"] for s in t["seats"] if not s["bot"]])
              for t in snapshot["tables"] if t["id"] in ours}
    queued = sum(q["queued"] for q in snapshot.get("queues", [])
                 if q["room"] == "beginner" and q["variant"] == QUEUED_VARIANT)
    return tables, queued
