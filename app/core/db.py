"""Engine, sessions and migrations.  The same code (and the same migrations) serve SQLite and Postgres."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.core.config import PROJECT_ROOT

ALEMBIC_INI = PROJECT_ROOT / "alembic.ini"


def make_engine(database_url: str, **kwargs: Any) -> AsyncEngine:
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return create_async_engine(url, pool_pre_ping=True, **kwargs)

    if url.database and url.database != ":memory:":
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    # A generous busy timeout: writers queue behind each other instead of failing.
    engine = create_async_engine(url, connect_args={"timeout": 30}, **kwargs)
    _make_sqlite_transactions_serial(engine)
    return engine


# Execution option that marks a transaction as a writer (see ``begin_write``).
WRITE = "mahjong_write"


def _make_sqlite_transactions_serial(engine: AsyncEngine) -> None:
    """Make every SQLite *write* transaction take the write lock when it begins; reads never take it.

    The sqlite3 driver only opens a transaction at the first INSERT/UPDATE, so a SELECT followed by an UPDATE
    is two separate steps and a concurrent settlement could slip in between (a lost update).  SQLite has no
    SELECT ... FOR UPDATE; BEGIN IMMEDIATE is its equivalent, taken for the whole database.  Services that
    write call ``begin_write`` first and so run one at a time, which is fine for the single-process embedded
    setup (Postgres is the backend for real concurrency).  Everything else begins DEFERRED: in WAL mode a
    reader never waits for a writer, so /healthz, token checks and logins cannot queue behind a settlement
    (issue 9: logins holding BEGIN IMMEDIATE across argon2 stalled the whole server).
    """

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        writer = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")


async def begin_write(session: AsyncSession) -> None:
    """Start ``session``'s transaction as a writer: on SQLite it takes the write lock now (BEGIN IMMEDIATE),
    so what it reads cannot change before it writes.  A read transaction still open is committed first.
    On Postgres it is a plain BEGIN (writers lock rows with SELECT ... FOR UPDATE)."""
    if session.in_transaction():
        connection = (await session.connection()).sync_connection
        if connection is not None and connection.get_execution_options().get(WRITE, False):
            return  # already a writer
        await session.commit()  # end the read transaction (expire_on_commit=False: objects stay loaded)
    await session.connection(execution_options={WRITE: True})


class HeldConnections:
    """Connections a background writer keeps between statements (the journal, the settler on Postgres).

    A pool checkout costs a pre-ping round trip and the pool's bookkeeping every time: ~0.5 ms of CPU per
    commit on the bench machine.  With ``hold`` a connection goes back to this list instead of the pool,
    unless something failed on it (then it is closed, and the next use takes a fresh one).  ``options`` are
    set once on each new connection.  ``close`` gives them back (at shutdown).

    ``setup`` (Postgres session settings such as ``SET synchronous_commit = off``) runs once on each new
    connection through the driver; such a connection is never given back to the pool (it is discarded), so
    no other user of the engine ever inherits the setting.
    """

    def __init__(self, engine: AsyncEngine, *, hold: bool = True, setup: str | None = None, **options: Any) -> None:
        self.engine = engine
        self.hold = hold
        self.setup = setup
        self.options = options
        self._held: list[AsyncConnection] = []
        # Each held connection's driver connection, found once: SQLAlchemy's ``get_raw_connection`` crosses
        # into a greenlet every time (~5 % of the journal's CPU per commit, bench/results/throughput.md).
        self._drivers: dict[AsyncConnection, Any] = {}

    async def _take(self) -> AsyncConnection:
        """A held connection, or a new one with the options and the setup applied."""
        if self._held:
            return self._held.pop()
        # SQLAlchemy 2 sets execution options on the connection itself: once is enough
        conn = await self.engine.connect()
        if self.options:
            conn = await conn.execution_options(**self.options)
        if self.setup:
            try:
                await (await _driver_of(conn)).execute(self.setup)
            except BaseException:
                await self._discard(conn)
                raise
        return conn

    async def _give_back(self, conn: AsyncConnection) -> None:
        if self.hold:
            self._held.append(conn)
        else:
            await self._discard(conn)

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        conn = await self._take()
        try:
            yield conn
        except BaseException:
            await self._discard(conn)
            raise
        await self._give_back(conn)

    def driver(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """The driver's own connection under a held one (asyncpg's, for statements SQLAlchemy need not see)."""
        return _DriverLease(self)

    async def _discard(self, conn: AsyncConnection) -> None:
        self._drivers.pop(conn, None)
        with contextlib.suppress(Exception):
            if self.setup:
                await conn.invalidate()  # its session settings must not reach the pool's other users
            await conn.close()

    async def close(self) -> None:
        held, self._held = self._held, []
        for conn in held:
            await self._discard(conn)


class _DriverLease:
    """``HeldConnections.driver()``: a plain context manager rather than a generator inside another (the
    journal takes one per commit, a few hundred a second; each generator-based manager is an object, a
    generator and two of its steps on the way in and out)."""

    __slots__ = ("_held", "_conn")

    def __init__(self, held: HeldConnections) -> None:
        self._held = held
        self._conn: AsyncConnection | None = None

    async def __aenter__(self) -> Any:
        held = self._held
        conn = self._conn = await held._take()
        driver = held._drivers.get(conn)
        if driver is None:
            try:
                driver = await _driver_of(conn)
            except BaseException:
                await held._discard(conn)
                raise
            if held.hold:
                held._drivers[conn] = driver
        return driver

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        conn, self._conn = self._conn, None
        assert conn is not None
        if exc_type is None:
            await self._held._give_back(conn)
        else:
            await self._held._discard(conn)


async def _driver_of(conn: AsyncConnection) -> Any:
    """The driver's own connection (asyncpg's) under a SQLAlchemy one."""
    return (await conn.get_raw_connection()).driver_connection


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # expire_on_commit=False: services commit, and routers still read the returned objects afterwards.
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config() -> Config:
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    return config


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` on ``engine`` (migrations/env.py uses the connection we pass)."""

    def _upgrade(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)
