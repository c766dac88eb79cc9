"""Issue 9 item 3: logins can neither stall the database nor be hammered.

The original attack: 400 concurrent wrong-password logins took 56 s, five got 500 "database is locked",
/healthz failed and a live table stalled, because argon2 ran inside an open BEGIN IMMEDIATE.  Now argon2
runs outside any transaction, reads never take SQLite's write lock, and logins and registrations are
throttled per IP and per username (429 + Retry-After).  The figures are bench/login_bench.py's.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from app.core.db import begin_write
from app.main import create_app
from app.models import User
from app.services import accounts
from tests.app.conftest import PASSWORD, no_cookies


async def _client(app: FastAPI, ip: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(ip, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://test", cookies=no_cookies())


@pytest.fixture
async def strict_app(settings):
    strict = settings.model_copy(update={"login_per_ip": 3, "login_failures_per_user": 2, "register_per_ip": 2})
    app = create_app(strict)
    async with app.router.lifespan_context(app):
        yield app


def _limited(response: httpx.Response, scope: str) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == "rate_limited" and body["params"]["scope"] == scope
    assert int(response.headers["retry-after"]) >= 1 and body["params"]["retry_after"] >= 1


async def test_logins_are_throttled_per_ip(strict_app):
    async with await _client(strict_app, "10.0.0.1") as a, await _client(strict_app, "10.0.0.2") as b:
        for i in range(3):
            bad = await a.post("/api/auth/login", json={"username": f"nobody{i}", "password": "wrong pass"})
            assert bad.status_code == 401
        _limited(await a.post("/api/auth/login", json={"username": "other", "password": "wrong pass"}), "ip")
        # another address is not affected
        assert (await b.post("/api/auth/login", json={"username": "other", "password": "x"})).status_code == 401


async def test_a_throttled_address_is_refused_before_routing(strict_app, monkeypatch):
    """The per-IP gate answers before FastAPI parses the body or opens a database session, so a login storm's
    refusals cost the event loop next to nothing (app.api.gate; the bench's discard → event figure)."""
    async with await _client(strict_app, "10.0.0.5") as a:
        for i in range(3):
            assert (await a.post("/api/auth/login", json={"username": f"n{i}", "password": "wrong pass"})
                    ).status_code == 401
        opened: list[int] = []
        state = strict_app.state.services
        real = state.sessionmaker
        monkeypatch.setattr(state, "sessionmaker", lambda *a, **k: opened.append(1) or real(*a, **k))
        # not even valid JSON: refused by the gate (429), not by validation (422)
        refused = await a.post("/api/auth/login", content=b"{not json", headers={"content-type": "application/json"})
        _limited(refused, "ip")
        assert opened == []
        # the gate only watches POST: other methods still route (405)
        assert (await a.get("/api/auth/login")).status_code == 405


async def test_failed_logins_are_throttled_per_username_across_addresses(strict_app):
    async with await _client(strict_app, "10.0.0.9") as owner:
        assert (await owner.post("/api/auth/register", json={"username": "victim", "password": PASSWORD})
                ).status_code == 201
    for i in range(2):  # two guesses from two addresses
        async with await _client(strict_app, f"10.1.0.{i}") as guesser:
            bad = await guesser.post("/api/auth/login", json={"username": "Victim", "password": "guess guess"})
            assert bad.status_code == 401
    async with await _client(strict_app, "10.1.0.99") as guesser:
        _limited(await guesser.post("/api/auth/login", json={"username": "victim", "password": PASSWORD}),
                 "username")


async def test_registrations_are_throttled_per_ip(strict_app):
    async with await _client(strict_app, "10.2.0.1") as a:
        for name in ("reg1", "reg2"):
            assert (await a.post("/api/auth/register", json={"username": name, "password": PASSWORD})
                    ).status_code == 201
        _limited(await a.post("/api/auth/register", json={"username": "reg3", "password": PASSWORD}), "ip")
        async with strict_app.state.services.sessionmaker() as session:
            assert await session.scalar(select(User).where(User.username_key == "reg3")) is None


async def test_password_checks_run_outside_any_transaction(session, monkeypatch):
    await accounts.register(session, username="alice", password=PASSWORD, welcome_grant=0)
    seen: list[bool] = []

    async def verify(password: str, password_hash: str | None) -> bool:
        seen.append(session.in_transaction())
        return False

    monkeypatch.setattr(accounts, "verify_password", verify)
    assert await accounts.check_credentials(session, username="alice", password="wrong pass") is None
    assert seen == [False]


async def test_logins_and_health_checks_never_wait_for_the_write_lock(app, client, player):
    """While a writer holds the database (on SQLite: BEGIN IMMEDIATE), reads go on: /healthz, a token
    check and a failed login all finish before the writer lets go."""
    alice = await player("alice")
    state = app.state.services
    async with state.sessionmaker() as writer:
        await begin_write(writer)
        await writer.execute(select(User.id).limit(1))  # the transaction (and on SQLite the lock) is held
        calls = [
            client.get("/healthz"),
            client.get("/api/me", headers=alice.headers),
            *[client.post("/api/auth/login", json={"username": "alice", "password": f"wrong {i}"})
              for i in range(20)],
        ]
        tasks = [asyncio.ensure_future(c) for c in calls]
        done, pending = await asyncio.wait(tasks, timeout=60)  # a hang detector, not a speed limit
        assert not pending, "a read waited for the write lock"
        statuses = [t.result().status_code for t in tasks]
        await writer.rollback()
    assert statuses[:2] == [200, 200] and set(statuses[2:]) == {401}
