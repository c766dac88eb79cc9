"""The in-memory table registry: which tables exist, who sits where, and the seam for the table actor.

One registry per process.  Every mutation happens synchronously before the first ``await``, so on one
event loop it is atomic without locks; lobby subscribers are told after the change.

Seam for the table actor (the code that runs hands):

* ``on_table_full(table)``: awaited when the last seat of a table fills.  The registry has already marked
  the table ``playing`` (so nobody can stand up or sit down in between); the default hook does nothing
  else.  Start the table's actor here.  If the hook raises, the error is logged and the table goes back to
  ``waiting`` with everyone still seated.  It runs inside the HTTP request of the player who sat last,
  with no database transaction open: keep it short (create the actor's task and return).
* ``on_table_removed(table)``: awaited after a table leaves the registry (its last player stood up, a
  practice table was left, or ``remove`` was called).  Stop the actor here.
* From the actor: ``set_status``, ``vacate_seat`` (or ``app.tables.seating.unseat_below_entry`` after a
  hand, docs/rules/rooms.md#rooms), ``remove``; ``get`` and ``table_of`` to look things up.  Settle hands with
  ``app.services.settlement.settle_hand`` in a session of its own.

Wiring: ``app.main.create_app(table_runtime=...)`` takes a ``TableLifespan``, whose ``run(state)`` is an
async context manager that gets the ``AppState`` (registry, sessionmaker, broker, settings) at startup: set
the hooks there, stop the actors on exit.  Hooks may be plain functions or coroutines.  ``get``/``list_tables`` return copies: mutate only through
the registry, so the lobby hears about every change.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from app.bots import DEFAULT_BOT_LEVEL
from app.core.outage import REDIS_ERRORS, Outage
from app.game.rooms import RoomKey
from app.game.variants import VARIANT_INFO, VariantKey
from app.services.errors import Conflict, ErrorCode, Forbidden, InvalidInput, NotFound, Unavailable
from app.tables.table_info import TableInfo, TableStatus, new_table_id

__all__ = ["LobbyPublish", "TableHook", "TableInfo", "TableRegistry", "TableStatus", "new_table_id"]

log = logging.getLogger(__name__)

TableHook = Callable[[TableInfo], Awaitable[None] | None]
LobbyPublish = Callable[[dict[str, Any]], Awaitable[None]]


async def _no_op(_table: TableInfo) -> None:
    return None


class SeatClaims(Protocol):
    """The one owner of commitments, for seats (``app.services.commitments.SeatCommitments``): a player's
    seat is claimed before the registry places them, and released when the seat is freed."""

    async def claim(self, user_id: int, table_id: str) -> bool: ...

    async def release(self, seats: list[tuple[int, str]]) -> None: ...


class TableRegistry:
    def __init__(
        self,
        *,
        on_table_full: TableHook = _no_op,
        on_table_removed: TableHook = _no_op,
        publish: LobbyPublish | None = None,
    ) -> None:
        self.on_table_full = on_table_full
        self.on_table_removed = on_table_removed
        self._publish = publish
        self._tables: dict[str, TableInfo] = {}
        self._seated: dict[int, str] = {}  # user id -> table id: one table per account at a time
        self.draining = False  # the server is restarting: no new tables, no new seats
        self.closed_to_new_tables = False  # an operator drains this process (ProcessRuntime.retire)
        self._directory_outage = Outage(log, "table listing: the directory (Redis)",
                                       meanwhile="listing this process's tables only")
        # Several processes (app.tables.cluster.directory.TableDirectory): other processes' tables, seating there.
        self.directory: Any = None
        # Commitments (app.services.commitments): None keeps the registry in memory only (unit tests).
        # Tournament tables claim nothing here: the tournament's commitment covers their seats.
        self.commitments: SeatClaims | None = None
        self._freed: list[tuple[int, str]] = []  # seats freed, their commitments not yet released

    # --- lookups -----------------------------------------------------------------------------------

    def get(self, table_id: str) -> TableInfo:
        return copy.deepcopy(self._get(table_id))

    def list_tables(self, room: RoomKey | None = None) -> list[TableInfo]:
        """Lobby tables (never practice ones), optionally of one room, oldest first."""
        return [
            copy.deepcopy(t) for t in self._tables.values() if not t.practice and (room is None or t.room == room)
        ]

    def all_tables(self) -> list[TableInfo]:
        """Every table, practice ones included (for operators), oldest first."""
        return [copy.deepcopy(t) for t in self._tables.values()]

    def is_open(self, table_id: str) -> bool:
        """Whether the table still exists here (a closed table is gone from the registry)."""
        return table_id in self._tables

    def table_of(self, user_id: int) -> str | None:
        return self._seated.get(user_id)

    # --- lookups across processes (the same as the above with one process) -------------------------

    async def lookup(self, table_id: str) -> TableInfo:
        """``get``, or the table from the directory when another process owns it."""
        if table_id in self._tables or self.directory is None:
            return self.get(table_id)
        return await self.directory.get(table_id)  # type: ignore[no-any-return]

    async def seated_at(self, user_id: int) -> str | None:
        """``table_of`` across every process."""
        local = self._seated.get(user_id)
        if local is not None or self.directory is None:
            return local
        found = await self.directory.table_of(user_id)
        return found[0] if found else None

    async def holds(self, user_id: int, table_id: str) -> bool:
        """Whether ``table_id`` (here or in another process) seats the player: the seat commitments' probe
        (``app.services.commitments.SeatProbe``)."""
        try:
            table = await self.lookup(table_id)
        except NotFound:
            return False
        return user_id in table.seats

    async def listing(self, room: RoomKey | None = None) -> list[TableInfo]:
        """``list_tables`` across every process (this process's own entries are the freshest)."""
        local = self.list_tables(room)
        if self.directory is None:
            return local
        try:
            everywhere = await self.directory.tables()
        except REDIS_ERRORS as exc:  # the directory (Redis) is away: this process's own tables, still true
            self._directory_outage.failed(exc)
            return local
        self._directory_outage.ok()
        tables = {t.id: t for t in everywhere if not t.practice and (room is None or t.room == room)}
        tables.update((t.id, t) for t in local)
        return list(tables.values())

    def _seating(self, user_id: int) -> AbstractAsyncContextManager[Any]:
        """With several processes, the account's seating lock (``TableDirectory.seating``) around a create or
        a sit; one process needs none (no await between its look at ``_seated`` and the seat taken)."""
        return contextlib.nullcontext() if self.directory is None else self.directory.seating(user_id)

    async def _check_free_elsewhere(self, user_id: int) -> None:
        """One table per account across processes (the local check is ``_check_free``)."""
        if self.directory is None or user_id in self._seated:
            return
        found = await self.directory.table_of(user_id)
        if found is not None and found[0] not in self._tables:
            raise Conflict(f"you are already seated at another table ({found[0]}, seat {found[1]}); stand up "
                           "there first", ErrorCode.ALREADY_SEATED, table_id=found[0], seat=found[1])

    # --- players -----------------------------------------------------------------------------------

    async def create_table(
        self, *, room: RoomKey, variant: VariantKey, options: dict[str, Any], user_id: int, username: str
    ) -> TableInfo:
        """Open a lobby table with its creator in seat 0 (an empty table would only linger)."""
        async with self._seating(user_id):
            await self._check_free_elsewhere(user_id)
            table_id = await self._claimed_new(user_id)
            table = self._new(room=room, variant=variant, options=options, practice=False, table_id=table_id)
            table.creator = user_id
            self._place(table, 0, user_id, username)
            await self._changed(table, "table_created")
        return await self._start_if_full(table)

    async def create_practice_table(
        self, *, variant: VariantKey, options: dict[str, Any], user_id: int, username: str,
        bot_level: str = DEFAULT_BOT_LEVEL, suggest_discard: bool = False, bot_speed: str = "normal",
        hands_limit: int | None = None,
    ) -> TableInfo:
        """A private table: the player in seat 0, server bots everywhere else.  It starts at once (and ends
        after ``hands_limit`` hands when given: a short practice game)."""
        async with self._seating(user_id):
            await self._check_free_elsewhere(user_id)
            table_id = await self._claimed_new(user_id)
            table = self._new(room=None, variant=variant, options=options, practice=True, table_id=table_id)
            table.bot_level, table.suggest_discard, table.bot_speed = bot_level, suggest_discard, bot_speed
            table.hands_limit = hands_limit
            table.bots = list(range(1, len(table.seats)))
            self._place(table, 0, user_id, username)
            return await self._start_if_full(table)

    async def create_tournament_table(
        self, *, room: RoomKey, variant: VariantKey, options: dict[str, Any], seats: list[tuple[int, str] | None],
        game_id: int, hands_limit: int | None, table_id: str | None = None,
    ) -> TableInfo:
        """A tournament table (app.tournaments.director): the players seated by the tournament, house bots
        in the None seats, starting at once.  A player still at a waiting table is stood up there first.
        ``table_id``: chosen by the director and stored with the game before the table starts, so a table
        resumed after a crash is always known as the tournament's."""
        for entry in seats:
            other = self._tables.get(self._seated.get(entry[0], "")) if entry else None
            if entry and other is not None and other.status != TableStatus.PLAYING:
                self._unplace(other, other.seats.index(entry[0]))
                if not other.players:
                    await self.remove(other.id)
                else:
                    await self._changed(other, "table_updated")
        table = self._new(room=room, variant=variant, options=options, practice=False, table_id=table_id)
        table.tournament_game_id, table.hands_limit = game_id, hands_limit
        table.bots = [seat for seat, entry in enumerate(seats) if entry is None]
        for seat, entry in enumerate(seats):
            if entry is not None:
                self._place(table, seat, *entry)
        await self._changed(table, "table_created")
        return await self._start_if_full(table)

    async def create_matched_table(
        self, *, room: RoomKey, variant: VariantKey, options: dict[str, Any], seats: list[tuple[int, str]],
        table_id: str,
    ) -> TableInfo:
        """A quick-play table (快速開始, app.quickplay.matcher): every seat a matched player, in the given
        order, starting at once.  The matcher has turned each player's queue commitment into this seat."""
        for user_id, _name in seats:
            self._check_free(user_id)
        self._check_open()
        table = self._new(room=room, variant=variant, options=options, practice=False, table_id=table_id)
        for seat, (user_id, username) in enumerate(seats):
            self._place(table, seat, user_id, username)
        await self._changed(table, "table_created")
        return await self._start_if_full(table)

    async def sit(self, table_id: str, *, user_id: int, username: str, seat: int | None = None) -> TableInfo:
        """Take a seat (the first free one if ``seat`` is None), here or on the process that owns the table."""
        async with self._seating(user_id):
            if table_id not in self._tables and self.directory is not None:  # owned by another process
                await self._check_free_elsewhere(user_id)
                if self._seated.get(user_id) is not None:
                    self._check_free(user_id)
                sat = await self.directory.forward(table_id, "sit", user_id=user_id, username=username, seat=seat)
                assert sat is not None
                return sat  # type: ignore[no-any-return]
            return await self.sit_here(table_id, user_id=user_id, username=username, seat=seat)

    async def sit_here(self, table_id: str, *, user_id: int, username: str, seat: int | None = None) -> TableInfo:
        """``sit`` at a table of this process; run directly for a sit forwarded by another process, which
        holds the account's seating lock."""
        await self._check_free_elsewhere(user_id)
        self._free_seat(table_id, user_id, seat)
        created = await self._claim(user_id, table_id)
        try:  # the claim awaited: look again
            seat = self._free_seat(table_id, user_id, seat)
        except Exception:
            await self._unclaim(user_id, table_id, created)
            raise
        table = self._tables[table_id]
        self._place(table, seat, user_id, username)
        await self._changed(table, "table_updated")
        return await self._start_if_full(table)

    def _free_seat(self, table_id: str, user_id: int, seat: int | None) -> int:
        """The seat ``user_id`` may take at ``table_id`` (``seat``, or the first free one), or the coded refusal."""
        table = self._get(table_id)
        if table.practice:
            raise Forbidden("practice tables are private", ErrorCode.PRACTICE_PRIVATE, table_id=table_id)
        if self._seated.get(user_id) == table_id:
            raise Conflict("you are already seated at this table", ErrorCode.ALREADY_AT_THIS_TABLE,
                           table_id=table_id, seat=table.seats.index(user_id))
        self._check_open()
        self._check_free(user_id)
        if table.status != TableStatus.WAITING:
            raise Conflict("this table is not taking players", ErrorCode.TABLE_NOT_WAITING, table_id=table_id,
                           status=table.status.value)
        if seat is None:
            seat = next((s for s, uid in enumerate(table.seats) if uid is None and s not in table.bots), None)
            if seat is None:
                raise Conflict("this table is full", ErrorCode.TABLE_FULL, table_id=table_id)
        elif not 0 <= seat < len(table.seats):
            raise InvalidInput(f"seat must be between 0 and {len(table.seats) - 1}", ErrorCode.SEAT_OUT_OF_RANGE,
                               seat=seat, minimum=0, maximum=len(table.seats) - 1)
        elif table.seats[seat] is not None or seat in table.bots:
            raise Conflict(f"seat {seat} is taken", ErrorCode.SEAT_TAKEN, table_id=table_id, seat=seat)
        return seat

    async def fill_with_bots(self, table_id: str, *, user_id: int) -> TableInfo:
        """The creator of a waiting lobby table seats server bots in every empty seat (playing with friends
        when not enough came); the table then starts.  Bots hold no coins: app.services.settlement."""
        table = self._get(table_id)
        if table.practice or table.tournament_game_id is not None or table.creator != user_id:
            raise Forbidden("only the player who opened the table may seat bots", ErrorCode.NOT_TABLE_CREATOR,
                            table_id=table_id)
        self._check_open()
        if table.status != TableStatus.WAITING:
            raise Conflict("this table is not taking players", ErrorCode.TABLE_NOT_WAITING, table_id=table_id,
                           status=table.status.value)
        empty = [s for s, uid in enumerate(table.seats) if uid is None and s not in table.bots]
        if not empty:
            raise Conflict("this table is full", ErrorCode.TABLE_FULL, table_id=table_id)
        table.bots = sorted([*table.bots, *empty])
        await self._changed(table, "table_updated")
        return await self._start_if_full(table)

    async def stand(self, table_id: str, *, user_id: int) -> TableInfo | None:
        """Leave a seat.  Returns the table, or None when it closed because nobody human is left."""
        if table_id not in self._tables and self.directory is not None:  # owned by another process
            return await self.directory.forward(table_id, "stand", user_id=user_id)  # type: ignore[no-any-return]
        table = self._get(table_id)
        if self._seated.get(user_id) != table_id:
            raise Conflict("you are not seated at this table", ErrorCode.NOT_SEATED, table_id=table_id)
        if table.status == TableStatus.PLAYING and not table.practice:
            # Leaving a coin game mid-hand is the actor's business (auto-play, abandon penalties).
            raise Conflict("the game is in progress", ErrorCode.GAME_IN_PROGRESS, table_id=table_id)
        self._unplace(table, table.seats.index(user_id))
        if not table.players:
            await self.remove(table_id)
            return None
        if table.creator == user_id:  # someone still at the table may seat bots now
            table.creator = table.players[0]
        await self._changed(table, "table_updated")
        return copy.deepcopy(table)

    # --- the table actor's side --------------------------------------------------------------------

    async def set_status(self, table_id: str, status: TableStatus) -> TableInfo:
        table = self._get(table_id)
        table.status = TableStatus(status)
        await self._changed(table, "table_updated")
        return copy.deepcopy(table)

    async def vacate_seat(self, table_id: str, seat: int) -> TableInfo:
        """Free a seat whatever the table's status (the player left, or can no longer afford the room)."""
        table = self._get(table_id)
        if table.seats[seat] is not None:
            self._unplace(table, seat)
            await self._changed(table, "table_updated")
        return copy.deepcopy(table)

    async def remove(self, table_id: str) -> None:
        table = self._tables.pop(table_id, None)
        if table is None:
            return
        for uid in table.players:
            self._seated.pop(uid, None)
            if table.tournament_game_id is None:
                self._freed.append((uid, table.id))
        table.version += 1
        if self.directory is not None:
            await self.directory.changed(table, "table_removed")
        if not table.practice:
            await self._send({"type": "table_removed", "table": table.public()})
        await self._call(self.on_table_removed, table, "on_table_removed")
        await self._release_freed()

    # --- internals ---------------------------------------------------------------------------------

    def _get(self, table_id: str) -> TableInfo:
        table = self._tables.get(table_id)
        if table is None:
            raise NotFound("no such table", ErrorCode.TABLE_NOT_FOUND, table_id=table_id)
        return table

    def restore(self, table: TableInfo) -> None:
        """Put back a table resumed from the journal (its game is playing; no hooks run, the lobby hears
        of it when the table next changes)."""
        old = self._tables.get(table.id)
        if old is not None:
            for uid in old.players:
                self._seated.pop(uid, None)
        table = copy.deepcopy(table)
        table.status = TableStatus.PLAYING
        self._tables[table.id] = table
        for uid in table.players:
            self._seated[uid] = table.id

    async def adopt(self, table: TableInfo) -> None:
        """Take in a waiting table another process hands over while an operator drains it
        (``app.tables.cluster.cluster``): its seats as they were, its id kept (so its seats' commitments
        hold), and the lobby and the directory hear of it here with a newer version."""
        self._check_open()
        if self.closed_to_new_tables:
            raise Unavailable("this server is being drained; try again", ErrorCode.SERVER_DRAINING)
        for uid in table.players:
            if self._seated.get(uid, table.id) != table.id:
                raise Conflict("a player of the table sits at another table here", ErrorCode.ALREADY_SEATED,
                               table_id=self._seated[uid], seat=0)
        table = copy.deepcopy(table)
        self._tables[table.id] = table
        for uid in table.players:
            self._seated[uid] = table.id
        await self._changed(table, "table_updated")

    def forget(self, table_id: str) -> None:
        """Drop a table that now plays in another process (``app.tables.cluster.cluster``): no hooks, and the lobby
        hears nothing, since the table lives on there."""
        table = self._tables.pop(table_id, None)
        if table is not None:
            for uid in table.players:
                if self._seated.get(uid) == table_id:
                    self._seated.pop(uid, None)

    def set_version(self, table_id: str, at_least: int) -> None:
        """Lift a resumed table's lobby version (a new owner must not send versions older than the last)."""
        table = self._get(table_id)
        table.version = max(table.version, at_least)

    async def _claimed_new(self, user_id: int) -> str:
        """For a new table: the checks, then the player's claim on its seat 0; returns the new table's id."""
        self._check_open()
        if self.closed_to_new_tables:
            raise Unavailable("this server is being drained; try again", ErrorCode.SERVER_DRAINING)
        self._check_free(user_id)
        table_id = new_table_id()
        created = await self._claim(user_id, table_id)
        try:  # the claim awaited: look again
            self._check_open()
            self._check_free(user_id)
        except Exception:
            await self._unclaim(user_id, table_id, created)
            raise
        return table_id

    async def _claim(self, user_id: int, table_id: str) -> bool:
        """Claim the seat's commitment (the coded 409 if the player holds another); True if newly made."""
        return False if self.commitments is None else await self.commitments.claim(user_id, table_id)

    async def _unclaim(self, user_id: int, table_id: str, created: bool) -> None:
        """Seating failed after the claim: give back a commitment this seating made."""
        if created and self.commitments is not None and self._seated.get(user_id) != table_id:
            await self.commitments.release([(user_id, table_id)])

    async def _release_freed(self) -> None:
        freed, self._freed = self._freed, []
        if freed and self.commitments is not None:
            await self.commitments.release(freed)

    def _check_open(self) -> None:
        if self.draining:
            raise Unavailable("the server is restarting; try again in a few seconds")

    def _check_free(self, user_id: int) -> None:
        table_id = self._seated.get(user_id)
        if table_id is not None:
            seat = self._tables[table_id].seats.index(user_id)
            raise Conflict(f"you are already seated at another table ({table_id}, seat {seat}); stand up there first",
                           ErrorCode.ALREADY_SEATED, table_id=table_id, seat=seat)

    def _new(self, *, room: RoomKey | None, variant: VariantKey, options: dict[str, Any], practice: bool,
             table_id: str | None = None) -> TableInfo:
        n_seats = VARIANT_INFO[variant].seats
        if table_id is not None and table_id in self._tables:
            raise RuntimeError(f"table {table_id} exists already")  # the director's ids are fresh: a bug
        table = TableInfo(
            id=table_id or new_table_id(),
            room=room,
            variant=variant,
            options=dict(options),
            seats=[None] * n_seats,
            seat_names=[None] * n_seats,
            practice=practice,
        )
        self._tables[table.id] = table
        return table

    def _place(self, table: TableInfo, seat: int, user_id: int, username: str) -> None:
        table.seats[seat] = user_id
        table.seat_names[seat] = username
        self._seated[user_id] = table.id

    def _unplace(self, table: TableInfo, seat: int) -> None:
        uid = table.seats[seat]
        table.seats[seat] = None
        table.seat_names[seat] = None
        if uid is not None:
            self._seated.pop(uid, None)
            if table.tournament_game_id is None:
                self._freed.append((uid, table.id))

    async def _start_if_full(self, table: TableInfo) -> TableInfo:
        if table.is_full and table.status == TableStatus.WAITING:
            table.status = TableStatus.PLAYING
            await self._changed(table, "table_updated")
            started = await self._call(self.on_table_full, copy.deepcopy(table), "on_table_full")
            if not started and self._tables.get(table.id) is table and table.status == TableStatus.PLAYING:
                # No actor is running it; let the players stand up rather than sit at a dead table.
                table.status = TableStatus.WAITING
                await self._changed(table, "table_updated")
        return copy.deepcopy(table)

    async def _call(self, hook: TableHook, table: TableInfo, name: str) -> bool:
        try:
            result = hook(table)
            if inspect.isawaitable(result):
                await result
            return True
        except Exception:
            log.exception("%s failed for table %s", name, table.id)
            return False

    async def _changed(self, table: TableInfo, kind: str) -> None:
        await self._release_freed()
        table.version += 1
        if self.directory is not None:
            await self.directory.changed(table, kind)
        if not table.practice:
            await self._send({"type": kind, "table": table.public()})

    async def _send(self, event: dict[str, Any]) -> None:
        if self._publish is None:
            return
        try:
            await self._publish(event)
        except Exception:
            # The lobby is best effort (clients resync from the snapshot); seating must not fail on it.
            log.exception("lobby publish failed")
