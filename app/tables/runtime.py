"""The tables of this process: starts an actor when a table fills, stops it when the table goes.

``TableRuntime`` is what ``create_app(table_runtime=...)`` takes: entered with the AppState at startup,
it hooks itself into the registry (``on_table_full`` / ``on_table_removed``); exited at shutdown, it stops
every actor (each closes its sockets with 1001).  The socket endpoint finds actors in ``actors``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
from collections import deque
from collections.abc import AsyncIterator, Callable

from app.bots import TableBots
from app.state import AppState
from app.tables.actor import ActorServices, TableActor
from app.tables.clock import Clock, RealClock
from app.tables.commands import Stop
from app.tables.registry import TableInfo
from app.tables.settings import TableSettings
from app.tables.settle import DatabaseSettler, Settler
from engine.bots import greedy_policy
from engine.state import HandState
from engine.variants import VARIANTS

log = logging.getLogger(__name__)


class TableRuntime:
    def __init__(self, settings: TableSettings | None = None, *, clock: Clock | None = None,
                 bots: Callable[[], TableBots] = TableBots, settler: Settler | None = None) -> None:
        self.settings = settings or TableSettings()
        self.clock: Clock = clock or RealClock()
        self.bots = bots
        self.settler = settler
        self.actors: dict[str, TableActor] = {}
        self.latencies: deque[float] = deque(maxlen=100_000)  # action → messages queued, seconds
        self.state: AppState | None = None

    @contextlib.asynccontextmanager
    async def __call__(self, state: AppState) -> AsyncIterator[None]:
        self.state = state
        state.registry.on_table_full = self.start_table
        state.registry.on_table_removed = self.stop_table
        if self.settler is None:
            self.settler = DatabaseSettler(state.sessionmaker, self.settings.settle_attempts,
                                           serial=state.settings.is_sqlite)
        if self.settings.freeze_gc:
            warm_up(self.settings.gc_gen2_threshold)
        try:
            yield
        finally:
            await self.shutdown()

    async def start_table(self, info: TableInfo) -> None:
        assert self.state is not None and self.settler is not None
        old = self.actors.get(info.id)
        if old is not None:
            old.post(Stop())
        services = ActorServices(registry=self.state.registry, settle=self.settler, clock=self.clock,
                                 settings=self.settings, bots=self.bots, on_exit=self._exited,
                                 latencies=self.latencies)
        actor = TableActor(info, services)
        self.actors[info.id] = actor
        actor.start()

    async def stop_table(self, info: TableInfo) -> None:
        actor = self.actors.pop(info.id, None)
        if actor is not None:
            actor.post(Stop())

    def _exited(self, actor: TableActor) -> None:
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]

    async def shutdown(self, timeout: float = 5.0) -> None:
        actors = list(self.actors.values())
        for actor in actors:
            actor.post(Stop())
        tasks = [a.task for a in actors if a.task is not None]
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
        self.actors.clear()


_warm = False


def warm_up(gen2_threshold: int = 0) -> None:
    """Load the engine's lazy tables, then take everything alive now out of the cyclic GC (``gc.freeze``).

    Without it a full collection walks the engine's and the frameworks' long-lived objects and stalls the
    event loop for ~100 ms (measured by bench/server_bench.py): a p99 latency spike for every table.
    """
    global _warm
    if _warm:  # once per process
        return
    _warm = True
    rng = random.Random(0)
    for name in VARIANTS:
        hand = HandState.deal(VARIANTS[name], seed=name)
        while not hand.is_over:
            hand.apply(greedy_policy(hand, hand.awaiting()[0], rng))
    gc.collect()
    gc.freeze()
    if gen2_threshold:
        gen0, gen1, _ = gc.get_threshold()
        gc.set_threshold(gen0, gen1, gen2_threshold)


def default_table_runtime() -> TableRuntime:
    return TableRuntime(TableSettings())
