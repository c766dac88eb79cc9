"""Issue 34, the shipped proxy: deploy/nginx.local.conf (Debian's nginx, run as docs/operations.md says) in
front of real ``python -m app`` processes.

* Its access log recorded every socket's ``?ticket=…`` (111 of 111): now it names the path alone.
* It passed on the client's own X-Forwarded-For and the app trusted any: a client forged its address and
  made 12 more registrations after the per-IP 429.  Now the proxy sets the header from the connection and
  the app believes it only from the proxy's address (FORWARDED_ALLOW_IPS).
* It ran only under Docker: the local config runs in front of two processes, and a player registers, logs
  in and plays through it (Postgres and Redis: TEST_DATABASE_URL and REDIS_URL, as CI sets them).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import httpx
import pytest
import websockets

from tests.app.support.cluster_harness import running_cluster
from tests.app.support.live_server import PASSWORD
from tests.app.support.local_proxy import LocalProxy, local_config, nginx_installed
from tests.app.support.served import served

pytestmark = pytest.mark.skipif(not nginx_installed(), reason="nginx is not installed (.ci/run installs it)")
PG = os.environ.get("TEST_DATABASE_URL")
REDIS = os.environ.get("REDIS_URL")
REGISTER_LIMIT = 3


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


async def _register(client: httpx.AsyncClient, name: str, **headers: str) -> httpx.Response:
    return await client.post("/api/auth/register", json={"username": name, "password": PASSWORD}, headers=headers)


async def _first_message(url: str) -> dict:
    async with websockets.connect(url, open_timeout=20) as ws:
        return json.loads(await asyncio.wait_for(ws.recv(), 20))


def _log_lines(proxy: LocalProxy, needle: str, timeout: float = 10) -> list[str]:
    """The access log's lines naming ``needle`` (a socket's line is written when it closes)."""
    deadline = time.monotonic() + timeout
    while True:
        lines = [line for line in proxy.access_log.read_text("utf-8").splitlines() if needle in line]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def test_the_local_config_keeps_every_line_but_the_ports():
    shipped = (Path(__file__).resolve().parents[3] / "deploy" / "nginx.local.conf").read_text("utf-8")
    ours = local_config([9101, 9102, 9103], 9100)
    assert "listen 127.0.0.1:9100;" in ours and "listen 127.0.0.1:8000;" in shipped
    assert [f"server 127.0.0.1:{p};" in ours for p in (9101, 9102, 9103)] == [True] * 3
    kept = [line for line in shipped.splitlines() if "127.0.0.1:" not in line]
    assert [line for line in ours.splitlines() if "127.0.0.1:" not in line] == kept


def test_the_shipped_local_config_passes_nginx_t(tmp_path: Path):
    proxy = LocalProxy([8001, 8002], tmp_path)
    checked = proxy.check()
    assert checked.returncode == 0, checked.stderr


async def test_the_access_log_holds_no_ticket_and_no_query(tmp_path: Path):
    with served(tmp_path) as app, LocalProxy([_port(app.base)], tmp_path / "proxy") as proxy:
        async with httpx.AsyncClient(base_url=proxy.url, timeout=30) as client:
            registered = await _register(client, "logged")
            assert registered.status_code == 201, registered.text
            headers = {"Authorization": f"Bearer {registered.json()['access_token']}"}
            ticket = (await client.post("/api/ws-ticket", headers=headers)).json()["ticket"]
            assert (await client.get("/api/rooms?note=private-query")).status_code == 200
        ws = proxy.url.replace("http", "ws", 1)
        assert (await _first_message(f"{ws}/ws/lobby?ticket={ticket}"))["type"] == "snapshot"
        socket_lines = _log_lines(proxy, "GET /ws/lobby ")
        assert len(socket_lines) == 1 and " 101 " in socket_lines[0], proxy.access_log.read_text("utf-8")
        assert _log_lines(proxy, "GET /api/rooms ")
        log = proxy.access_log.read_text("utf-8")
        assert ticket not in log and "ticket=" not in log and "private-query" not in log and "?" not in log, log


async def test_a_forged_x_forwarded_for_does_not_dodge_the_per_ip_limit(tmp_path: Path):
    with served(tmp_path, REGISTER_PER_IP=str(REGISTER_LIMIT)) as app, \
            LocalProxy([_port(app.base)], tmp_path / "proxy") as proxy:
        async with httpx.AsyncClient(base_url=proxy.url, timeout=30) as client:
            codes = [(await _register(client, f"forger{i}", **{"X-Forwarded-For": f"203.0.113.{i}"})).status_code
                     for i in range(REGISTER_LIMIT + 4)]
            assert codes == [201] * REGISTER_LIMIT + [429] * 4
            # the address the app saw (and stored on the session) is the connection's, not the forged one
            login = await client.post("/api/auth/login", json={"username": "forger0", "password": PASSWORD},
                                      headers={"X-Forwarded-For": "198.51.100.7"})
            sessions = await client.get("/api/me/sessions",
                                        headers={"Authorization": f"Bearer {login.json()['access_token']}"})
            assert {s["address"] for s in sessions.json()} == {"127.0.0.1"}


async def test_the_app_believes_x_forwarded_for_only_from_its_proxy(tmp_path: Path):
    """A client that reaches the app itself (from 127.0.0.2, not the proxy's 127.0.0.1) is its own address,
    whatever it writes."""
    with served(tmp_path, REGISTER_PER_IP=str(REGISTER_LIMIT), FORWARDED_ALLOW_IPS="127.0.0.1") as app:
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=app.base, transport=transport, timeout=30) as client:
            codes = [(await _register(client, f"direct{i}", **{"X-Forwarded-For": f"203.0.113.{i}"})).status_code
                     for i in range(REGISTER_LIMIT + 2)]
        assert codes == [201] * REGISTER_LIMIT + [429] * 2


@pytest.mark.skipif(not (PG and REDIS), reason="two processes need Postgres and Redis: set TEST_DATABASE_URL "
                    "(postgresql+asyncpg://...) and REDIS_URL (CI sets both)")
@pytest.mark.timeout(300)
async def test_the_local_config_in_front_of_two_processes(tmp_path: Path):
    """Register, log in, open a table and its sockets, all through the proxy; both processes serve."""
    assert PG is not None and REDIS is not None
    async with running_cluster(PG, REDIS, tmp_path, n=2) as cluster:
        with LocalProxy([s.port for s in cluster.servers], tmp_path / "proxy") as proxy:
            async with httpx.AsyncClient(base_url=proxy.url, timeout=30) as client:
                names = ["via0", "via1", "via2"]
                for name in names:
                    assert (await _register(client, name)).status_code == 201
                headers = []
                for name in names:
                    login = await client.post("/api/auth/login", json={"username": name, "password": PASSWORD})
                    assert login.status_code == 200, login.text
                    headers.append({"Authorization": f"Bearer {login.json()['access_token']}"})
                table = await client.post("/api/rooms/beginner/tables", headers=headers[0],
                                          json={"variant": "tiantai", "options": {"rounds": 1}})
                assert table.status_code == 201, table.text
                table_id = table.json()["id"]
                for h in headers[1:]:
                    sat = await client.post(f"/api/tables/{table_id}/sit", headers=h)
                    assert sat.status_code == 200, sat.text
                tickets = [(await client.post("/api/ws-ticket", headers=h)).json()["ticket"]
                           for h in headers * 2]  # each seat twice: round-robin puts them on both processes
            ws = proxy.url.replace("http", "ws", 1)
            for ticket in tickets:
                first = await _first_message(f"{ws}/ws/table/{table_id}?ticket={ticket}")
                assert first["type"] == "snapshot" and first["table"]["id"] == table_id, first
            served_by = {line.rsplit("upstream=", 1)[1] for line in _log_lines(proxy, "upstream=")}
            assert {f"127.0.0.1:{s.port}" for s in cluster.servers} <= served_by, served_by
