"""Issue 10, several processes: three real servers on one Postgres and one Redis.

The players of one coin table open their sockets on different processes (two of them relayed to the table's
owner through Redis).  Hands are played; one seat then leaves its turn open so the table stops mid-hand,
and the owner is killed with SIGKILL (or paused with SIGSTOP past its lease).  A survivor takes the table
over from the journal: the same hand, the same wall commitment, the held prompt again, and play goes on to
settlement.  Afterwards every hand is settled exactly once and no coin was created or lost.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

import httpx
import pytest
import websockets
from redis.asyncio import Redis
from sqlalchemy import update

from app.core.db import make_engine
from app.models import User
from tests.app.support.cluster_harness import GRANT, ledger, owner_pid, running_cluster
from tests.app.support.live_server import OPTIONS, Seat, ServerProcess, register

PG = os.environ.get("TEST_DATABASE_URL")
REDIS = os.environ.get("REDIS_URL")
pytestmark = pytest.mark.skipif(not (PG and REDIS), reason="several processes need Postgres and Redis: set "
                                "TEST_DATABASE_URL (postgresql+asyncpg://...) and REDIS_URL (CI sets both)")


async def _until(predicate, timeout: float, what: str, servers: list[ServerProcess], state=None) -> None:  # noqa: ANN001
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            logs = "\n".join(f"--- server {i} (port {s.port}) ---\n{s.tail(3000)}" for i, s in enumerate(servers))
            raise AssertionError(f"timed out waiting for {what} {state() if state else ''}\n{logs}")
        await asyncio.sleep(0.05)


@pytest.fixture
async def cluster(tmp_path: Path):  # noqa: ANN201
    assert PG is not None and REDIS is not None
    async with running_cluster(PG, REDIS, tmp_path) as running:
        yield running.servers, running.redis, running.prefix


async def _listed(url: str, table_id: str) -> dict | None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        tables = (await client.get("/api/rooms/beginner/tables")).json()
    return next((t for t in tables if t["id"] == table_id), None)


async def _seat_across(urls: list[str], players: list[dict]) -> str:
    """Open a table on process 1 and seat each player through process i % 3 (forwarded to the owner);
    a lobby socket on process 2 sees each seat fill, and every process lists the table the same way."""
    async with httpx.AsyncClient(timeout=30) as client:
        made = await client.post(f"{urls[1]}/api/rooms/beginner/tables", headers=players[0]["headers"],
                                 json={"variant": "taiwan", "options": OPTIONS})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        lobby_url = urls[2].replace("http", "ws", 1) + "/ws/lobby"
        async with websockets.connect(lobby_url, additional_headers=players[0]["headers"]) as lobby:
            snapshot = json.loads(await lobby.recv())
            assert snapshot["type"] == "snapshot" and table_id in [t["id"] for t in snapshot["tables"]]
            for i, p in enumerate(players[1:], 1):
                if i == 3:  # every process lists the table, with the seats taken so far
                    for url in urls:
                        listed = await _listed(url, table_id)
                        assert listed is not None and [s["user_id"] for s in listed["seats"]][:3] == [
                            q["id"] for q in players[:3]]
                sat = await client.post(f"{urls[i % 3]}/api/tables/{table_id}/sit", headers=p["headers"])
                assert sat.status_code == 200, sat.text
                while True:  # the owner's lobby event reaches a lobby socket on another process
                    event = json.loads(await asyncio.wait_for(lobby.recv(), 30))
                    seated = [s["user_id"] for s in event.get("table", {}).get("seats", [])]
                    if event.get("table", {}).get("id") == table_id and p["id"] in seated:
                        break
        # One table per account across processes: seated on process 1's table, refused on process 0.
        again = await client.post(f"{urls[0]}/api/rooms/beginner/tables", headers=players[2]["headers"],
                                  json={"variant": "taiwan", "options": OPTIONS})
        assert again.status_code == 409 and again.json()["code"] == "already_seated", again.text
        for url in urls:
            me = (await client.get(f"{url}/api/me", headers=players[3]["headers"])).json()
            assert me["table"]["table_id"] == table_id and me["table"]["seat"] == 3
            listed = await _listed(url, table_id)
            assert listed is not None and listed["status"] == "playing"
    return table_id


async def _spectate_elsewhere(url: str, table_id: str, operator: dict) -> None:
    """An operator watches the table from a process that does not own it: the public view only."""
    assert PG is not None
    engine = make_engine(PG)
    try:
        async with engine.begin() as conn:
            await conn.execute(update(User).where(User.id == operator["id"]).values(role="operator"))
    finally:
        await engine.dispose()
    ws_url = url.replace("http", "ws", 1) + f"/ws/spectate/{table_id}"
    async with websockets.connect(ws_url, max_size=2**22, additional_headers=operator["headers"]) as ws:
        snapshot = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert snapshot["type"] == "snapshot" and snapshot["table"]["seat"] == -1
        view = snapshot["view"] or {}
        if "result" not in view:  # a finished hand is public; a hand in play shows no concealed tile
            assert all(p["concealed"] is None for p in view.get("players", []))
        events = 0
        while events < 3:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            assert message["type"] != "prompt"
            events += message["type"] == "event"


async def _lobby(url: str, token: str, table_id: str, out: list[dict]) -> None:
    """The table as a lobby socket sees it: its entry in the snapshot, then each event about it."""
    async with websockets.connect(url.replace("http", "ws", 1) + "/ws/lobby",
                                  additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        async for raw in ws:
            message = json.loads(raw)
            tables = message.get("tables") or ([message["table"]] if "table" in message else [])
            out.extend(t for t in tables if t["id"] == table_id)


async def _operate_elsewhere(owner: str, other: str, table_id: str, operator: dict, name: str) -> None:
    """The operators' table list from a process that does not own the table shows it with its hand; a
    waiting table opened on one process is closed by an operator through another."""
    waiting_player = await register(owner, name)
    async with httpx.AsyncClient(timeout=30) as client:
        made = await client.post(f"{owner}/api/rooms/beginner/tables", headers=waiting_player["headers"],
                                 json={"variant": "tiantai", "options": OPTIONS})
        assert made.status_code == 201, made.text
        waiting = made.json()["id"]
        rows = (await client.get(f"{other}/api/operator/tables", headers=operator["headers"])).json()
        playing = next(r for r in rows if r["id"] == table_id)
        assert playing["status"] == "playing" and playing["hand_no"] >= 1
        assert any(r["id"] == waiting and r["status"] == "waiting" for r in rows)
        closed = await client.post(f"{other}/api/operator/tables/{waiting}/close", headers=operator["headers"],
                                   json={"reason": "cluster test", "force": False})
        assert closed.status_code == 200, closed.text
        refused = await client.post(f"{other}/api/operator/tables/{table_id}/close", headers=operator["headers"],
                                    json={"reason": "cluster test", "force": False})
        assert refused.status_code == 409 and refused.json()["code"] == "table_playing", refused.text
        assert await _listed(other, waiting) is None and await _listed(owner, waiting) is None
        me = (await client.get(f"{other}/api/me", headers=waiting_player["headers"])).json()
        assert me["table"] is None


async def _play_then_stop_owner(servers: list[ServerProcess], redis: Redis, prefix: str, sig: int) -> None:
    urls = [s.url for s in servers]
    players = [await register(urls[i % 3], f"c{sig}p{i}") for i in range(4)]
    table_id = await _seat_across(urls, players)
    # Seat i connects to process i % 3 first (two seats are relayed), then to the others in turn.
    seats = [Seat(urls[i % 3:] + urls[:i % 3], table_id, p["token"]) for i, p in enumerate(players)]
    tasks = [asyncio.create_task(s.run()) for s in seats]
    try:
        def state() -> object:
            return [(s.hand_no, sorted(s.results), s.connects, s.closes[-3:], s.errors[-2:]) for s in seats]

        await _until(lambda: all(1 in s.results for s in seats), 120, "hand 1 to be settled on every seat",
                     servers, state)
        pid = await owner_pid(redis, prefix, table_id)
        owner = next(s for s in servers if s.proc is not None and s.proc.pid == pid)
        survivors = [s for s in servers if s is not owner]
        await _spectate_elsewhere(survivors[0].url, table_id, players[0])
        await _operate_elsewhere(owner.url, survivors[0].url, table_id, players[0], f"c{sig}w")
        # Stop the table mid-hand (after a dozen more events): the next turn of some seat stays open.
        seen = seats[0].events
        await _until(lambda: seats[0].events > seen + 12, 120, "more play", servers, state)
        for s in seats:
            s.hold = {"turn"}
        await _until(lambda: any(s.held for s in seats), 120, "a held turn", servers, state)
        holder = next(s for s in seats if s.held)
        assert holder.held is not None
        for s in seats:
            s.hold = set()
        hand_no = holder.held["hand_no"]
        commitment = holder.commitments[hand_no]
        assert not any(hand_no in s.results for s in seats)
        holder.prompts_after_reconnect.clear()
        # A lobby socket on a survivor: after the take-over it hears of the table with a newer version.
        lobby_events: list[dict] = []
        lobby = asyncio.create_task(_lobby(survivors[0].url, players[0]["token"], table_id, lobby_events))
        tasks.append(lobby)
        await _until(lambda: bool(lobby_events), 30, "the lobby snapshot", servers)
        seen_version = lobby_events[0]["version"]

        owner.signal(sig)
        if sig != signal.SIGSTOP:
            await owner.wait(20)  # SIGTERM: drained (server_restarting, 1001) and its leases given up

        async def moved() -> bool:
            new = await owner_pid(redis, prefix, table_id)
            return new is not None and new != pid

        deadline = asyncio.get_running_loop().time() + 60
        while not await moved():
            assert asyncio.get_running_loop().time() < deadline, "the table was not taken over"
            await asyncio.sleep(0.1)
        new_pid = await owner_pid(redis, prefix, table_id)
        assert new_pid in {s.proc.pid for s in survivors if s.proc}
        new_owner = next(s for s in survivors if s.proc is not None and s.proc.pid == new_pid)

        async def taken_over() -> float:  # the new owner's /metrics counts the take-over once it has resumed
            async with httpx.AsyncClient(timeout=30) as client:
                metrics = (await client.get(f"{new_owner.url}/metrics")).text
            return max([float(line.split()[-1]) for line in metrics.splitlines()
                        if line.startswith("mahjong_lease_takeovers_total ")], default=0.0)

        deadline = asyncio.get_running_loop().time() + 60
        while await taken_over() < 1:
            assert asyncio.get_running_loop().time() < deadline, "the take-over is not in the new owner's metrics"
            await asyncio.sleep(0.2)
        if sig == signal.SIGSTOP:
            owner.signal(signal.SIGCONT)  # the former owner wakes up believing it still owns the table
            # ... and finds out: its lease renewal fails (or the database refuses its write): it stops.
            await _until(lambda: f"table {table_id}: lease lost" in owner.tail(200_000)
                         or f"table {table_id}: fence" in owner.tail(200_000), 60,
                         "the former owner to stop acting for the table", servers)

        await _until(lambda: any(hand_no in s.results for s in seats), 120,
                     f"hand {hand_no} to be settled by the new owner", servers, state)
        assert holder.prompts_after_reconnect, state()
        again = holder.prompts_after_reconnect[0]
        assert holder.same_prompt(again)  # resumed at the very prompt it stopped at
        result = next(s.results[hand_no] for s in seats if hand_no in s.results)
        assert result["commitment"] == commitment and not result["void"]
        await _until(lambda: any(hand_no + 1 in s.results for s in seats), 120,
                     f"hand {hand_no + 1} to be played after the take-over", servers, state)
        await _until(lambda: any(e["version"] > seen_version for e in lobby_events[1:]), 60,
                     "a lobby event of the taken-over table", servers)
        for server in survivors:  # the survivors list the table, now owned by one of them
            listed = await _listed(server.url, table_id)
            assert listed is not None and listed["status"] == "playing"
        for s in seats:
            s.done = True
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for server in survivors:  # drain: the journal keeps the game; nothing moves after this
        server.signal(signal.SIGTERM)
        await server.wait(20)

    coins, hands = await ledger(PG)
    assert sum(coins.values()) == GRANT * len(coins)  # no coin created or lost
    numbers = sorted(r.result["hand_no"] for r in hands if r.table_id == table_id)
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > hand_no  # each hand settled once
    for player in players:
        moved_coins = sum(r.settlement["coin_deltas"][r.seats.index(player["id"])] for r in hands
                          if player["id"] in r.seats)
        assert coins[player["id"]] == GRANT + moved_coins


@pytest.mark.timeout(600)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
async def test_a_table_survives_the_end_of_its_owner(cluster, sig: int) -> None:  # noqa: ANN001
    servers, redis, prefix = cluster
    await _play_then_stop_owner(servers, redis, prefix, sig)


@pytest.mark.timeout(600)
async def test_a_paused_owner_loses_its_table_and_plays_no_further(cluster) -> None:  # noqa: ANN001
    servers, redis, prefix = cluster
    await _play_then_stop_owner(servers, redis, prefix, signal.SIGSTOP)


@pytest.mark.timeout(300)
async def test_an_account_racing_itself_on_two_processes_gets_one_seat(cluster) -> None:  # noqa: ANN001
    """One table per account across processes: two requests of one account reach two processes at once (two
    tabs behind a round-robin balancer).  Each process looked in the directory, found the account free and
    seated it; now the account's seating lock makes the second request see the first's seat (409)."""
    servers, _redis, _prefix = cluster
    urls = [s.url for s in servers]
    hosts = [await register(urls[i], f"host{i}") for i in range(2)]
    async with httpx.AsyncClient(timeout=30) as client:
        waiting = []  # two waiting lobby tables, on two different processes
        for i, host in enumerate(hosts):
            made = await client.post(f"{urls[i]}/api/rooms/beginner/tables", headers=host["headers"],
                                     json={"variant": "taiwan", "options": OPTIONS})
            assert made.status_code == 201, made.text
            waiting.append(made.json()["id"])
        for round_ in range(6):
            racer = await register(urls[round_ % 3], f"racer{round_}")
            one, other = urls[round_ % 3], urls[(round_ + 1) % 3]
            if round_ % 3 == 0:  # open a practice table here, a lobby table there
                requests = (client.post(f"{one}/api/practice", headers=racer["headers"], json={"variant": "tiantai"}),
                            client.post(f"{other}/api/rooms/beginner/tables", headers=racer["headers"],
                                        json={"variant": "taiwan", "options": OPTIONS}))
            else:  # sit at the two waiting tables, each through a process that does not own it
                requests = (client.post(f"{urls[2]}/api/tables/{waiting[0]}/sit", headers=racer["headers"]),
                            client.post(f"{urls[0]}/api/tables/{waiting[1]}/sit", headers=racer["headers"]))
            answers = await asyncio.gather(*requests)
            ok = [r for r in answers if r.status_code < 300]
            refused = [r for r in answers if r.status_code == 409]
            assert len(ok) == 1 and len(refused) == 1, [(r.status_code, r.text) for r in answers]
            body = refused[0].json()
            assert body["code"] == "already_seated", body
            for url in urls:  # every process agrees on the one table
                me = (await client.get(f"{url}/api/me", headers=racer["headers"])).json()
                assert me["table"]["table_id"] == body["params"]["table_id"]
            if round_ % 3:  # stand up again, so the next racer finds the seat free
                stood = await client.post(f"{urls[1]}/api/tables/{body['params']['table_id']}/stand",
                                          headers=racer["headers"])
                assert stood.status_code == 200, stood.text
