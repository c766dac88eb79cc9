"""Issue 10: no two processes ever act on one table (two cluster runtimes in this process, a paused owner).

Runtime A owns a practice table and journals its actions under its fencing token.  A is then "paused": its
lease loop is stopped and its table clock stands still, and its lease expires (deleted from Redis, which is
what the expiry does).  Runtime B takes the table over (a higher token from Redis, raised in the database).
When A wakes, its next action is refused by the database (``Fenced``), A's actor stops, and the journal
holds only what A wrote before the take-over and what B writes after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.config import Settings
from app.core.db import make_engine, make_sessionmaker, migrate
from app.game.variants import VariantKey, validate_options
from app.lobby.broker import LobbyBroker
from app.models import LiveTable, TableAction
from app.state import AppState
from app.tables.cluster.cluster import ClusterRuntime
from app.tables.durability.journal import Fenced
from app.tables.play.clock import FakeClock
from app.tables.registry import TableRegistry
from app.tables.settings import TableSettings
from tests.app.support.cluster_harness import forget_keys

PG = os.environ.get("TEST_DATABASE_URL")
REDIS = os.environ.get("REDIS_URL")
pytestmark = pytest.mark.skipif(not (PG and REDIS), reason="table leases need Postgres and Redis: set "
                                "TEST_DATABASE_URL (postgresql+asyncpg://...) and REDIS_URL (CI sets both)")
TABLE = TableSettings(join_seconds=1, hand_pause_seconds=1, bot_delay_seconds=1, auto_play_delay_seconds=1,
                      claim_hold_seconds=0, grace_seconds=0, resume_join_seconds=1, freeze_gc=False)


async def _until(predicate: Any, what: str, timeout: float = 60) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await predicate():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


@pytest.fixture
async def shared(tmp_path: Path) -> AsyncIterator[tuple[Settings, Any, Redis]]:
    assert PG is not None and REDIS is not None
    reset = create_async_engine(PG)
    async with reset.begin() as conn:
        await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await reset.dispose()
    prefix = f"f{secrets.token_hex(4)}"
    # Long leases and scans: nothing happens by itself, the test moves every step.
    settings = Settings(_env_file=None, environment="development", secret_key="s" * 40,  # type: ignore[call-arg]
                        database_url=PG, redis_url=REDIS, redis_prefix=prefix, lease_seconds=60,
                        takeover_scan_seconds=60, tournament_director=False, web_dir=tmp_path / "no-web")
    engine = make_engine(PG)
    await migrate(engine)
    redis = Redis.from_url(REDIS)
    try:
        yield settings, engine, redis
    finally:
        await engine.dispose()
        await forget_keys(redis, prefix)
        await redis.aclose()


def _state(settings: Settings, engine: Any) -> AppState:
    return AppState(settings=settings, engine=engine, sessionmaker=make_sessionmaker(engine), broker=LobbyBroker(),
                    registry=TableRegistry())


async def test_a_paused_owner_cannot_append_after_a_take_over(shared: tuple[Settings, Any, Redis]) -> None:
    settings, engine, redis = shared
    clock_a, clock_b = FakeClock(), FakeClock()
    a, b = ClusterRuntime(TABLE, clock=clock_a), ClusterRuntime(TABLE, clock=clock_b)
    state_a, state_b = _state(settings, engine), _state(settings, engine)

    async def logged() -> tuple[int, int]:
        async with engine.connect() as conn:
            rows = await conn.scalar(select(func.count()).select_from(TableAction))
            fence = await conn.scalar(select(LiveTable.fence))
        return int(rows or 0), int(fence or 0)

    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(a.run(state_a))
        await stack.enter_async_context(b.run(state_b))
        assert a.active and b.active and a.process_id != b.process_id
        table = await state_a.registry.create_practice_table(
            variant=VariantKey.TAIWAN, options=validate_options(VariantKey.TAIWAN, {}), user_id=1, username="p")
        actor_a = a.actors[table.id]
        token_a = actor_a.writer.fence
        assert await redis.get(f"{settings.redis_prefix}:lease:{table.id}") == a.process_id.encode()

        attempts: list[tuple[int, str]] = []  # (fence, outcome) of every journal write A's actor tries
        write = a.journal.write  # type: ignore[union-attr]
        in_flight = 0

        async def spy(steps: Any, *, urgent: bool = True) -> None:  # each write of the actor carries its fence
            nonlocal in_flight
            fence = actor_a.writer.fence
            in_flight += 1
            try:
                await write(steps, urgent=urgent)
            except Fenced:
                attempts.append((fence, "refused"))
                raise
            finally:
                in_flight -= 1
            attempts.append((fence, "written"))

        a.journal.write = spy  # type: ignore[method-assign,union-attr]

        async def played(n: int) -> bool:  # A plays (its clock moves) until it has logged n actions
            clock_a.advance(1.0)
            await asyncio.sleep(0.01)
            return (await logged())[0] >= n

        await _until(lambda: played(6), "A to log six actions")
        async def a_quiet() -> bool:  # A's last write has finished and nothing is queued that would write
            await asyncio.sleep(0.2)
            return in_flight == 0 and actor_a.inbox.empty()

        await _until(a_quiet, "A's last write to finish before the pause")
        rows_before, fence_before = await logged()
        assert fence_before == token_a and attempts and all(o == "written" for _f, o in attempts)

        # The pause: A's lease loop and clock stop; its lease and its heartbeat expire.
        await a._stop_loops()
        await redis.delete(f"{settings.redis_prefix}:lease:{table.id}", f"{settings.redis_prefix}:proc:{a.process_id}")
        assert await b.scan() == 0  # B first leaves the free lease a grace period (a live owner re-asserts it)
        b.free.since[table.id] -= b.free.grace  # the grace passes (the test moves every step: 60 s leases)
        assert await b.scan() == 1  # B takes the table over from the journal
        actor_b = b.actors[table.id]
        assert actor_b.writer.fence > token_a and actor_b.flow.hand_no == actor_a.flow.hand_no
        assert (await logged()) == (rows_before, actor_b.writer.fence)  # the database now wants B's token

        # A wakes up and acts on its own clock: the write is refused, nothing is logged, A stops.
        tried = len(attempts)
        for _ in range(50):
            if actor_a.closed:
                break
            clock_a.advance(1.0)
            await asyncio.sleep(0.05)
        assert actor_a.closed
        assert attempts[tried:] and all(outcome == "refused" and fence == token_a
                                        for fence, outcome in attempts[tried:])
        assert (await logged()) == (rows_before, actor_b.writer.fence)
        assert not state_a.registry.is_open(table.id)  # A forgot it (the lobby was not told it closed)
        assert table.id not in a.actors

        # B plays on under its own token.
        async def b_played() -> bool:
            clock_b.advance(1.0)
            await asyncio.sleep(0.01)
            return (await logged())[0] > rows_before

        await _until(b_played, "B to log an action")
        assert (await logged())[1] == actor_b.writer.fence
        assert not actor_b.closed
