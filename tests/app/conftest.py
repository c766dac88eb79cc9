"""Fixtures for the server tests.

Every test that touches the database runs once per backend: SQLite (a fresh file per test) always, and
Postgres too when TEST_DATABASE_URL is set.  The Postgres schema is dropped and recreated before each test
and the real Alembic migrations build it, so the tests exercise the migrations as well as the code.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from app.core import security
from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker, migrate
from app.main import create_app
from app.services.roles import Role, set_role
from tests.app.support.processes import reaches_servers

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgres"] if TEST_DATABASE_URL else [])
TEST_SECRET = "test-secret-" + "x" * 40
PASSWORD = "correct horse"


async def reset_database(url: str) -> None:
    """An empty Postgres database: its schema dropped and made again (the migrations build it)."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            await connection.execute(text("CREATE SCHEMA public"))
    finally:
        await engine.dispose()


@pytest.fixture(autouse=True)
def cheap_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Still argon2id, but with minimal cost: the suite registers hundreds of accounts."""
    monkeypatch.setattr(security, "_hasher", PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database (not yet migrated).  Sync, so sync tests (TestClient, WebSockets) can use it."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}"
    assert TEST_DATABASE_URL is not None
    asyncio.run(reset_database(TEST_DATABASE_URL))
    return TEST_DATABASE_URL


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    # Explicit values beat the environment (CI exports REDIS_URL; these tests use the in-process lobby).
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        environment="development",
        secret_key=TEST_SECRET,
        database_url=database_url,
        redis_url=None,
        welcome_grant=50_000,
        tournament_director=False,  # tests step the director themselves (app.state.tournaments)
        web_dir=tmp_path / "no-web",
        # One client address registers every test's players; tests of the throttles set their own.
        register_per_ip=10_000,
        login_per_ip=10_000,
    )


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = make_engine(database_url)
    await migrate(engine)
    yield engine
    await engine.dispose()


@pytest.fixture
def sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return make_sessionmaker(engine)


@pytest.fixture
async def session(sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    async with sessionmaker() as session:
        yield session


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


def no_cookies() -> CookieJar:
    """The cookie jar of a client that is not a browser: it keeps no cookie, so the session cookie that login
    sets never authenticates its later requests; its login is the bearer header it sends (``bearer``).  The
    browser's cookie has its own tests (tests/app/test_session_cookie.py)."""
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test", cookies=no_cookies()) as client:
        yield client


class Player:
    """A registered account as the tests use it."""

    def __init__(self, data: dict) -> None:
        self.id: int = data["user"]["id"]
        self.name: str = data["user"]["username"]
        self.token: str = data["access_token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    async def log_in_again(self, client: httpx.AsyncClient) -> None:
        """A new session (after a freeze or a log-out-everywhere ended the old ones)."""
        response = await client.post("/api/auth/login", json={"username": self.name, "password": PASSWORD})
        assert response.status_code == 200, response.text
        self.token = response.json()["access_token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}


async def grant_role(app: FastAPI, user_id: int, role: str) -> None:
    """What ``python -m app make-admin`` does (an audited grant from the command line), for any role."""
    async with app.state.services.sessionmaker() as session:
        await set_role(session, user_id=user_id, role=Role(role), actor_id=None, reason="test set-up")


@pytest.fixture
def player(client: httpx.AsyncClient, app: FastAPI):  # noqa: ANN201 - returns the helper below
    """``await player("alice")`` registers an account through the API and returns a Player;
    ``await player("boss", role="admin")`` also grants it a role."""

    async def register(username: str, role: str | None = None) -> Player:
        response = await client.post("/api/auth/register", json={"username": username, "password": PASSWORD})
        assert response.status_code == 201, response.text
        registered = Player(response.json())
        if role is not None:
            await grant_role(app, registered.id, role)
        return registered

    return register


@pytest.fixture
def no_env_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Clear settings-related environment for tests that build Settings() from the environment."""
    for name in ("ENVIRONMENT", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ADMIN_USERNAMES", "PORT", "HOST"):
        monkeypatch.delenv(name, raising=False)
    yield


def pytest_configure(config: pytest.Config) -> None:
    # Starlette's TestClient (our only WebSocket client) warns about its httpx backend on import.
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that reaches a harness entry point starting server processes (tests/app/support/processes.py),
    from its body or a fixture, is marked ``multiprocess``: ``make test-fast`` leaves those out."""
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        # pytest has no public way from an item to its fixtures' functions; _fixtureinfo is what plugins use
        fixtures = [d.func for defs in item._fixtureinfo.name2fixturedefs.values() for d in defs]
        if any(reaches_servers(function) for function in [item.function, *fixtures]):
            item.add_marker(pytest.mark.multiprocess)


def bearer(token: str) -> dict[str, str]:
    """The handshake header a non-browser client authenticates a socket with (the token stays out of URLs)."""
    return {"Authorization": f"Bearer {token}"}


async def end_session_in(app: FastAPI, token: str, seconds: float) -> None:
    """Move the session's absolute end to ``seconds`` from now (negative: it is over already)."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from app.core.security import token_digest
    from app.models import LoginSession

    async with app.state.services.sessionmaker() as session:
        await session.execute(update(LoginSession).where(LoginSession.token_hash == token_digest(token))
                              .values(expires_at=datetime.now(UTC) + timedelta(seconds=seconds)))
        await session.commit()


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PrivateRedis:
    """A redis-server of this test alone, on a free port (never the shared one): it can be stopped and
    started again.  Stopped by its PID only."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no", "--daemonize", "no"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port)
        for _ in range(500):
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                time.sleep(0.01)
        client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def redis_server() -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def private_redis(redis_server: PrivateRedis) -> str:
    return redis_server.url


@pytest.fixture
def seat_0_deals_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0 deals the game's first hand, for tests that follow its first prompts (docs/rules/common.md#first-dealer
    F-1 draws the first dealer from the first commitment)."""
    from tests.app.support.table_harness import first_dealer_is

    first_dealer_is(monkeypatch, 0)
