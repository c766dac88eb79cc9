"""Real server processes and scripted WebSocket players for the restart / crash tests.

``ServerProcess`` runs ``python -m app`` (uvicorn, the SIGTERM drain, the journal) on a free loopback port
with a given database, so a test can ``kill -9`` it or send SIGTERM and start another on the same data.
``Seat`` is one player's socket that reconnects by itself, answers prompts from a simple policy and can
*hold* prompts of chosen kinds (leave them open), so a test can stop a table mid-claim-window or mid-分牌.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from engine.bots import isolation
from engine.hand import N_PLAY
from engine.tiles import NAMES
from tests.app.support.processes import starts_servers

ROOT = Path(__file__).resolve().parents[3]
SECRET = "restart-secret-" + "x" * 40
PASSWORD = "restart-pass-1"
# Long prompts (60 s claims, 120 s turns): a prompt a test holds open must not time out meanwhile.
# Four 圈: the game must outlast every stop and resume of a test.
OPTIONS = {"rounds": 4, "claim_seconds": 60, "discard_seconds": 120}
# Fast bots and pauses, but real rule timers (30 s turns): a held prompt must not time out during a test.
FAST_ENV = {
    "TABLE_CLAIM_HOLD_SECONDS": "0", "TABLE_HAND_PAUSE_SECONDS": "0.1", "TABLE_BOT_DELAY_SECONDS": "0.01",
    "TABLE_AUTO_PLAY_DELAY_SECONDS": "0.05", "TABLE_JOIN_SECONDS": "60", "TABLE_RESUME_JOIN_SECONDS": "60",
    "TABLE_GRACE_SECONDS": "0.2", "TABLE_RATE_LIMIT_MESSAGES": "100000", "TABLE_FREEZE_GC": "false",
    "SHUTDOWN_SECONDS": "8", "RESTART_PAUSE_SECONDS": "1",
    "REGISTER_PER_IP": "1000", "LOGIN_PER_IP": "1000",  # every test player registers from 127.0.0.1
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@starts_servers
class ServerProcess:
    def __init__(self, database_url: str, log_path: Path, **env: str) -> None:
        self.database_url, self.log_path, self.env = database_url, log_path, env
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, timeout: float = 60) -> None:
        self.port = self.port or free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLE_", "REDIS"))}
        env.update(FAST_ENV)
        env.update(DATABASE_URL=self.database_url, PORT=str(self.port), HOST="127.0.0.1", SECRET_KEY=SECRET,
                   ENVIRONMENT="development", REDIS_URL="", ADMIN_USERNAMES="", PYTHONUNBUFFERED="1")
        env.update(self.env)
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log,
                                     stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient() as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited {self.proc.returncode}: {self.tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.url}/healthz", timeout=2)).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.tail()}")

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    async def wait(self, timeout: float) -> int:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.proc.poll() is None:
            raise TimeoutError(f"server still running after {timeout} s")
        return self.proc.returncode

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def tail(self, n: int = 4000) -> str:
        return self.log_path.read_text(errors="replace")[-n:] if self.log_path.exists() else ""


async def register(base: str, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        response = await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert response.status_code == 201, response.text
        body = response.json()
        return {"id": body["user"]["id"], "name": name, "token": body["access_token"],
                "headers": {"Authorization": f"Bearer {body['access_token']}"}}


async def open_table(base: str, players: list[dict[str, Any]], variant: str, practice: bool = False,
                     **options: Any) -> str:
    options = {**OPTIONS, **options}
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        if practice:
            response = await client.post("/api/practice", headers=players[0]["headers"],
                                         json={"variant": variant, "options": options})
            assert response.status_code in (200, 201), response.text
            return str(response.json()["id"])
        response = await client.post("/api/rooms/beginner/tables", headers=players[0]["headers"],
                                     json={"variant": variant, "options": options})
        assert response.status_code == 201, response.text
        table_id = str(response.json()["id"])
        for p in players[1:]:
            sat = await client.post(f"/api/tables/{table_id}/sit", headers=p["headers"])
            assert sat.status_code == 200, sat.text
        return table_id


def _key(actions: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


TABLE_EVENTS = {"hand_start", "presence", "auto_play", "hand_void"}  # the rest are the engine's (with a seq)
WINS = {"win", "kill_pig"}


@dataclass
class Seat:
    """One player's socket.  ``servers`` are the base URLs it may connect to (it tries them in turn).

    ``trace`` keeps, per connection, every snapshot and engine event in the order received, so a test can
    check them against the settled hand's replay (``tests.app.support.restart_checks``).  A held prompt is
    *current* while no engine event of its hand arrived after it: only then is the table waiting on it.
    """

    servers: list[str]
    table_id: str
    token: str
    never_win: bool = False  # pass every win (a 台炮 hand then reaches 分牌)
    smart: bool = False  # keep the hand ready when a discard can (the prompt's hints), pass claims: 分牌 prompts
    hold: set[str] = field(default_factory=set)  # prompt kinds to leave open (while armed)
    think: float = 0.0  # seconds before answering a prompt
    held: dict[str, Any] | None = None
    commitments: dict[int, str] = field(default_factory=dict)  # hand_no -> commitment seen
    results: dict[int, dict[str, Any]] = field(default_factory=dict)  # hand_no -> hand_result
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    prompts_after_reconnect: list[dict[str, Any]] = field(default_factory=list)
    notices: list[dict[str, Any]] = field(default_factory=list)  # server_restarting
    closes: list[int] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    connects: int = 0
    done: bool = False
    game_over: dict[str, Any] | None = None
    hand_no: int = 0
    events: int = 0  # table events received (any hand)
    trace: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)  # (connection, kind, message)
    last_engine_v: int = 0  # v of the last engine event received (any connection)

    async def run(self) -> None:
        attempt = 0
        while not self.done:
            base = self.servers[attempt % len(self.servers)].replace("http", "ws", 1)
            attempt += 1
            try:
                async with websockets.connect(f"{base}/ws/table/{self.table_id}", max_size=2**22, open_timeout=10,
                                              additional_headers={"Authorization": f"Bearer {self.token}"}) as ws:
                    self.connects += 1
                    await self._read(ws)
                    self.closes.append(ws.close_code or 0)
            except (TimeoutError, OSError, websockets.WebSocketException) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                if code is not None:
                    self.closes.append(code)
            if self.game_over is not None or (self.closes and self.closes[-1] in (1000, 4003, 4004)):
                return
            await asyncio.sleep(0.2)

    def hold_is_current(self) -> bool:
        """The held prompt is still open: nothing of its hand happened since (the table waits on it)."""
        held = self.held
        return (held is not None and held["v"] >= self.last_engine_v and held["hand_no"] == self.hand_no
                and held["hand_no"] not in self.results)

    async def _read(self, ws: Any) -> None:
        fresh = True
        conn = self.connects
        async for raw in ws:
            if self.done:
                return
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "snapshot":
                self.snapshots.append(msg)
                self.trace.append((conn, "snapshot", msg))
                self.hand_no = msg["table"]["hand_no"]
                if msg.get("commitment"):
                    self.commitments.setdefault(self.hand_no, msg["commitment"])
                if msg.get("prompt"):
                    await self._prompt(ws, msg["prompt"], fresh)
                    fresh = False
            elif kind == "prompt":
                await self._prompt(ws, msg, fresh)
                fresh = False
            elif kind == "event":
                event = msg["event"]
                if event["type"] != "hand_start":
                    self.events += 1
                if event["type"] == "hand_start":
                    self.hand_no = event["hand_no"]
                    self.commitments.setdefault(self.hand_no, event["commitment"])
                elif event["type"] not in TABLE_EVENTS:
                    self.trace.append((conn, "event", msg))
                    self.last_engine_v = msg["v"]
            elif kind == "hand_result":
                self.results[msg["hand_no"]] = msg
            elif kind == "server_restarting":
                self.notices.append(msg)
            elif kind == "game_over":
                self.game_over = msg
            elif kind == "error":
                self.errors.append(msg)

    async def _prompt(self, ws: Any, prompt: dict[str, Any], fresh: bool) -> None:
        if fresh:
            self.prompts_after_reconnect.append(prompt)
        # a held prompt that timed out, or whose hand moved on, gives way to the next one of its kind
        if prompt["kind"] in self.hold and (self.held is None or self.held["v"] == prompt["v"]
                                            or not self.hold_is_current()):
            self.held = prompt
            return
        if self.think:
            await asyncio.sleep(self.think)
        with contextlib.suppress(websockets.ConnectionClosed):  # read on: what came before the close counts
            await ws.send(json.dumps({"type": "action", "v": prompt["v"], "action": self.choose(prompt)}))

    def choose(self, prompt: dict[str, Any]) -> dict[str, Any]:
        actions = prompt["actions"]
        offered = [a for a in actions if a["kind"] not in WINS or not self.never_win]
        wins = [a for a in offered if a["kind"] in WINS]
        if wins:
            return wins[0]
        plain = [a for a in offered if a["kind"] == "discard" and not a.get("declare")]
        passes = [a for a in offered if a["kind"] == "pass"]
        if self.smart:
            if not plain:
                return (passes or offered)[0]
            return _keep_ready(plain, (prompt.get("hints") or {}).get("discard_waits") or [])
        if plain:
            return plain[-1]
        return passes[0] if passes else next(a for a in offered)

    def same_prompt(self, other: dict[str, Any]) -> bool:
        """The held prompt and ``other`` offer the same actions at the same point of the same hand."""
        assert self.held is not None
        return same_prompt(self.held, other)


def same_prompt(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Two prompts offer the same actions at the same point of the same hand."""
    return (one["kind"], one["hand_no"], _key(one["actions"])) == (
        other["kind"], other["hand_no"], _key(other["actions"]))


def _keep_ready(plain: list[dict[str, Any]], discard_waits: list[dict[str, Any]]) -> dict[str, Any]:
    """The discard that keeps the hand ready with the most waits (the prompt's hints); else the loneliest of
    the distinct tiles offered (the offered discards are the hand's distinct tiles: pairs cannot be seen)."""
    waits = {d["tile"]: len(d["waits"]) for d in discard_waits}
    ready = [a for a in plain if a["tile"] in waits]
    if ready:
        return max(ready, key=lambda a: waits[a["tile"]])
    counts = [0] * len(NAMES)
    playable = [a for a in plain if a["tile"] in NAMES[:N_PLAY]]
    for a in playable:
        counts[NAMES.index(a["tile"])] += 1
    if not playable:
        return plain[-1]
    return max(playable, key=lambda a: isolation(counts, NAMES.index(a["tile"])))
