"""The table journal: a live table's row and its hand's action log, so no restart or crash loses a hand.

The owner of a table writes, in order:

* ``open_game`` when the game starts (the table row: room, variant, options, seats, match state);
* ``hand_started`` before ``hand_start`` is sent (the wall's seed, salt and commitment);
* ``append`` for every accepted action, **before** its events are sent (one small insert per action);
* ``hand_closed`` after the hand is settled or voided (the match moves on: dealer, 連莊, 圈), with the settled
  hand's ``hand_result`` message, sent again to whoever (re)connects before the next deal;
* ``game_closed`` when the game ends (the row and its log go; ``hands`` keeps every settled hand).

A restarted process reads ``load_live`` and rebuilds each hand with ``HandState.replay``.

Fencing: every write names the writer's ``fence`` token and changes nothing unless the row still carries
that token (a guarded UPDATE of the row in the same transaction as the insert, so it waits for and then
re-checks any concurrent take-over).  ``claim`` raises the token; a former owner's later write then raises
``Fenced`` and must stop acting for the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from asyncpg import exceptions as asyncpg_errors
from sqlalchemy import delete, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app import metrics
from app.core.db import WRITE, HeldConnections
from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.tables.durability.journal_statement import batch_arguments
from app.tables.durability.journal_steps import (
    LIVE_TABLES,
    TABLE_ACTIONS,
    AppendStep,
    Fenced,
    HandCloseStep,
    HandStartStep,
    MatchState,
    OpenGameStep,
    Step,
    row_writes,
    run_batch,
)
from app.tables.fairness import WallSeed
from app.tables.registry import TableInfo, TableStatus

__all__ = ["Fenced", "LiveGame", "MatchState", "Step", "TableJournal"]

_T, _A = LIVE_TABLES, TABLE_ACTIONS

@dataclass
class LiveGame:
    """A live table as the journal holds it (``load_live``)."""

    info: TableInfo
    game_id: str
    fence: int
    match: MatchState
    hand_no: int
    wall: WallSeed | None  # None before the first hand
    hand_closed: bool
    v: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    last_result: dict[str, Any] | None = None  # the closed hand's hand_result message, if it was settled
    auto_seats: list[int] = field(default_factory=list)  # the seats on 托管 when it was written

class _RollBack(Exception):
    """Some unit of a batch was fenced: undo the batch and write the others again without it."""


# How close (in ticks) a time may come to a tick of the timers' grid and count as on it (``gather_deadline``).
_TICK_TOLERANCE = 1e-6


class TableJournal:
    """Durable table state on the app's database.  ``serial``: one write at a time in this process (SQLite
    has a single writer; queueing here keeps writers off its busy-timeout).

    Group commit (``group_commit``, the default): a write is queued and one writer task commits whatever is
    queued in one transaction, so the actions of many tables share one commit (one fsync) instead of paying
    one each; writes that arrive while a commit is in flight go into the next one.  Each caller still
    returns only once its own rows are committed, so "journalled before sent" holds for every table.  A
    unit (one table's writes for one command) is all or nothing: a fenced unit is left out and the rest of
    the batch written again; after a database error each unit is retried alone, so one bad write fails only
    its own table.
    """

    def __init__(self, engine: AsyncEngine, *, serial: bool = False, lock: asyncio.Lock | None = None,
                 group_commit: bool = True, max_batch: int = 512, writers: int = 1,
                 hold_connections: bool = False, synchronous_commit: bool = True,
                 gather_seconds: float = 0.0, tick_seconds: float = 0.0) -> None:
        self.engine = engine
        # Keep the writers' connections between commits (Postgres) instead of a pool checkout, with its
        # pre-ping round trip, per commit: ~1.2 → ~0.7 ms of CPU per commit on the bench machine.  A
        # connection that saw an error is closed, and the next commit takes a fresh one.  ``close`` ends them.
        self.hold_connections = hold_connections
        # ``synchronous_commit`` off (Postgres only, TableSettings.journal_synchronous_commit): commits return
        # before the WAL flush; the setting lives on the journal's own connections only.
        setup = None if synchronous_commit or engine.dialect.name != "postgresql" else "SET synchronous_commit = off"
        self.connections = HeldConnections(engine, hold=hold_connections, setup=setup, **{WRITE: True})
        # With held connections on Postgres, batches of only new hands, appends and closed hands are one
        # statement on asyncpg's own connection (``app.tables.durability.journal_statement``).
        self.driver_writes = hold_connections and engine.dialect.driver == "asyncpg"
        self.lock: Any = lock or (asyncio.Lock() if serial else contextlib.nullcontext())
        self.group_commit = group_commit
        self.max_batch = max_batch
        # Batches in flight at once (Postgres: while one commits, the next runs its statements, and the server
        # flushes their commits together; SQLite has one writer, so 1).  A table has at most one write in
        # flight, so concurrent batches never touch the same row.
        self.writers = 1 if serial else max(1, writers)
        # A writer whose queue holds only writes no player is waiting on (a bot's move, a timer's) waits up to
        # this long for other tables' writes before it commits (TableSettings.journal_gather_ms): one commit
        # per wait instead of one per table turn while the server is not busy enough to queue them by itself.
        # An urgent write (a player's own action) ends the wait at once.  While one writer gathers, no other
        # starts.
        self.gather_seconds = gather_seconds
        # The tables' timers fire on a grid of this step (``RealClock``'s slack, TableSettings.timer_slack_ms):
        # a gathering wait ends on the last tick within its window, a turn of the loop those timers wake anyway,
        # instead of waking the process once more on a time of its own (see ``gather_deadline``).
        self.tick_seconds = tick_seconds
        self._gathering = False
        self._urgent = False  # an urgent write is queued
        self._hurry: asyncio.Future[None] | None = None  # resolved to end the current gathering wait
        self.writes = 0  # units written (one per table command that changed the journal), for the bench
        self.commits = 0  # transactions committed (writes / commits: the mean batch)
        self._queue: list[tuple[list[Step], asyncio.Future[None]]] = []
        self._writers: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None  # see ``_running_loop``

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The loop the journal writes on, kept: on Python 3.11 ``asyncio.get_running_loop`` makes a
        ``getpid`` system call each time, and every table write asks.  Asked again once that loop is closed
        (a test's next loop)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            loop = self._loop = asyncio.get_running_loop()
        return loop

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction (on SQLite BEGIN IMMEDIATE, see ``app.core.db.begin_write``)."""
        async with self.lock, self.connections.connection() as conn, conn.begin():
            yield conn
        self.commits += 1

    async def _statement(self, units: list[list[Step]]) -> dict[int, Fenced] | None:
        """Write a batch of new hands and appends as one statement on asyncpg's own connection (under a held
        SQLAlchemy connection), which commits by itself: returns the units whose guard failed (nothing of
        theirs was written, the others are durable), or None when the batch is not of that shape."""
        rows = row_writes(units) if self.driver_writes else None
        statement = batch_arguments(rows) if rows is not None else None
        if rows is None or statement is None:
            return None
        async with self.lock, self.connections.driver() as driver:
            moved = {row[0] for row in await driver.fetch(statement[0], *statement[1])}
        self.commits += 1
        return {i: Fenced(f"table {r.table_id}: fence {r.fence} (hand {r.hand_no}) is no longer current")
                for i, r in enumerate(rows) if r.table_id not in moved}

    async def close(self) -> None:
        """Give back the connections held between commits (at shutdown, after the last write)."""
        await self.connections.close()

    # -- writing: one unit at a time, or many per commit -------------------------------------------------

    async def write(self, steps: Sequence[Step], *, urgent: bool = True) -> None:
        """Commit ``steps`` (one unit: all or nothing); returns once they are durable.  ``Fenced`` if a guard
        no longer holds (nothing of the unit is written).  ``urgent=False``: no player is waiting on it (a
        bot's move, a timer's), so it may wait up to ``gather_seconds`` for other tables' writes."""
        if not steps:
            return
        if not self.group_commit:
            started = time.perf_counter()
            try:
                async with self._tx() as conn:
                    for step in steps:
                        await step(conn)
            except Exception as exc:
                metrics.journal_failed(isinstance(exc, Fenced))
                raise
            self.writes += 1
            metrics.journal_committed(1, time.perf_counter() - started)
            return
        loop = self._running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.append((list(steps), done))
        if urgent:
            self.hurry()
        self._writers = {w for w in self._writers if not w.done()}  # done() is set as the writer returns
        if not self._gathering and len(self._writers) < self.writers:
            self._writers.add(loop.create_task(self._write_queued(), name="journal-writer"))
        await done

    def hurry(self) -> None:
        """A player is waiting (their own write, or their message reached a table whose write may be
        gathering): whatever is queued commits now."""
        if not self._queue:
            return
        self._urgent = True
        _resolve(self._hurry)

    def gather_deadline(self, now: float) -> float:
        """When a gathering wait that starts at ``now`` (the loop's time) ends: on the last tick of the timers'
        grid (``tick_seconds``) no later than ``now + gather_seconds``, or at the window's end when no tick
        falls inside it.  The gathered commit then leaves on a turn the tables' own timers wake the process
        for: each wake-up costs the bench's VM 0.06-0.2 ms of CPU whatever it then does, and the work after it
        runs colder (``bench/wake_cost.py``; bench/results/cluster.md, twelfth round)."""
        end = now + self.gather_seconds
        tick = self.tick_seconds
        if tick:
            # Ticks by index, with a tolerance for the division's rounding: the loop's time is whole ms, so it
            # often sits on a tick, and that tick (1.9 / 0.005 is 380.0, 380 * 0.005 is 1.9000000000000001) must
            # count as now, not as a tick ahead, or the gather would end at once.
            first = math.floor(now / tick + _TICK_TOLERANCE) + 1
            last = math.floor(end / tick + _TICK_TOLERANCE)
            if last >= first:
                return last * tick
        return end

    async def _gather(self) -> None:
        """Wait until ``gather_deadline``, for more tables' writes, or until ``hurry``.  A bare future and a
        timer: ``asyncio.wait_for`` would add a task per wait and a loop turn before the writer resumes."""
        loop = self._running_loop()
        self._gathering, self._hurry = True, loop.create_future()
        timer = loop.call_at(self.gather_deadline(loop.time()), _resolve, self._hurry)
        try:
            await self._hurry
        finally:
            timer.cancel()
            self._gathering, self._hurry = False, None

    async def _write_queued(self) -> None:
        """The writer: commit everything queued, batch after batch, until the queue is empty."""
        batch: list[tuple[list[Step], asyncio.Future[None]]] = []
        try:
            if self.gather_seconds and not self._urgent:
                await self._gather()
            while self._queue:
                self._urgent = False
                batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch:]
                await self._commit([unit for unit in batch if not unit[1].done()])  # a cancelled caller: skip
        except BaseException:  # cancelled at shutdown: no caller may wait for ever
            for _steps, done in batch + self._queue:
                _finish(done, RuntimeError("the journal writer stopped"))
            self._queue = []
            raise

    async def _commit(self, units: list[tuple[list[Step], asyncio.Future[None]]]) -> None:
        reconnected, started = False, time.perf_counter()
        while units:
            fenced: dict[int, Fenced] = {}
            steps_of = [steps for steps, _done in units]
            try:
                refused = await self._statement(steps_of)
                if refused is not None:  # written, but for the refused units
                    for i, exc in refused.items():
                        _finish(units[i][1], exc)
                    units = [unit for i, unit in enumerate(units) if i not in refused]
                else:
                    async with self._tx() as conn:
                        await run_batch(conn, steps_of, fenced)
                        if fenced:
                            raise _RollBack
            except _RollBack:
                for i, exc in fenced.items():
                    _finish(units[i][1], exc)
                units = [unit for i, unit in enumerate(units) if i not in fenced]
                continue
            except Exception as exc:  # the database failed: each unit alone, so only the bad one fails
                if self.hold_connections and not reconnected and _disconnected(exc):
                    # A held connection the server dropped while it sat idle (a restart, an idle timeout):
                    # it is closed now, so once more on a fresh one, as the pool's pre-ping would have done.
                    reconnected = True
                    await self.close()  # the others were dropped with it, most likely (a server restart)
                    continue
                if len(units) == 1:
                    _finish(units[0][1], exc)
                else:
                    for unit in units:
                        await self._commit([unit])
                return
            self.writes += len(units)
            metrics.journal_committed(len(units), time.perf_counter() - started)
            for _steps, done in units:
                _finish(done, None)
            return

    # -- the steps -------------------------------------------------------------------------------------

    @staticmethod
    async def _guard(conn: AsyncConnection, table_id: str, fence: int, /, **values: Any) -> None:
        """Update the row only while it carries ``fence``; takes the row lock for the transaction."""
        result = await conn.execute(
            update(_T).where(_T.c.id == table_id, _T.c.fence == fence).values(**(values or {"fence": fence})))
        if result.rowcount != 1:
            raise Fenced(f"table {table_id}: fence {fence} is no longer current")

    def open_game_step(self, info: TableInfo, game_id: str, fence: int, match: MatchState) -> Step:
        """A new game at the table: a fresh row (replacing any earlier game's) with no hand yet."""
        return OpenGameStep(dict(
            id=info.id, game_id=game_id, fence=fence, room=info.room.value if info.room else None,
            variant=info.variant.value, practice=info.practice, options=dict(info.options),
            seats=list(info.seats), seat_names=list(info.seat_names), bots=list(info.bots),
            hand_no=0, hand_closed=True, log_len=0, v=0, **match.columns()))

    def hand_started_step(self, table_id: str, fence: int, hand_no: int, wall: WallSeed, v: int) -> Step:
        return HandStartStep(table_id, fence, hand_no, wall, v)

    def append_step(self, table_id: str, fence: int, game_id: str, hand_no: int, start: int,
                    actions: Sequence[dict[str, Any]], v: int) -> Step:
        """Log ``actions`` as numbers ``start…`` of the hand; refused unless ``start`` is the log's length."""
        return AppendStep(table_id, fence, game_id, hand_no, start, list(actions), v)

    def hand_closed_step(self, table_id: str, fence: int, game_id: str, hand_no: int, match: MatchState,
                         v: int, result: dict[str, Any] | None = None) -> Step:
        """The hand is settled (with its ``hand_result`` message) or voided: the match moves on and its log is
        no longer needed."""
        return HandCloseStep(table_id, fence, game_id, hand_no, match, v, result)

    def auto_play_step(self, table_id: str, fence: int, seats: Sequence[int]) -> Step:
        """The seats on 托管 now (switched on by the player or after timeouts), for a resume to keep.  Fenced."""
        async def step(conn: AsyncConnection) -> None:
            await self._guard(conn, table_id, fence, auto_seats=sorted(seats))
        return step

    def game_closed_step(self, table_id: str, fence: int) -> Step:
        async def step(conn: AsyncConnection) -> None:
            await self._guard(conn, table_id, fence)
            await conn.execute(delete(_A).where(_A.c.table_id == table_id))
            await conn.execute(delete(_T).where(_T.c.id == table_id))
        return step

    # -- one step, written on its own ---------------------------------------------------------------------

    async def open_game(self, info: TableInfo, game_id: str, fence: int, match: MatchState) -> None:
        await self.write([self.open_game_step(info, game_id, fence, match)])

    async def hand_started(self, table_id: str, fence: int, hand_no: int, wall: WallSeed, v: int) -> None:
        await self.write([self.hand_started_step(table_id, fence, hand_no, wall, v)])

    async def append(self, table_id: str, fence: int, game_id: str, hand_no: int, start: int,
                     actions: Sequence[dict[str, Any]], v: int) -> None:
        await self.write([self.append_step(table_id, fence, game_id, hand_no, start, actions, v)])

    async def hand_closed(self, table_id: str, fence: int, game_id: str, hand_no: int, match: MatchState,
                          v: int, result: dict[str, Any] | None = None) -> None:
        await self.write([self.hand_closed_step(table_id, fence, game_id, hand_no, match, v, result)])

    async def game_closed(self, table_id: str, fence: int) -> None:
        await self.write([self.game_closed_step(table_id, fence)])

    async def claim(self, table_id: str, fence: int | None = None) -> int:
        """Take the table over: raise its fencing token (to ``fence`` if given, which must be higher)."""
        async with self._tx() as conn:
            current = await conn.scalar(select(_T.c.fence).where(_T.c.id == table_id))
            if current is None:
                raise Fenced(f"table {table_id}: no live game")
            new = current + 1 if fence is None else fence
            if new <= current:
                raise Fenced(f"table {table_id}: fence {new} is not newer than {current}")
            await self._guard(conn, table_id, current, fence=new)
        return new

    async def live_ids(self) -> list[str]:
        async with self.engine.connect() as conn:
            return list((await conn.scalars(select(_T.c.id).order_by(_T.c.id))).all())

    async def seated(self, user_id: int) -> tuple[str, int] | None:
        """(table id, seat) of the live game that seats ``user_id`` (入座): where a player plays, from the
        database; it answers while the tables' directory (Redis) is away."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(_T.c.id, _T.c.seats).order_by(_T.c.id))).all()
        return next(((table_id, list(seats).index(user_id)) for table_id, seats in rows if user_id in seats), None)

    async def load(self, table_id: str) -> LiveGame | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(_T).where(_T.c.id == table_id))).mappings().first()
            if row is None:
                return None
            actions = (await conn.scalars(
                select(_A.c.action).where(_A.c.table_id == table_id, _A.c.game_id == row["game_id"],
                                          _A.c.hand_no == row["hand_no"]).order_by(_A.c.seq))).all()
        return _live_game(row, list(actions)[: row["log_len"]])


def _disconnected(exc: BaseException) -> bool:
    """Whether the database error was the connection's loss (SQLAlchemy invalidates such a connection; on
    the driver's own connection, asyncpg's errors for a lost or administratively ended connection)."""
    if isinstance(exc, DBAPIError):
        return bool(exc.connection_invalidated)
    # PostgresConnectionError: SQLSTATE class 08; OperatorInterventionError: 57 (a terminated backend);
    # InternalClientError: the protocol's state after the server dropped the connection under it.
    return isinstance(exc, (OSError, asyncpg_errors.PostgresConnectionError, asyncpg_errors.InterfaceError,
                            asyncpg_errors.OperatorInterventionError, asyncpg_errors.InternalClientError))


def _resolve(waiter: asyncio.Future[None] | None) -> None:
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


def _finish(done: asyncio.Future[None], error: BaseException | None) -> None:
    if error is not None:
        metrics.journal_failed(isinstance(error, Fenced))
    if done.done():  # its caller was cancelled meanwhile
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def _live_game(row: Any, actions: list[dict[str, Any]]) -> LiveGame:
    info = TableInfo(id=row["id"], room=RoomKey(row["room"]) if row["room"] else None,
                     variant=VariantKey(row["variant"]), options=dict(row["options"]), seats=list(row["seats"]),
                     bots=list(row["bots"]), status=TableStatus.PLAYING, practice=row["practice"],
                     seat_names=list(row["seat_names"]))
    match = MatchState(row["dealer"], row["dealer_streak"], row["round_wind"], row["hands_played"],
                       row["voided"], list(row["points"]), list(row["coins"]), row["first_commitment"])
    wall = WallSeed(row["seed"], row["salt"]) if row["seed"] else None
    return LiveGame(info=info, game_id=row["game_id"], fence=row["fence"], match=match, hand_no=row["hand_no"],
                    wall=wall, hand_closed=row["hand_closed"], v=row["v"], actions=actions,
                    last_result=row["last_result"] if row["hand_closed"] else None,
                    auto_seats=[int(s) for s in row["auto_seats"] or []])
