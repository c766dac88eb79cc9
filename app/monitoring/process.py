"""The process's own health: how late the event loop runs (every table waits that long) and how long the
cyclic garbage collector stops it (bench/server_bench.py measures the same two under load)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import AsyncIterator
from typing import Any

from app import metrics
from app.core.tasks import stop_tasks

LAG_INTERVAL = 0.25  # seconds between two looks at the loop: cheap (4 wake-ups a second), fine enough


class GcTimer:
    """Times each collection through ``gc.callbacks`` into ``mahjong_gc_pause_seconds{generation}``."""

    def __init__(self) -> None:
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        else:
            metrics.GC_PAUSE_BY[info["generation"]].observe(time.perf_counter() - self.started)


GC_TIMER = GcTimer()


def time_gc() -> None:
    """Start timing collections (idempotent: one callback per process, however many apps it builds)."""
    if GC_TIMER not in gc.callbacks:
        gc.callbacks.append(GC_TIMER)


async def watch_loop_lag(interval: float = LAG_INTERVAL) -> None:
    """Sleep ``interval`` again and again; how much later than asked each wake-up came is the loop's lag."""
    loop = asyncio.get_running_loop()
    observe = metrics.LOOP_LAG.observe
    while True:
        asked = loop.time()
        await asyncio.sleep(interval)
        observe(max(loop.time() - asked - interval, 0.0))


@contextlib.asynccontextmanager
async def watching_the_process() -> AsyncIterator[None]:
    """Run the loop-lag watch and time GC while the app runs (the app's lifespan enters this)."""
    time_gc()
    task = asyncio.create_task(watch_loop_lag(), name="loop-lag")
    try:
        yield
    finally:
        await stop_tasks(task)
