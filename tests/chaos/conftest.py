"""The chaos suite's private services: a Redis and a Postgres of its own (tests/chaos/services.py), never the
shared ones, since the suite restarts them.  What each scenario injected and what held is printed at the end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.chaos.scenario import REPORTS
from tests.chaos.services import PrivatePostgres, PrivateRedis, missing_binaries

MISSING = missing_binaries()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if MISSING:
        skip = pytest.mark.skip(reason=f"the chaos suite runs its own Redis and Postgres: {', '.join(MISSING)} "
                                       "not found (CI installs them)")
        for item in items:
            if "tests/chaos/" in str(item.fspath):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def private_postgres() -> Iterator[PrivatePostgres]:
    pg = PrivatePostgres()
    try:
        pg.init()
        asyncio.run(pg.start())
        yield pg
    finally:
        pg.remove()


@pytest.fixture
async def private_redis() -> AsyncIterator[PrivateRedis]:
    redis = PrivateRedis()
    await redis.start()
    try:
        yield redis
    finally:
        redis.kill()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if REPORTS:
        terminalreporter.section("chaos: what was injected and what held")
        for report in REPORTS:
            terminalreporter.write_line(report)
