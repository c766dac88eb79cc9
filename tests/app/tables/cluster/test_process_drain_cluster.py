"""Issue 35 items 1 and 2, on two real processes sharing Postgres and Redis: the admin sees both processes with
the tables each owns, drains one without restarting it, and its waiting table moves to the other; the drained
process opens no new table and shows as draining."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import select, update

from app.core.db import make_engine
from app.models import AuditEntry, User
from tests.app.support.cluster_harness import running_cluster
from tests.app.support.live_server import OPTIONS, SECRET, register

PG = os.environ.get("TEST_DATABASE_URL")
REDIS = os.environ.get("REDIS_URL")
pytestmark = pytest.mark.skipif(not (PG and REDIS), reason="several processes need Postgres and Redis: set "
                                "TEST_DATABASE_URL (postgresql+asyncpg://...) and REDIS_URL (CI sets both)")


async def _make_admin(user_id: int) -> None:
    assert PG is not None
    engine = make_engine(PG)
    try:
        async with engine.begin() as conn:
            await conn.execute(update(User).where(User.id == user_id).values(role="admin"))
    finally:
        await engine.dispose()


async def _processes(client: httpx.AsyncClient, url: str, headers: dict) -> dict[str, dict]:
    response = await client.get(f"{url}/api/admin/processes", headers=headers)
    assert response.status_code == 200, response.text
    return {p["address"].rsplit(":", 1)[1]: p for p in response.json()}


async def test_an_admin_drains_a_process_and_its_waiting_table_moves(tmp_path: Path) -> None:
    assert PG is not None and REDIS is not None
    async with running_cluster(PG, REDIS, tmp_path, n=2) as cluster:
        first, second = cluster.servers
        admin = await register(first.url, "drainadmin")
        await _make_admin(admin["id"])
        host = await register(first.url, "drainhost")
        late = await register(first.url, "drainlate")
        player = await register(first.url, "drainplayer")
        async with httpx.AsyncClient(timeout=30) as client:
            made = await client.post(f"{first.url}/api/rooms/beginner/tables", headers=host["headers"],
                                     json={"variant": "taiwan", "options": OPTIONS})
            assert made.status_code == 201, made.text
            table_id = made.json()["id"]

            # Both processes, from either one, each with its port, pid, version and the tables it owns.
            refused = await client.get(f"{second.url}/api/admin/processes", headers=player["headers"])
            assert refused.status_code == 403
            cards = await _processes(client, second.url, admin["headers"])
            assert set(cards) == {str(first.port), str(second.port)}
            owner = cards[str(first.port)]
            assert owner["tables"] == [table_id] and not owner["draining"] and owner["version"]
            assert owner["pid"] == first.proc.pid and cards[str(second.port)]["tables"] == []

            drained = await client.post(f"{second.url}/api/admin/processes/{owner['id']}/drain",
                                        headers=admin["headers"], json={"reason": "kernel upgrade"})
            assert drained.status_code == 200, drained.text
            assert drained.json()["draining"] is True
            unknown = await client.post(f"{second.url}/api/admin/processes/nobody-1-abc/drain",
                                        headers=admin["headers"], json={"reason": "typo"})
            assert unknown.status_code == 404 and unknown.json()["code"] == "process_not_found"

            for _ in range(200):  # within a heartbeat or two the waiting table lives on the second process
                cards = await _processes(client, second.url, admin["headers"])
                if cards[str(second.port)]["tables"] == [table_id] and cards[str(first.port)]["draining"]:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"the table did not move: {cards}\n{cluster.logs()}")
            assert cards[str(first.port)]["tables"] == []

            # The moved table still seats, through either process; the drained one opens no new table.
            sat = await client.post(f"{first.url}/api/tables/{table_id}/sit", headers=late["headers"])
            assert sat.status_code == 200, sat.text
            new = await client.post(f"{first.url}/api/rooms/beginner/tables", headers=player["headers"],
                                    json={"variant": "taiwan", "options": OPTIONS})
            assert new.status_code == 503 and new.json()["code"] == "server_draining", new.text
            elsewhere = await client.post(f"{second.url}/api/rooms/beginner/tables", headers=player["headers"],
                                          json={"variant": "taiwan", "options": OPTIONS})
            assert elsewhere.status_code == 201, elsewhere.text

            # A notice posted on one process reaches a lobby socket on the other at once (through Redis), and the
            # socket's handshake returns the request id it came with, on its one JSON access line too.
            lobby_url = first.url.replace("http", "ws", 1) + "/ws/lobby"
            async with websockets.connect(lobby_url, additional_headers={**player["headers"],
                                                                         "X-Request-ID": "lobby-trace-1"}) as lobby:
                assert lobby.response.headers["X-Request-ID"] == "lobby-trace-1"
                assert json.loads(await lobby.recv())["type"] == "snapshot"
                ends = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
                posted = await client.post(f"{second.url}/api/admin/notices", headers=admin["headers"], json={
                    "text": {"zh_hans": "维护", "zh_hant": "維護", "en": "Maintenance"}, "ends_at": ends})
                assert posted.status_code == 201, posted.text
                while (heard := json.loads(await asyncio.wait_for(lobby.recv(), 30)))["type"] != "notice":
                    pass
                assert heard["id"] == posted.json()["id"] and heard["text"]["en"] == "Maintenance"
            for _ in range(100):
                lines = [json.loads(line) for line in first.log_path.read_text(errors="replace").splitlines() if line.startswith("{")]
                sockets = [line for line in lines if line.get("request_id") == "lobby-trace-1"
                           and line["event"] == "websocket"]
                if sockets:
                    break
                await asyncio.sleep(0.1)
            assert [(s["path"], s["status"], s["user_id"]) for s in sockets] == [("/ws/lobby", 101, player["id"])]
            assert "connection open" not in first.log_path.read_text(errors="replace")

            # The command line sees the same cards and drains the other process (audited, no actor).
            env = {**os.environ, "DATABASE_URL": PG, "REDIS_URL": REDIS, "REDIS_PREFIX": cluster.prefix,
                   "SECRET_KEY": SECRET, "ENVIRONMENT": "development"}
            listed = await _cli(env, "list")
            assert {c["id"] for c in listed} == {c["id"] for c in cards.values()}
            other = cards[str(second.port)]["id"]
            assert (await _cli(env, "drain", other, "--reason", "rolling deploy"))["draining"] is True
            for _ in range(100):
                if (await _processes(client, first.url, admin["headers"]))[str(second.port)]["draining"]:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"the second process did not drain\n{cluster.logs()}")
            unknown_cli = subprocess.run([sys.executable, "-m", "app", "process", "drain", "nobody-1-abc",
                                          "--reason", "typo"], env=env, capture_output=True, text=True, check=False)
            assert unknown_cli.returncode == 1 and "process_not_found" in unknown_cli.stdout

    engine = make_engine(PG)
    try:
        async with engine.connect() as conn:
            entries = (await conn.execute(select(AuditEntry).where(AuditEntry.action == "process.drain")
                                          .order_by(AuditEntry.id))).all()
    finally:
        await engine.dispose()
    assert [(e.actor_id, e.target_id, e.reason) for e in entries] == [
        (admin["id"], owner["id"], "kernel upgrade"), (None, other, "rolling deploy")]


async def _cli(env: dict[str, str], *args: str) -> Any:
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "app", "process", *args], env=env,
                                   capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
