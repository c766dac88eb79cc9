"""Several real server processes on one Postgres and one Redis, and sockets that record every message.

Shared by the tests of a table's last words across processes (``test_cluster_last_words``) and the chaos
suite (``tests/chaos``).  ``running_cluster`` starts N processes (the first migrates, alone); a
``RecordingSeat`` is a ``live_server.Seat`` that keeps each connection's messages, and a ``Spectator`` an
operator's socket that does the same; ``sequence_faults`` says what is wrong with such a record: a table
event whose number ``v`` does not follow the last one of its connection (a lost message) or a connection
that did not begin with a snapshot (a resync).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from redis.asyncio import Redis
from sqlalchemy import insert, select, update

from app.core.db import make_engine, make_sessionmaker
from app.models import Hand, User
from tests.app.conftest import reset_database
from tests.app.support.live_server import Seat, ServerProcess, register
from tests.app.support.processes import starts_servers

GRANT = 50_000  # coins each new account starts with
# Short leases so a take-over comes quickly; renewals every second are still plenty on a loaded machine.
CLUSTER_ENV = {"LEASE_SECONDS": "3", "TAKEOVER_SCAN_SECONDS": "1", "LOG_FORMAT": "json"}
VARIANT_NAMES = ("tiantai", "taipao", "taiwan")
SEATS = {"tiantai": 3, "taipao": 4, "taiwan": 4}  # docs/rules/common.md#seats


async def owner_pid(redis: Redis, prefix: str, table_id: str) -> int | None:
    """The pid of the process holding the table's lease (its holder id is host-pid-random), or None."""
    owner = await redis.get(f"{prefix}:lease:{table_id}")
    return int(owner.decode().split("-")[-2]) if owner else None


async def ledger(database_url: str) -> tuple[dict[int, int], list[Any]]:
    """Every account's coins, and every settled hand (table, seats, result, settlement)."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            coins = dict((await conn.execute(select(User.id, User.coins))).all())
            hands = (await conn.execute(select(Hand.table_id, Hand.seats, Hand.result, Hand.settlement))).all()
    finally:
        await engine.dispose()
    return coins, list(hands)


async def forget_keys(redis: Redis, prefix: str) -> None:
    """Delete a test's own keys (``{prefix}:*``) from the shared Redis."""
    keys = [k async for k in redis.scan_iter(f"{prefix}:*")]
    if keys:
        await redis.delete(*keys)


@dataclass
class Cluster:
    servers: list[ServerProcess]
    redis: Redis
    prefix: str
    database_url: str

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    def logs(self) -> str:
        return "\n".join(f"--- server {i} (port {s.port}) ---\n{s.tail(3000)}" for i, s in enumerate(self.servers))

    async def owner_pid(self, table_id: str) -> int | None:
        return await owner_pid(self.redis, self.prefix, table_id)

    def server_of(self, pid: int | None) -> ServerProcess | None:
        return next((s for s in self.servers if s.proc is not None and s.proc.pid == pid), None)

    async def ledger(self) -> tuple[dict[int, int], list[Any]]:
        return await ledger(self.database_url)

    async def make_operator(self, user_id: int) -> None:
        engine = make_engine(self.database_url)
        try:
            async with engine.begin() as conn:
                await conn.execute(update(User).where(User.id == user_id).values(role="operator"))
        finally:
            await engine.dispose()


@starts_servers
@contextlib.asynccontextmanager
async def running_cluster(database_url: str, redis_url: str, tmp_path: Path, n: int = 3, named: bool = False,
                          **env: str) -> AsyncIterator[Cluster]:
    """``n`` servers on one database and one Redis prefix; ``named``: server i is NODE_NAME ``n{i}``."""
    await reset_database(database_url)
    prefix = f"t{secrets.token_hex(4)}"  # this test's own keys and channels in a shared Redis
    env = {**CLUSTER_ENV, "REDIS_URL": redis_url, "REDIS_PREFIX": prefix, "LOBBY_CHANNEL": f"{prefix}:lobby", **env}
    servers = [ServerProcess(database_url, tmp_path / f"server{i}.log", **env, **({"NODE_NAME": f"n{i}"} if named else {}))
               for i in range(n)]
    redis = Redis.from_url(redis_url)
    try:
        await servers[0].start()  # migrates first, alone
        await asyncio.gather(*(s.start() for s in servers[1:]))
        yield Cluster(servers, redis, prefix, database_url)
    finally:
        for server in servers:
            if server.proc is not None and server.proc.poll() is None:
                server.proc.send_signal(signal.SIGCONT)
            server.stop()
        with contextlib.suppress(Exception):
            await forget_keys(redis, prefix)
        with contextlib.suppress(Exception):
            await redis.aclose()


async def until(predicate: Callable[[], bool], timeout: float, what: str, cluster: Cluster,
                state: Callable[[], object] | None = None) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what} {state() if state else ''}\n{cluster.logs()}")
        await asyncio.sleep(0.05)


class _Recorded:
    """A socket whose received messages are also appended to ``log``."""

    def __init__(self, ws: Any, log: list[dict[str, Any]]) -> None:
        self.ws, self.log = ws, log

    async def __aiter__(self) -> AsyncIterator[str]:
        async for raw in self.ws:
            self.log.append(json.loads(raw))
            yield raw

    async def send(self, message: str) -> None:
        await self.ws.send(message)


@dataclass
class RecordingSeat(Seat):
    """A seat that keeps every message of each of its connections (``connections``)."""

    connections: list[list[dict[str, Any]]] = field(default_factory=list)

    async def _read(self, ws: Any) -> None:
        self.connections.append([])
        await super()._read(_Recorded(ws, self.connections[-1]))


@dataclass
class Spectator:
    """An operator's socket on one process (``/ws/spectate``): every message of each connection, and it
    reconnects (to the next server) until it has seen ``game_over`` or the table is gone."""

    servers: list[str]
    table_id: str
    token: str
    connections: list[list[dict[str, Any]]] = field(default_factory=list)
    closes: list[int] = field(default_factory=list)
    done: bool = False

    @property
    def game_over(self) -> bool:
        return any(m["type"] == "game_over" for c in self.connections for m in c)

    async def run(self) -> None:
        attempt = 0
        while not self.done and not self.game_over:
            base = self.servers[attempt % len(self.servers)].replace("http", "ws", 1)
            attempt += 1
            try:
                async with websockets.connect(f"{base}/ws/spectate/{self.table_id}", max_size=2**22, open_timeout=10,
                                              additional_headers={"Authorization": f"Bearer {self.token}"}) as ws:
                    self.connections.append([])
                    async for raw in ws:
                        self.connections[-1].append(json.loads(raw))
                    self.closes.append(ws.close_code or 0)
            except (TimeoutError, OSError, websockets.WebSocketException) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                if code is not None:
                    self.closes.append(code)
            if self.game_over or (self.closes and self.closes[-1] in (1000, 4004)):
                return
            await asyncio.sleep(0.2)


def sequence_faults(connections: list[list[dict[str, Any]]]) -> list[str]:
    """What is wrong with one socket's record, connection by connection: every connection begins with a
    snapshot (a resync), and from there each table event is numbered one past the last (no message lost),
    or a later snapshot puts it back in step (a relayed socket's resync, issue 34); no other message is
    numbered past the last event."""
    faults = []
    for i, messages in enumerate(connections):
        if not messages:
            continue
        if messages[0]["type"] != "snapshot":
            faults.append(f"connection {i} began with {messages[0]['type']}, not a snapshot")
            continue
        v = messages[0]["v"]
        for m in messages[1:]:
            if m["type"] == "event":
                if m["v"] != v + 1:
                    faults.append(f"connection {i}: event v={m['v']} after v={v}")
                v = m["v"]
            elif m["type"] == "snapshot":  # a resync on the same socket (the relay lost frames): on from its v
                if m["v"] < v:
                    faults.append(f"connection {i}: a resync's snapshot v={m['v']} went back from v={v}")
                v = m["v"]
            elif m["v"] > v:  # a message numbered past the last event seen: that event was lost
                faults.append(f"connection {i}: {m['type']} v={m['v']} while the last event was v={v}")
    return faults


def last_message(connections: list[list[dict[str, Any]]]) -> str | None:
    return next((c[-1]["type"] for c in reversed(connections) if c), None)


async def open_table_across(cluster: Cluster, players: list[dict[str, Any]], variant: str, home: int,
                            options: dict[str, Any]) -> str:
    """A lobby table opened on process ``home``; each other player sits through process ``(home + i) % n``
    (forwarded to the owner when that is another process)."""
    urls = cluster.urls
    async with httpx.AsyncClient(timeout=30) as client:
        made = await client.post(f"{urls[home]}/api/rooms/beginner/tables", headers=players[0]["headers"],
                                 json={"variant": variant, "options": options})
        assert made.status_code == 201, made.text
        table_id = str(made.json()["id"])
        for i, p in enumerate(players[1:], 1):
            sat = await client.post(f"{urls[(home + i) % len(urls)]}/api/tables/{table_id}/sit",
                                    headers=p["headers"])
            assert sat.status_code == 200, sat.text
    return table_id


async def quick_players(cluster: Cluster, tag: str, n: int) -> list[dict[str, Any]]:
    """``n`` accounts written straight to the database as registration writes them (the welcome grant and
    its ledger entry) but without a usable password: argon2 takes seconds per account on a loaded machine,
    and a chaos scenario opens tables faster than that.  Each with a token for the API and the sockets."""
    from app.core.config import Settings
    from app.models import LedgerEntry
    from app.services.accounts import WELCOME_REASON
    from app.services.sessions import open_session

    engine = make_engine(cluster.database_url)
    settings = Settings(_env_file=None, database_url=cluster.database_url)  # type: ignore[call-arg]
    players = []
    try:
        async with make_sessionmaker(engine)() as session:
            for i in range(n):
                name = f"{tag}p{i}"
                user_id = (await session.execute(insert(User).values(
                    username=name, username_key=name, password_hash="!", coins=GRANT, rank_points=0,
                ).returning(User.id))).scalar_one()
                await session.execute(insert(LedgerEntry).values(
                    user_id=user_id, asset="coins", delta=GRANT, balance_after=GRANT, reason=WELCOME_REASON,
                    idempotency_key=f"welcome:{user_id}"))
                await session.commit()
                _login, token = await open_session(session, user_id, settings, user_agent="chaos", address="chaos")
                players.append({"id": user_id, "name": name, "token": token,
                                "headers": {"Authorization": f"Bearer {token}"}})
    finally:
        await engine.dispose()
    return players


async def register_players(cluster: Cluster, tag: str, n: int) -> list[dict[str, Any]]:
    urls = cluster.urls
    return [await register(urls[i % len(urls)], f"{tag}p{i}") for i in range(n)]


def coin_faults(coins: dict[int, int], hands: list[Any]) -> list[str]:
    """No coin created or lost: the total is every grant, and each account moved exactly what its settled
    hands say; each table's hands are numbered 1..n (each settled once)."""
    faults = []
    if sum(coins.values()) != GRANT * len(coins):
        faults.append(f"coins total {sum(coins.values())} != {GRANT * len(coins)}")
    for user_id, held in coins.items():
        moved = sum(r.settlement["coin_deltas"][r.seats.index(user_id)] for r in hands if user_id in r.seats)
        if held != GRANT + moved:
            faults.append(f"user {user_id} holds {held}, its hands say {GRANT + moved}")
    by_table: dict[str, list[int]] = {}
    for r in hands:
        by_table.setdefault(r.table_id, []).append(r.result["hand_no"])
    for table_id, numbers in by_table.items():
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            faults.append(f"table {table_id}: settled hands {sorted(numbers)}")
    return faults
