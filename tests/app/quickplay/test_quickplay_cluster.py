"""Issue 25, quick play across two real server processes on one Postgres and one Redis.

40 accounts queue and cancel at random through both processes, in two rooms and two variants; some of them
race a queue against a cancel, a sit at a waiting table and a tournament registration, all at once and on
different processes.  Then:

* every account sat at most one playing table (so never at two at once);
* every quick-play table has exactly its variant's seats, each a different account;
* nobody whose last word was a cancel (and who did not queue again) is seated;
* nobody is left half-way: every account is queued, seated or free, and its one commitment says the same;
* coins moved only through play: each account's ledger sums to its balance and no coin was made or lost.

A second test kills the matcher's process (SIGKILL) while players wait: the survivor takes the lease over
and every player ends seated or still queued, never lost.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import func, select, update

from app.core.db import make_engine
from app.models import Commitment, LedgerEntry, User
from tests.app.support.cluster_harness import running_cluster
from tests.app.support.live_server import register

PG = os.environ.get("TEST_DATABASE_URL")
REDIS = os.environ.get("REDIS_URL")
pytestmark = pytest.mark.skipif(not (PG and REDIS), reason="several processes need Postgres and Redis: set "
                                "TEST_DATABASE_URL (postgresql+asyncpg://...) and REDIS_URL (CI sets both)")
GRANT = 70_000  # enough for 初級 (20,000) and 中級 (60,000)
ROOMS = ["beginner", "intermediate"]
SEATS = {"tiantai": 3, "taiwan": 4}
ENV = {"WELCOME_GRANT": str(GRANT), "QUICKPLAY_WAVE_SECONDS": "0.3", "QUICKPLAY_LEASE_SECONDS": "2",
       "QUICKPLAY_RANK_SPREAD": "15", "TOURNAMENT_DIRECTOR": "false"}  # beside the cluster harness's leases


@pytest.fixture
async def pair(tmp_path: Path):  # noqa: ANN201
    assert PG is not None and REDIS is not None
    async with running_cluster(PG, REDIS, tmp_path, n=2, **ENV) as running:
        yield running.servers, running.redis, running.prefix


class Lobby:
    """Every table event one lobby socket hears (through Redis, from both processes)."""

    def __init__(self) -> None:
        self.tables: dict[str, list[dict[str, Any]]] = {}  # table id -> every version seen
        self.task: asyncio.Task[None] | None = None
        self.open = asyncio.Event()

    async def listen(self, url: str, token: str) -> None:
        async with websockets.connect(url.replace("http", "ws", 1) + "/ws/lobby",
                                      additional_headers={"Authorization": f"Bearer {token}"}) as ws:
            self.open.set()
            async for raw in ws:
                event = json.loads(raw)
                for table in event.get("tables", []) + ([event["table"]] if "table" in event else []):
                    self.tables.setdefault(table["id"], []).append(table)

    def playing(self) -> list[dict[str, Any]]:
        """Each table as it was when it was first seen playing."""
        return [next(v for v in versions if v["status"] == "playing")
                for versions in self.tables.values() if any(v["status"] == "playing" for v in versions)]


async def _accounts(urls: list[str], tag: str, n: int) -> list[dict]:
    """Register ``n`` accounts, alternately on each process, a few at a time (argon2 at full cost)."""
    gate = asyncio.Semaphore(4)

    async def one(i: int) -> dict:
        async with gate:
            return await register(urls[i % 2], f"{tag}{i}_{secrets.token_hex(2)}")
    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def _status(client: httpx.AsyncClient, url: str, p: dict) -> dict:
    response = await client.get(f"{url}/api/me/queue", headers=p["headers"])
    assert response.status_code == 200, response.text
    return response.json()


async def _wander(client: httpx.AsyncClient, urls: list[str], p: dict, rng: random.Random, extras: dict) -> None:
    """Queue and cancel at random on either process, sometimes racing a sit and a registration."""
    p["last"] = "free"
    for _ in range(5):
        room, variant = rng.choice(ROOMS), rng.choice(list(SEATS))
        if rng.random() < 0.3:
            await _race(client, urls, p, room, variant, rng, extras)
        else:
            queued = await client.post(f"{rng.choice(urls)}/api/rooms/{room}/queue", headers=p["headers"],
                                       json={"variant": variant})
            assert queued.status_code in (202, 409), queued.text
        p["last"] = "queued"
        await asyncio.sleep(rng.uniform(0, 1.0))
        status = await _status(client, rng.choice(urls), p)
        if status["table_id"] and not status["queued"]:
            p["last"] = "matched"
            return
        left = await client.delete(f"{rng.choice(urls)}/api/rooms/{status['room'] or room}/queue",
                                   headers=p["headers"])
        assert left.status_code == 200 and left.json() == {"queued": False}, left.text
        status = await _status(client, rng.choice(urls), p)
        if status["table_id"] and not status["queued"]:
            p["last"] = "matched"  # the match came first: a leave after it is no leave
            return
        if status["queued"]:  # queued in the other room by a race: leave there too
            await client.delete(f"{urls[0]}/api/rooms/{status['room']}/queue", headers=p["headers"])
            status = await _status(client, urls[1], p)
            if status["table_id"] and not status["queued"]:
                p["last"] = "matched"
                return
        assert status["queued"] is False, status
        p["last"] = "cancelled"
        if await _seated(client, urls[0], p):  # a race seated them at a lobby table that started
            p["last"] = "seated"
            return


async def _race(client: httpx.AsyncClient, urls: list[str], p: dict, room: str, variant: str,
                rng: random.Random, extras: dict) -> None:
    """Queue, sit at a waiting table and register in a tournament at once, on different processes; then
    undo whichever won except the queue."""
    a, b = rng.sample(urls, 2)
    table_id = extras["tables"][rng.randrange(len(extras["tables"]))]
    tournament = extras["tournament"]
    replies = await asyncio.gather(
        client.post(f"{a}/api/rooms/{room}/queue", headers=p["headers"], json={"variant": variant}),
        client.post(f"{b}/api/tables/{table_id}/sit", headers=p["headers"]),
        client.post(f"{a}/api/tournaments/{tournament}/register", headers=p["headers"]),
        client.delete(f"{b}/api/rooms/{room}/queue", headers=p["headers"]),
    )
    for reply in replies:  # a refusal is coded; a forwarded sit may time out under load (503: try again)
        assert reply.status_code < 500 or reply.json()["code"] == "server_restarting", reply.text
    won = [i for i, r in enumerate(replies[:3]) if r.is_success]  # several only one after another (the leave)
    if 1 in won:
        table = replies[1].json()
        if table["status"] == "waiting":  # stand up again, unless other racers filled the table meanwhile
            stood = await client.post(f"{a}/api/tables/{table_id}/stand", headers=p["headers"])
            assert stood.status_code == 200 or stood.json()["code"] == "game_in_progress", stood.text
    if 2 in won:
        left = await client.delete(f"{b}/api/tournaments/{tournament}/register", headers=p["headers"])
        assert left.status_code == 200, left.text


async def _seated(client: httpx.AsyncClient, url: str, p: dict) -> bool:
    me = (await client.get(f"{url}/api/me", headers=p["headers"])).json()
    return me.get("table") is not None


async def _books() -> tuple[dict[int, int], dict[int, int], int, dict[int, tuple[str, str]]]:
    assert PG is not None
    engine = make_engine(PG)
    try:
        async with engine.connect() as conn:
            coins = dict((await conn.execute(select(User.id, User.coins))).all())
            sums = dict((await conn.execute(select(LedgerEntry.user_id, func.sum(LedgerEntry.delta))
                                            .where(LedgerEntry.asset == "coins")
                                            .group_by(LedgerEntry.user_id))).all())
            granted = (await conn.execute(select(func.sum(LedgerEntry.delta))
                                          .where(LedgerEntry.reason == "welcome_grant"))).scalar_one()
            held = {uid: (kind, ref) for uid, kind, ref in
                    (await conn.execute(select(Commitment.user_id, Commitment.kind, Commitment.ref))).all()}
    finally:
        await engine.dispose()
    return coins, {k: int(v) for k, v in sums.items()}, int(granted), held


async def _until(predicate, timeout: float, what: str) -> None:  # noqa: ANN001
    deadline = asyncio.get_running_loop().time() + timeout
    while not await predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


async def test_forty_accounts_queue_and_cancel_across_two_processes(pair) -> None:  # noqa: ANN001
    servers, redis, prefix = pair
    urls = [s.url for s in servers]
    rng = random.Random(25)
    players = await _accounts(urls, "w", 40)
    hosts = [await register(urls[i], f"host{i}_{secrets.token_hex(2)}") for i in range(2)]
    operator, watcher = await register(urls[0], "operator1"), await register(urls[1], "watcher1")
    assert PG is not None
    engine = make_engine(PG)
    async with engine.begin() as conn:
        await conn.execute(update(User).where(User.id == operator["id"]).values(role="operator"))
    await engine.dispose()
    lobby = Lobby()
    lobby.task = asyncio.create_task(lobby.listen(urls[0], watcher["token"]))
    await asyncio.wait_for(lobby.open.wait(), 30)
    async with httpx.AsyncClient(timeout=60) as client:
        tables = []
        for i, host in enumerate(hosts):  # waiting taiwan tables for the sit races (one on each process)
            made = await client.post(f"{urls[i]}/api/rooms/beginner/tables", headers=host["headers"],
                                     json={"variant": "taiwan"})
            assert made.status_code == 201, made.text
            tables.append(made.json()["id"])
        starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        made = await client.post(f"{urls[0]}/api/operator/tournaments", headers=operator["headers"], json={
            "name": "race cup", "room": "beginner", "variant": "tiantai", "starts_at": starts, "entry_fee": 1_000,
            "player_limit": 6, "rounds": 1, "hands_per_round": 1, "prize_split": [100], "options": {"rounds": 1}})
        assert made.status_code == 201, made.text
        extras = {"tables": tables, "tournament": made.json()["id"]}
        await asyncio.gather(*(_wander(client, urls, p, random.Random(rng.random()), extras) for p in players))

        async def settled() -> bool:  # no claim in flight, nobody queued
            return not await redis.hlen(f"{prefix}:quickplay:claims") and not await redis.hlen(
                f"{prefix}:quickplay:where")
        await _until(settled, 30, "the queue to settle")
        await asyncio.sleep(1.0)  # the last lobby events on their way
        statuses = {p["id"]: await _status(client, urls[p["id"] % 2], p) for p in players}
    assert not lobby.task.done(), "the lobby socket closed: events may be missing"
    lobby.task.cancel()

    playing = lobby.playing()
    seen: dict[int, list[str]] = {}
    for table in playing:
        for seat in table["seats"]:
            if seat["user_id"] is not None:
                seen.setdefault(seat["user_id"], []).append(table["id"])
    assert {uid: ids for uid, ids in seen.items() if len(ids) > 1} == {}  # seated at most once
    quick = [t for t in playing if t["creator_id"] is None and t["room"] in ROOMS]
    assert quick, "no quick-play table was seated"
    for table in quick:  # exactly the variant's seats, each a different account, no bots
        users = [s["user_id"] for s in table["seats"]]
        assert len(users) == SEATS[table["variant"]] and None not in users and len(set(users)) == len(users)
        assert not any(s["bot"] for s in table["seats"])
    for p in players:
        status = statuses[p["id"]]
        assert status["queued"] is False, (p["name"], status)
        if p["last"] == "cancelled":
            assert p["id"] not in seen, (p["name"], seen.get(p["id"]))
        if p["last"] == "matched":
            assert seen.get(p["id"]) == [status["table_id"]], (p["name"], status, seen.get(p["id"]))

    coins, sums, granted, held = await _books()
    assert {uid: c for uid, c in coins.items() if c or uid in sums} == sums  # every ledger sums to its balance
    assert sum(coins.values()) == granted  # no coin made or lost (the tournament fees sit in its pool)
    for p in players:  # one commitment, and it says what the account is doing
        kind = held.get(p["id"], (None, None))[0]
        assert kind == ("seat" if p["id"] in seen else None), (p["name"], held.get(p["id"]), p["last"])


async def test_killing_the_matchers_process_loses_no_player(pair) -> None:  # noqa: ANN001
    servers, redis, prefix = pair
    urls = [s.url for s in servers]
    players = await _accounts(urls, "k", 9)
    async with httpx.AsyncClient(timeout=60) as client:
        owner = (await redis.get(f"{prefix}:quickplay-matcher:0"))
        assert owner is not None  # one process leads
        # Both processes queue; the leader is killed while waves run, with players still arriving.
        for p in players[:5]:
            assert (await client.post(f"{urls[p['id'] % 2]}/api/rooms/beginner/queue", headers=p["headers"],
                                      json={"variant": "tiantai"})).status_code == 202
        leader = next(i for i, s in enumerate(servers) if s.proc is not None and int(owner.decode().split("-")[-2]) == s.proc.pid)
        servers[leader].signal(signal.SIGKILL)
        await servers[leader].wait(10)
        survivor = urls[1 - leader]
        for p in players[5:]:
            assert (await client.post(f"{survivor}/api/rooms/beginner/queue", headers=p["headers"],
                                      json={"variant": "tiantai"})).status_code == 202

        async def all_seated() -> bool:
            found = [await _status(client, survivor, p) for p in players]
            return all(s["table_id"] and not s["queued"] for s in found)
        await _until(all_seated, 40, "every player to be seated by the survivor")
        found = {p["id"]: (await _status(client, survivor, p))["table_id"] for p in players}
        by_table: dict[str, list[int]] = {}
        for uid, table_id in found.items():
            by_table.setdefault(table_id, []).append(uid)
        assert sorted(len(v) for v in by_table.values()) == [3, 3, 3]
        for table_id, uids in by_table.items():  # every table is live somewhere (the survivor took it over)
            async def listed(table_id: str = table_id) -> bool:
                return (await client.get(f"{survivor}/api/tables/{table_id}")).status_code == 200
            await _until(listed, 30, f"table {table_id} to be live\n{servers[1 - leader].tail(6000)}")
            # Once live it stays live: a table that answered and then did not was seen once in CI (a fresh clone
            # under load; not reproduced in 10 runs here), so say what came back and what the survivor logged.
            again = await client.get(f"{survivor}/api/tables/{table_id}")
            assert again.status_code == 200, f"{again.status_code} {again.text}\n{servers[1 - leader].tail(8000)}"
            seats = [s["user_id"] for s in again.json()["seats"]]
            assert sorted(seats) == sorted(uids)

