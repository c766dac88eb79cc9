"""The FastAPI application: ``create_app(settings)`` builds it; ``python -m app`` serves it."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from fastapi import FastAPI
from redis.asyncio import Redis

from app.api.body_limit import BodyLimit
from app.api.errors import install_error_handlers
from app.api.gate import ThrottleGate
from app.api.headers import TransportSecurity
from app.api.main import api_router
from app.api.request_ids import RequestIds
from app.core.config import Settings, get_settings
from app.core.db import make_engine, make_sessionmaker, migrate
from app.core.redact import install_secret_scrubbing
from app.core.security import set_hash_workers
from app.lobby.broker import LobbyBroker, RedisLobbyBroker
from app.lobby.notices import crying_notices
from app.logs import use_json_logs
from app.monitoring.http import HttpMetrics
from app.monitoring.process import watching_the_process
from app.quickplay.matcher import running_matcher
from app.quickplay.setup import make_quickplay
from app.schemas import ERROR_RESPONSES
from app.services.commitments import SeatCommitments
from app.state import AppState
from app.tables.cluster.cluster import default_table_runtime  # [tables] the table actors
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.registry import TableRegistry
from app.tournaments.director import make_director, running_director
from app.web import mount_web
from app.ws import lobby, spectate, table_socket
from app.ws.frames import quiet_frame_errors
from app.ws.serve import ServerSend

log = logging.getLogger(__name__)

class TableLifespan(Protocol):
    """What ``create_app`` runs the tables with: a ``ProcessRuntime`` (``ClusterRuntime`` by default), or a
    test's stand-in.  ``run(state)`` is entered once everything in AppState exists (it sets
    ``registry.on_table_full`` etc.) and exited first at shutdown (the actors stop while the database is
    still there)."""

    def run(self, state: AppState) -> AbstractAsyncContextManager[None]: ...


def create_app(settings: Settings | None = None, *, table_runtime: TableLifespan | None = None) -> FastAPI:
    settings = settings or get_settings()
    install_secret_scrubbing()  # no token or ticket in any log line, whatever the format
    quiet_frame_errors()  # a broken frame from a client is a count, not a traceback
    if settings.log_format == "json":
        use_json_logs()
    tables = table_runtime or default_table_runtime()  # [tables] actors start when a table fills

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        set_hash_workers(settings.password_hash_workers)
        engine = make_engine(settings.database_url)
        if settings.migrate_on_startup:
            await migrate(engine)
        sessionmaker = make_sessionmaker(engine)
        if os.environ.get("ADMIN_USERNAMES"):
            # Removed (issue 9 item 6): whoever registered such a name first became an admin.
            log.warning("ADMIN_USERNAMES is ignored; use `python -m app make-admin NAME` on an existing account")
        broker = (
            RedisLobbyBroker(settings.redis_url, channel=settings.lobby_channel)
            if settings.redis_url
            else LobbyBroker()
        )
        await broker.start()
        state = AppState(
            settings=settings,
            engine=engine,
            sessionmaker=sessionmaker,
            broker=broker,
            registry=TableRegistry(publish=broker.publish),
            redis=Redis.from_url(settings.redis_url) if settings.redis_url else None,
        )
        state.registry.commitments = SeatCommitments(sessionmaker, probe=state.registry.holds)
        app.state.services = state
        await state.live_sessions.start()
        try:
            async with contextlib.AsyncExitStack() as stack:
                runtime = tables if isinstance(tables, ProcessRuntime) else None
                # Hooked in before the runtime resumes its tables (a resumed tournament table settles as the
                # tournament's from its first hand); ticking after the tables start, stopped before them.
                director = make_director(state, runtime)
                await stack.enter_async_context(tables.run(state))
                app.state.tournaments = await stack.enter_async_context(running_director(director))
                matcher = make_quickplay(state, runtime.journal if runtime is not None else None)
                state.quickplay = matcher.quickplay
                app.state.matcher = await stack.enter_async_context(running_matcher(matcher))
                await stack.enter_async_context(watching_the_process())  # loop lag, GC pauses
                # notices reach the sockets as they start (app.lobby.notices)
                app.state.notices = await stack.enter_async_context(crying_notices(state))
                yield
        finally:
            await state.live_sessions.stop()
            if state.redis is not None:
                await state.redis.aclose()
            await broker.stop()
            await engine.dispose()

    app = FastAPI(
        title="Mahjong server",
        summary="天台, 台炮 and 台灣16張 for coins: accounts, ledger, rooms and tables.",
        lifespan=lifespan,
        responses=ERROR_RESPONSES,
    )

    install_error_handlers(app)
    app.add_middleware(ThrottleGate)  # per-IP login/registration limits, before routing
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)  # 413 before anything parses a body
    # Security headers on every response (429s and 413s included); sockets from other origins refused.
    app.add_middleware(TransportSecurity, allowed_origins=settings.ws_origins)
    # outermost: times every request and sees the status the client got; JSON access lines replace uvicorn's
    app.add_middleware(HttpMetrics, log_access=settings.log_format == "json")
    # outermost of all: every request and socket gets its X-Request-ID before anything logs (app.core.request_ids)
    app.add_middleware(RequestIds)
    # outside even that: a socket's frames skip every wrapper above, which only watch its handshake and close
    app.add_middleware(ServerSend)
    app.include_router(api_router)
    # [tables] the table socket finds the actors through app.state.table_runtime
    app.state.table_runtime = tables
    app.include_router(lobby.router)
    app.include_router(table_socket.router)
    app.include_router(spectate.router)  # operators watch a live table (public view only)
    mount_web(app, settings.web_dir)
    return app
