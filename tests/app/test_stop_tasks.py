"""``app.core.tasks.stop_tasks``: a background loop that dropped its cancel is stopped all the same.

The hang it fixes (CI, 2026-12-06): at shutdown the cluster's lease renewal was cancelled in the middle of a
Redis command, Python 3.11's ``wait_for`` inside redis-py dropped the cancel, the loop renewed on, and the
app's shutdown awaited it for ever (tests/app/api/test_readiness_without_redis.py timed out).
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from app.core import tasks
from app.core.tasks import stop_tasks


async def _renewing(rounds: list[int], arrived: list[asyncio.Future[None]]) -> None:
    """A loop like the lease renewal: each round awaits an operation under ``wait_for`` (as redis-py does)."""
    loop = asyncio.get_running_loop()
    while True:
        operation: asyncio.Future[None] = loop.create_future()
        arrived.append(operation)
        await asyncio.wait_for(operation, 5)
        rounds.append(len(rounds))


async def test_a_loop_cancelled_as_its_operation_finishes_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tasks, "RECANCEL_SECONDS", 0.01)
    rounds: list[int] = []
    arrived: list[asyncio.Future[None]] = []
    task = asyncio.create_task(_renewing(rounds, arrived), name="renewal")
    await asyncio.sleep(0)
    arrived[-1].set_result(None)  # the reply comes in the loop turn of the cancel
    task.cancel()
    for _ in range(5):
        await asyncio.sleep(0)
    if sys.version_info < (3, 12):  # the hazard is real here: one cancel was not enough
        assert not task.done() and rounds == [0]
    await stop_tasks(task)
    assert task.done()


async def test_clean_up_shorter_than_the_grace_is_not_cut_short() -> None:
    closed: list[str] = []

    async def listening() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await asyncio.sleep(tasks.RECANCEL_SECONDS / 20)  # closing its subscription
            closed.append("subscription")

    task = asyncio.create_task(listening())
    await asyncio.sleep(0)
    await stop_tasks(task)
    assert task.cancelled() and closed == ["subscription"]


async def test_a_task_that_had_failed_raises_its_error_and_none_is_skipped() -> None:
    async def failing() -> None:
        raise LookupError("the loop had died")

    failed = asyncio.create_task(failing())
    await asyncio.sleep(0)
    waiting = asyncio.create_task(asyncio.Event().wait())
    with pytest.raises(LookupError, match="had died"):
        await stop_tasks(None, failed, waiting)
    assert waiting.cancelled()  # stopped before the error is raised
