"""Helpers for the table tests: an app with a FakeClock, and in-process WebSocket clients.

``SeatClient`` speaks ASGI to the app directly (same event loop, no network, no threads), so a test can
advance the fake clock and read what each seat received, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import FastAPI

from app.core.config import Settings
from app.main import create_app
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.play.clock import FakeClock
from app.tables.settings import TableSettings
from engine.bots import isolation
from tests.app.conftest import no_cookies

PASSWORD = "password1"
FAST = {"join_seconds": 30.0, "hand_pause_seconds": 0.0, "bot_delay_seconds": 0.0,
        "auto_play_delay_seconds": 0.0, "claim_hold_seconds": 0.0, "grace_seconds": 0.0,
        "rate_limit_messages": 100_000, "resyncs_per_window": 100_000,  # its clients resync before each discard
        # The fake clock moves while real database I/O is pending, so timing tests would race the journal;
        # durable tables have their own tests (test_journal.py, test_durable_restart.py).
        "durable": False}


class Closed(Exception):
    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"closed {code} {reason}")
        self.code, self.reason = code, reason


@dataclass
class Harness:
    app: FastAPI
    client: httpx.AsyncClient
    runtime: ProcessRuntime
    clock: FakeClock

    async def register(self, name: str) -> dict[str, Any]:
        response = await self.client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert response.status_code == 201, response.text
        body = response.json()
        return {"id": body["user"]["id"], "token": body["access_token"],
                "headers": {"Authorization": f"Bearer {body['access_token']}"}}

    async def coins(self, player: dict[str, Any]) -> int:
        return (await self.client.get("/api/me", headers=player["headers"])).json()["coins"]

    async def coin_table(self, variant: str, players: list[dict[str, Any]], **options: Any) -> str:
        response = await self.client.post("/api/rooms/beginner/tables", headers=players[0]["headers"],
                                          json={"variant": variant, "options": options})
        assert response.status_code == 201, response.text
        table_id = response.json()["id"]
        for p in players[1:]:
            sat = await self.client.post(f"/api/tables/{table_id}/sit", headers=p["headers"])
            assert sat.status_code == 200, sat.text
        return table_id

    async def connect(self, table_id: str, player: dict[str, Any]) -> SeatClient:
        seat = SeatClient(self.app, f"/ws/table/{table_id}", token=player["token"])
        seat.clock = self.clock
        await seat.connect()
        return seat

    async def connect_path(self, path: str, player: dict[str, Any]) -> SeatClient:
        """Any other socket of the app (e.g. ``/ws/lobby``) for ``player``."""
        seat = SeatClient(self.app, path, token=player["token"])
        seat.clock = self.clock
        await seat.connect()
        return seat

    async def settle_loop(self, turns: int = 50) -> None:
        """Let the event loop run queued work (timers due now, actor commands)."""
        for _ in range(turns):
            await asyncio.sleep(0)

    async def settle_until_quiet(self, clients: Sequence[SeatClient], rounds: int = 200) -> None:
        """Settle until two rounds in a row (each ``settle_loop`` and 1 ms of real time, for work in worker
        threads such as SQLite's) bring the clients no new message: a test that stamps messages with the fake
        clock must not move it while a reply is still on its way."""
        seen, quiet = -1, 0
        for _ in range(rounds):
            await self.settle_loop()
            await asyncio.sleep(0.001)
            now = sum(len(c.received) for c in clients)
            quiet = quiet + 1 if now == seen else 0
            if quiet == 2:
                return
            seen = now


@contextlib.asynccontextmanager
async def harness(settings: Settings, **table_settings: Any) -> AsyncIterator[Harness]:
    clock = FakeClock()
    runtime = ProcessRuntime(TableSettings(_env_file=None, **{**FAST, **table_settings}),  # type: ignore[call-arg]
                           clock=clock)
    app = create_app(settings, table_runtime=runtime)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", cookies=no_cookies()) as client:
            yield Harness(app, client, runtime, clock)


class SeatClient:
    """A WebSocket client over ASGI.  ``received`` keeps every message, in order.  ``token``: the session
    token, sent as an Authorization header (never in the URL); ``query``: e.g. ``ticket=…``."""

    def __init__(self, app: FastAPI, path: str, query: str = "", *, token: str | None = None,
                 origin: str | None = None) -> None:
        self.app, self.path, self.query = app, path, query
        self.headers = [(b"host", b"test")]
        if token is not None:
            self.headers.append((b"authorization", f"Bearer {token}".encode()))
        if origin is not None:
            self.headers.append((b"origin", origin.encode()))
        self.to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.received: list[dict[str, Any]] = []
        self.clock: FakeClock | None = None
        self.times: list[float] = []  # fake-clock time each message was sent to us (when ``clock`` is set)
        self.closed: Closed | None = None
        self.task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        scope = {"type": "websocket", "path": self.path, "raw_path": self.path.encode(), "root_path": "",
                 "query_string": self.query.encode(), "headers": self.headers, "scheme": "ws",
                 "server": ("test", 80), "client": ("127.0.0.1", 5000), "subprotocols": [],
                 "asgi": {"version": "3.0", "spec_version": "2.3"}}
        self.task = asyncio.create_task(self.app(scope, self.to_app.get, self._arrive))  # type: ignore[arg-type]
        await self.to_app.put({"type": "websocket.connect"})
        first = await asyncio.wait_for(self.from_app.get(), 5)
        if first["type"] == "websocket.close":
            self.closed = Closed(first.get("code", 1000), first.get("reason", ""))
            raise self.closed
        assert first["type"] == "websocket.accept", first

    async def _arrive(self, message: dict[str, Any]) -> None:
        """The app's ``send``: stamp the fake-clock time now, not when the test gets round to reading it."""
        if self.clock is not None:
            message = {**message, "_at": self.clock.now()}
        await self.from_app.put(message)

    async def send(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.to_app.put({"type": "websocket.receive", "text": text})

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        if self.closed:
            raise self.closed
        out = await asyncio.wait_for(self.from_app.get(), timeout)
        if out["type"] == "websocket.close":
            self.closed = Closed(out.get("code", 1000), out.get("reason", ""))
            raise self.closed
        message = json.loads(out["text"])
        self.received.append(message)
        if self.clock is not None:
            self.times.append(out.get("_at", self.clock.now()))
        return message

    async def recv_until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 5) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if pred(message):
                return message

    def stop_reading(self) -> None:
        """Make a pending or later ``recv`` raise Closed(1000) (stops a player task without cancelling it)."""
        self.from_app.put_nowait({"type": "websocket.close", "code": 1000, "reason": "test stop"})

    async def disconnect(self) -> None:
        await self.to_app.put({"type": "websocket.disconnect", "code": 1000})
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 5)


def is_type(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == kind


def is_event(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "event" and m["event"]["type"] == kind


def choose(prompt: dict[str, Any], rng: random.Random, concealed: list[str] | None = None,
           declare_rate: float = 0.01) -> dict[str, Any]:
    """A test player: always wins, often claims, sometimes declares, else discards its loneliest tile
    (with ``concealed``, its hand from a snapshot) or a random one."""
    actions = prompt["actions"]
    for kind in ("win", "kill_pig"):
        for a in actions:
            if a["kind"] == kind:
                return a
    claims = [a for a in actions if a["kind"] in ("pong", "kong", "chow")]
    if claims and rng.random() < 0.7:
        return rng.choice(claims)
    plain = [a for a in actions if a["kind"] == "discard" and not a.get("declare")]
    declared = [a for a in actions if a["kind"] == "discard" and a.get("declare")]
    if declared and rng.random() < declare_rate:
        return rng.choice(declared)
    if plain and concealed:
        counts = [0] * 34
        for t in concealed:
            if t[-1] in "mpsz":
                counts[index(t)] += 1
        return max(plain, key=lambda a: (isolation(counts, index(a["tile"])), rng.random())
                   if a["tile"][-1] in "mpsz" else (9, 0))
    passes = [a for a in actions if a["kind"] == "pass"]
    return rng.choice(plain or passes or actions)


async def answer_until(seat: SeatClient, kind: str, *, seed: int = 7, timeout: float = 30) -> dict[str, Any]:
    """Answer every prompt (a snapshot's too) with ``choose`` until a message of type ``kind`` arrives
    (``hand_result``, ``game_over``); returns it."""
    rng = random.Random(seed)
    while True:
        message = await seat.recv(timeout)
        prompt = message.get("prompt") if message["type"] == "snapshot" else message
        if prompt and prompt["type"] == "prompt":
            await seat.send({"type": "action", "v": prompt["v"], "action": choose(prompt, rng)})
        elif message["type"] == kind:
            return message


def index(tile: str) -> int:
    return "mpsz".index(tile[-1]) * 9 + int(tile[0]) - 1


@dataclass
class PlayLog:
    errors: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    game_over: dict[str, Any] | None = None
    acted: int = 0


async def play_to_the_end(seat: SeatClient, rng: random.Random, log: PlayLog, timeout: float = 30,
                          declare_rate: float = 0.01, *, stop_after: str | None = None) -> None:
    """Answer every prompt until game_over (then the socket closes), or until the first message of type
    ``stop_after`` (the socket stays open and what follows is left unread and unanswered).  Before a discard
    it asks for a snapshot (``resync``) to see its own hand, as a client that keeps no state would."""
    waiting: dict[str, Any] | None = None
    while True:
        try:
            message = await seat.recv(timeout)
        except Closed:
            return
        if message["type"] == "prompt" and message["kind"] == "turn":
            waiting = message
            await seat.send({"type": "resync"})
        elif message["type"] == "prompt":
            await seat.send({"type": "action", "v": message["v"], "action": choose(message, rng)})
            log.acted += 1
        elif message["type"] == "snapshot" and waiting and (message["prompt"] or {}).get("v") == waiting["v"]:
            me = message["view"]["players"][message["table"]["seat"]]
            action = choose(waiting, rng, me["concealed"], declare_rate)
            await seat.send({"type": "action", "v": waiting["v"], "action": action})
            log.acted += 1
            waiting = None
        elif message["type"] == "error":
            log.errors.append(message)
        elif message["type"] == "hand_result":
            log.results.append(message)
        elif message["type"] == "game_over":
            log.game_over = message
        if message["type"] == stop_after:
            return


def first_dealer_is(monkeypatch: Any, seat: int) -> None:
    """Walls whose commitment draws ``seat`` as a game's first dealer at 3 and at 4 seats alike (F-1,
    docs/rules/common.md#first-dealer): for tests written about one seat's first prompt.  Later hands' walls
    are drawn the same way, which changes nothing (only the first commitment draws)."""
    from app.tables import fairness
    from app.tables.play import flow
    from engine.match import draw_first_dealer

    def drawn() -> fairness.WallSeed:
        while True:
            wall = fairness.new_wall_seed()
            if draw_first_dealer(wall.commitment, 3) == seat == draw_first_dealer(wall.commitment, 4):
                return wall

    monkeypatch.setattr(flow, "new_wall_seed", drawn)
