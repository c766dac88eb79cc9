"""The tables of this process: starts an actor when a table fills, stops it when the table goes.

``ProcessRuntime`` is what ``create_app(table_runtime=...)`` takes (``app.tables.cluster.cluster.ClusterRuntime``
extends it to several processes).  ``run(state)`` is entered with the AppState at startup: it hooks the
runtime into the registry (``on_table_full`` / ``on_table_removed``) and, with durable tables
(``TableSettings.durable``), resumes every table the journal holds; exited at shutdown, it stops every
actor (each closes its sockets with 1001).  A socket reaches a table through ``connect``.

``drain`` is the SIGTERM path (``app.__main__``): no new tables or seats, the lobby and every seat hear
``server_restarting``, sockets close with 1001 and the journal keeps every hand for the next start.
``retire`` is an operator's drain (``POST /api/admin/processes/{id}/drain``): the process opens no new table
and lets its playing games finish; with several processes it also hands its waiting tables to another one
(``app.tables.cluster.cluster``).  Each process is known by ``process_id`` (``app.tables.cluster.processes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import random
import secrets
import socket
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable

from app.bots import TableBots
from app.core.tasks import stop_tasks
from app.core.throttle import Throttle
from app.services.games import FinishedGame
from app.state import AppState
from app.tables.durability.journal import TableJournal
from app.tables.durability.records import GameRecords
from app.tables.durability.settle import DatabaseSettler, Settler
from app.tables.hosting.ends import (
    COUNTED_REFUSALS,
    NO_GAME_HERE,
    TOO_MANY_RECONNECTS,
    ActorEnd,
    Refusal,
    TableEnd,
)
from app.tables.play.actor import ActorServices, TableActor
from app.tables.play.clock import Clock, RealClock
from app.tables.play.commands import Stop
from app.tables.registry import TableInfo
from app.tables.settings import TableSettings
from engine.bots import greedy_policy
from engine.state import HandState
from engine.variants import VARIANTS

log = logging.getLogger(__name__)


class ProcessRuntime:
    def __init__(self, settings: TableSettings | None = None, *, clock: Clock | None = None,
                 bots: Callable[[], TableBots] = TableBots, settler: Settler | None = None) -> None:
        self.settings = settings or TableSettings()
        self.clock: Clock = clock or RealClock(self.settings.timer_slack_ms / 1000)
        self.bots = bots
        self.settler = settler
        self.actors: dict[str, TableActor] = {}
        # Tables closed for good whose actor has not exited yet: it may still be recording the game's end in the
        # journal through a database outage (``JournalWriter.record_end``); their leases are kept meanwhile.
        self.closing: dict[str, TableActor] = {}
        self.latencies: deque[float] = deque(maxlen=100_000)  # action → messages queued, seconds
        # The reconnect throttle for sockets that reach no game or no seat (per account; a seat's own
        # snapshots are throttled by its actor with the same limits): 3,000 sockets in 60 s to a table
        # with no game were each accepted and closed 4004 (issue 34); past the limit they get 4029.
        self.refused_sockets = Throttle(self.settings.resyncs_per_window, self.settings.resync_window_seconds,
                                        clock=self.clock.now)
        self.state: AppState | None = None
        self.journal: TableJournal | None = None
        self.draining = False
        # An operator drains this process (``retire``): no new table here, its playing games finish.
        self.retiring = False
        self.process_id = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.started_at = time.time()
        self._reloads: set[asyncio.Task[None]] = set()
        # Told when a table's game ends (the tournament director sets it).
        self.on_game_over: Callable[[TableInfo, list[int], int, str], Awaitable[None]] | None = None
        # Told before a table resumed from the journal starts, and may fill in its TableInfo: the tournament
        # director marks its tables there, so they settle without coins from their first resumed hand.
        self.on_resume: Callable[[TableInfo], Awaitable[None]] | None = None
        # Every finished game's record (app.services.games), written in its own task after game_over.
        self.records: GameRecords | None = None

    @contextlib.asynccontextmanager
    async def run(self, state: AppState) -> AsyncIterator[None]:
        """Host the tables while the app runs: entered once everything in ``state`` exists, exited first at
        shutdown (the actors stop while the database is still there)."""
        self.state = state
        state.registry.on_table_full = self.start_table
        state.registry.on_table_removed = self.stop_table
        # SQLite has one writer: settlements and journal writes queue on one lock instead of its busy-timeout.
        lock = asyncio.Lock() if state.settings.is_sqlite else None
        self.records = GameRecords(state.sessionmaker, lock=lock)
        if self.settler is None:
            self.settler = DatabaseSettler(state.sessionmaker, self.settings.settle_attempts,
                                           serial=state.settings.is_sqlite, lock=lock)
        if self.settings.durable and state.settings.is_sqlite and self.settings.sqlite_switch_interval_ms:
            sys.setswitchinterval(self.settings.sqlite_switch_interval_ms / 1000)
        if self.settings.durable:
            self.journal = TableJournal(state.engine, serial=state.settings.is_sqlite, lock=lock,
                                        group_commit=self.settings.group_commit,
                                        writers=self.settings.journal_writers,
                                        hold_connections=not state.settings.is_sqlite,
                                        synchronous_commit=self.settings.journal_synchronous_commit,
                                        gather_seconds=0.0 if state.settings.is_sqlite
                                        else self.settings.journal_gather_ms / 1000,
                                        tick_seconds=self.settings.timer_slack_ms / 1000)
        if self.settings.freeze_gc:
            warm_up(self.settings.gc_gen2_threshold, self.settings.gc_gen0_threshold)
        pacer = (asyncio.create_task(paced_collections(self.settings.gc_young_interval_seconds,
                                                       self.settings.gc_full_interval_seconds), name="gc-pacer")
                 if self.settings.gc_young_interval_seconds else None)
        try:
            await self.resume_all()
            yield
        finally:
            await stop_tasks(pacer)  # awaited: its ``finally`` gives the collector back to Python
            await self.shutdown()

    async def owner_node(self, table_id: str) -> str | None:
        """The name of the process that owns ``table_id`` (``Settings.node_name``), which the proxy routes a
        socket's ``?node=`` by; None when unnamed.  One process owns every table it plays."""
        assert self.state is not None
        return self.state.settings.node_name or None

    async def connect(self, table_id: str) -> TableEnd | Refusal:
        """A socket's way to the table (``app.tables.hosting.ends``): its actor, or a refusal (4004) when no
        game runs at it here."""
        actor = self.serving(table_id)
        if actor is None:
            return NO_GAME_HERE
        return ActorEnd(actor, self.settings.outbox_size)

    def serving(self, table_id: str) -> TableActor | None:
        """The actor that answers the table's sockets here: the one playing it, or for a few seconds after its
        game ended the one that shows how it ended (``TableActor.linger``); None when neither runs here."""
        for actor in (self.actors.get(table_id), self.closing.get(table_id)):
            if actor is not None and (not actor.closed or actor.lingering):
                return actor
        return None

    async def reach(self, table_id: str, user_id: int, *, seat: bool) -> TableEnd | Refusal:
        """A socket's way to the table for an account, through the reconnect throttle: ``connect``, and for
        a seat ``admit``.  A refusal for no game or no seat counts against the account; past
        ``resyncs_per_window`` of them in ``resync_window_seconds``, 4029 before any lookup."""
        key = str(user_id)
        if self.refused_sockets.wait(key):
            return TOO_MANY_RECONNECTS
        end = await self.connect(table_id)
        refusal = end if isinstance(end, Refusal) else end.admit(user_id) if seat else None
        if refusal is None:
            return end
        if refusal.code in COUNTED_REFUSALS:
            self.refused_sockets.hit(key)
        return refusal

    def _services(self) -> ActorServices:
        assert self.state is not None and self.settler is not None
        return ActorServices(registry=self.state.registry, settle=self.settler, clock=self.clock,
                             settings=self.settings, bots=self.bots, on_exit=self._exited,
                             latencies=self.latencies, journal=self.journal, on_lost=self._reload_later,
                             on_game_over=self._game_over, on_game_end=self._game_ended)

    async def start_table(self, info: TableInfo) -> None:
        old = self.actors.get(info.id)
        if old is not None:
            old.post(Stop())
        actor = TableActor(info, self._services())
        self.actors[info.id] = actor
        actor.start()

    async def resume_all(self) -> int:
        """Resume every table the journal holds (at startup).  Returns how many resumed."""
        if self.journal is None:
            return 0
        resumed = 0
        for table_id in await self.journal.live_ids():
            try:
                resumed += await self.resume_table(table_id)
            except Exception:
                log.exception("table %s: could not be resumed", table_id)
        if resumed:
            log.info("resumed %d live tables from the journal", resumed)
        return resumed

    async def resume_table(self, table_id: str, fence: int | None = None) -> bool:
        """Take the table over from the journal (raising its fencing token) and start its actor."""
        assert self.state is not None and self.journal is not None
        fence = await self.journal.claim(table_id, fence)
        game = await self.journal.load(table_id)
        if game is None or game.fence != fence:
            return False
        if self.on_resume is not None:
            await self.on_resume(game.info)
        self.state.registry.restore(game.info)
        actor = TableActor(game.info, self._services(), fence=fence, resume=game)
        self.actors[table_id] = actor
        actor.start()
        return True

    def _reload_later(self, actor: TableActor) -> None:
        """The journal failed under a running table: reload it from the journal once this actor is gone."""
        async def reload() -> None:
            if actor.task is not None:
                await asyncio.wait({actor.task})
            await asyncio.sleep(1.0)
            if self.draining or actor.id in self.actors:
                return
            try:
                await self.resume_table(actor.id)
            except Exception:
                log.exception("table %s: reload from the journal failed; it resumes at the next start",
                              actor.id)

        task = asyncio.get_running_loop().create_task(reload())
        self._reloads.add(task)
        task.add_done_callback(self._reloads.discard)

    async def retire(self) -> None:
        """An operator's drain (進程排空): open no new table here; playing games finish where they are.  A
        single process has nowhere to hand its waiting tables, so they stay and may still fill."""
        self.retiring = True
        if self.state is not None:
            self.state.registry.closed_to_new_tables = True

    async def drain(self, pause_seconds: float, timeout: float) -> None:
        """SIGTERM: stop seating, tell the lobby and every seat ``server_restarting``, close the sockets with
        1001 and stop the actors (their journals keep every hand; the next start resumes them)."""
        self.draining = True
        if self.state is not None:
            self.state.registry.draining = True
            await self.state.broker.restarting(pause_seconds)
        actors = list(self.actors.values())
        for actor in actors:
            actor.post(Stop("server_restarting", pause_seconds))
        tasks = [a.task for a in actors if a.task is not None]
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()

    async def stop_table(self, info: TableInfo) -> None:
        """The registry's ``on_table_removed``: the table is closed for good, its journal row goes too."""
        actor = self.actors.pop(info.id, None)
        if actor is not None:
            self.closing[info.id] = actor
            actor.post(Stop(closed=True))

    async def _game_over(self, info: TableInfo, points: list[int], hands: int, reason: str) -> None:
        if self.on_game_over is not None:
            await self.on_game_over(info, points, hands, reason)

    def _game_ended(self, game: FinishedGame) -> None:
        if self.records is not None:
            self.records.write_later(game)

    def _exited(self, actor: TableActor) -> None:
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]
        if self.closing.get(actor.id) is actor:
            del self.closing[actor.id]

    async def shutdown(self, timeout: float = 5.0) -> None:
        self.draining = True
        for task in list(self._reloads):
            task.cancel()
        actors = list(self.actors.values())
        for actor in actors + [a for a in self.closing.values() if a.lingering]:
            actor.post(Stop())  # a lingering one (its game over) stops answering late sockets
        tasks = [a.task for a in actors + list(self.closing.values()) if a.task is not None]
        if tasks:
            _done, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
        self.actors.clear()
        self.closing.clear()
        if self.records is not None:  # the last games' records, before the database goes
            await self.records.finish(timeout)
        if self.journal is not None:
            await self.journal.close()
        if isinstance(self.settler, DatabaseSettler):
            await self.settler.close()


_warm = False


async def paced_collections(young: float, full: float, *, now: Callable[[], float] | None = None,
                            sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    """Garbage collections on a clock (TableSettings.gc_young_interval_seconds, gc_full_interval_seconds).

    CPython counts allocations *minus deallocations* against threshold0, and a busy server frees finished
    hands about as fast as it builds new ones: the count then hardly moves, the young generation piles up
    (~76,000 objects at 1,500 tables) and the collection that finally comes stops every table for hundreds
    of ms (364 ms at 3,000 tables, bench/server_bench.py).  Here the young generation is collected every
    ``young`` seconds together with the middle one, so an object that outlives one collection goes straight
    to the old generation (a hand's state lives for minutes: walking it once more in the middle generation
    was ~45 ms a second at 2,000 tables), and everything every ``full`` seconds, for cyclic garbage that
    outlived a young collection (explicit collections do not advance Python's own counts, so without this
    it would never be collected).  Python's automatic collections are off meanwhile: they would add a full
    collection whenever its counts said so (4.9 s once at 3,000 tables).

    ``now`` (default: the event loop's clock) and ``sleep`` are passed in so a test can run it on its own time.
    """
    now = now or asyncio.get_running_loop().time
    next_full = now() + full
    gc.disable()  # Python's own trigger would still fire a full collection whenever its counts say so
    try:
        while True:
            await sleep(young)
            if now() >= next_full:
                gc.collect(2)
                next_full = now() + full
            else:
                gc.collect(1)
    finally:
        gc.enable()


def warm_up(gen2_threshold: int = 0, gen0_threshold: int = 0) -> None:
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
    gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(gen0_threshold or gen0, gen1, gen2_threshold or gen2)

