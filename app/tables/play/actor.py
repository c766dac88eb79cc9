"""The table actor: one asyncio task per table owns its Match and HandState (lila's round actor, in Python).

Sockets never touch the game: they post commands to the actor's bounded inbox and read their own outbox
(``SeatLink``).  Timers post ``Tick`` commands, so every change happens inside the actor, one command at
a time.  A command that raises is logged with the table's state and the table goes on.

The actor owns its parts (lila's round owns its game; sockets and persistence are services it talks to):

* ``flow`` (``flow.HandFlow``): the game itself — the match, the hand, prompts, claim windows, timeouts,
  托管 and the claim hold;
* ``hand_end`` (``hand_end.HandEnd``): settlement, the result, who stands up, game over;
* ``recovery`` (``recovery.GameRecovery``): recovery from a crash in a handler, or from a restart;
* ``writer`` (``journal_writer.JournalWriter``): what the game has not journalled yet, written before it is sent;
* the seats (``slots``) and their ``out``box, which the parts share.

The flow and the recovery answer each command with what it did (``played.Played``): the actor settles a
hand that ended and ends a game that must end from that answer, never from flags left on the flow.

Durability (``journal``): while a command is handled the outbox is held; the journal then records what the
command did (a new hand's wall, the accepted actions, a closed hand) and only then are its messages sent.
So no client ever sees an event that a restart could lose.  A table resumed from the journal
(``resume=``) rebuilds its hand with ``HandState.replay`` and waits for its players to reconnect (at most
``resume_join_seconds``) before it re-opens every prompt with its full time.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from app import metrics
from app.bots import TableBots
from app.core.throttle import Throttle, retry_after
from app.tables.durability.journal import LiveGame, TableJournal
from app.tables.durability.settle import Settler
from app.tables.play.clock import Clock
from app.tables.play.commands import Command, Freeze, Inbound, Join, Leave, Stop, Tick, Unwatch, Watch
from app.tables.play.flow import HandFlow
from app.tables.play.hand_end import GameEndHook, GameOverHook, HandEnd, announce_game_over
from app.tables.play.journal_writer import JournalLost, JournalWriter
from app.tables.play.mailbox import Mailbox
from app.tables.play.outbox import Outbox
from app.tables.play.played import NOTHING, Played
from app.tables.play.recovery import GameRecovery
from app.tables.play.seats import SeatLink, SeatSlot
from app.tables.play.views import state_dump
from app.tables.protocol.close_codes import TABLE_GONE, TOO_MANY
from app.tables.protocol.messages import (
    ActionMessage,
    AutoPlayMessage,
    BackMessage,
    ErrorMessage,
    PingMessage,
    PongMessage,
    ResyncMessage,
    ServerRestartingMessage,
)
from app.tables.registry import TableInfo, TableRegistry
from app.tables.settings import TableSettings

log = logging.getLogger(__name__)
RESERVED = 64  # inbox room kept for the actor's own timers and for Leave/Stop
@dataclass
class ActorServices:
    registry: TableRegistry
    settle: Settler
    clock: Clock
    settings: TableSettings
    bots: Callable[[], TableBots] = TableBots
    on_exit: Callable[[TableActor], Awaitable[None] | None] | None = None
    on_game_over: GameOverHook | None = None
    on_game_end: GameEndHook | None = None  # every game's end, for its record (app.services.games)
    # seconds from a socket reading an action to its results being queued for every seat (recent ones)
    latencies: deque[float] | None = None
    journal: TableJournal | None = None
    # Called when the journal failed (not fenced): the runtime reloads the table from the journal later.
    on_lost: Callable[[TableActor], None] | None = None


class TableActor:
    def __init__(self, info: TableInfo, services: ActorServices, *, fence: int = 1,
                 resume: LiveGame | None = None) -> None:
        self.info = info
        self.id = info.id
        self.services = services
        self.settings = services.settings
        self.clock = services.clock
        self.registry = services.registry
        self.slots = [SeatSlot(seat, uid, info.seat_names[seat] if info.seat_names else None, seat in info.bots)
                      for seat, uid in enumerate(info.seats)]
        self.out = Outbox(self.slots, self.clock)
        self.inbox: Mailbox[Command] = Mailbox(self.settings.inbox_size + RESERVED)
        self.closed = False
        self.handled = 0
        self.task: asyncio.Task[None] | None = None
        # snapshots served per seat (connects and resyncs), on the table's clock
        self.snapshots = Throttle(self.settings.resyncs_per_window, self.settings.resync_window_seconds,
                                  clock=self.clock.now)
        self.resume = resume
        self.close_code, self.close_reason = 1001, "the table closed"
        self.closed_for_good = False  # Stop(closed=True): the game leaves the journal as the actor ends
        # The game is over and the actor still answers late sockets with how it ended (``linger``).
        self.lingering = False
        self.flow = HandFlow(info, self.settings, self.clock, self.slots, self.out, services.bots(),
                             post=self.post, table_closed=self._is_closed)
        # ``fence``: this process's fencing token for the table (journal writes carry it)
        self.writer = JournalWriter(self.flow, services.journal, fence, on_fenced=self._fenced)
        self.hand_end = HandEnd(self.flow, self.writer, self.registry, services.settle, close=self.close,
                                on_game_over=services.on_game_over, on_game_end=services.on_game_end)
        self.recovery = GameRecovery(self.flow, self.writer)

    # -- life ------------------------------------------------------------------------------------------

    def start(self) -> asyncio.Task[None]:
        # A context of its own: the request that filled the table is over; its id must not tag the game's lines.
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}", context=contextvars.Context())
        return self.task

    async def run(self) -> None:
        if self.resume is not None:
            resumed = self.recovery.resume(self.resume)
            if resumed.game_over:  # its hand did not replay, one void too many: the game ends now
                await self._follow_up(resumed, None)
        else:
            self.flow.schedule_start(self.settings.join_seconds if self._humans_missing() else None)
            await self.writer.open_game()  # the first command waits for it: the game's row comes first
        try:
            while not self.closed:
                command = await self.inbox.get()
                await self._run_one(command)
                if self.handled % 8 == 0:
                    await asyncio.sleep(0)  # a busy table must not starve the others
            if self.lingering:
                await self.linger()
        finally:
            self.lingering = False
            self._close_links(self.close_code, self.close_reason)
            while not self.inbox.empty():  # sockets that joined as the table closed must not hang
                command = self.inbox.get_nowait()
                if isinstance(command, Join | Watch):
                    command.link.close(self.close_code, self.close_reason)
            writer = self.writer
            if (self.closed_for_good or writer.end_due) and writer.journal is not None and not writer.end_recorded:
                # Until the end is recorded, the runtime keeps this table's lease (it is not resumable elsewhere).
                await writer.record_end(self.settings.end_record_seconds)
            if self.services.on_exit is not None:
                result = self.services.on_exit(self)
                if asyncio.iscoroutine(result):
                    await result

    async def _run_one(self, command: Command) -> None:
        self.handled += 1
        if self.writer.journal is not None:
            self.out.hold()
        try:
            played = self._handle(command)
        except Exception:
            played = self._crashed(command)
        await self._follow_up(played, command)

    async def _follow_up(self, played: Played, command: Command | None) -> None:
        """Journal what the command did, send it, then: settle the hand that ended, end the game."""
        urgent = not isinstance(command, Tick)  # a timer's write may wait a few ms to share a commit
        try:
            await self.writer.persist(urgent=urgent)
            self.out.release()
            if played.hand_ended:
                if self.writer.journal is not None:
                    self.out.hold()
                await self.hand_end.finish_hand()
                await self.writer.persist(urgent=urgent)
                self.out.release()
            if played.game_over and not self.closed:
                await self.hand_end.game_over(played.game_over)
        except JournalLost:
            self._lost()
        except Exception:  # past the settlement's own retries: end the game cleanly
            self._crashed(command)
            try:
                await self.hand_end.game_over("server_error")
            except JournalLost:
                self._lost()
            except Exception:
                log.exception("table %s: ending the game failed", self.id)
            self.closed = True
        except BaseException:  # cancelled (a drain past its time): what the journal may not have must not go
            self.out.drop()
            raise
        finally:
            self.out.release()

    def _handle(self, command: Command) -> Played:
        """Carry out one command; returns what it did to the game (the actor follows it up)."""
        if isinstance(command, Inbound):
            return self._inbound(command)
        if isinstance(command, Tick):
            return self.recovery.end_resume() if command.kind == "resume" else self.flow.on_tick(command)
        if isinstance(command, Join):
            return self._join(command.seat, command.link)
        if isinstance(command, Leave):
            self._leave(command.seat, command.link)
        elif isinstance(command, Watch):
            self._watch(command.link)
        elif isinstance(command, Unwatch):
            if command.link in self.out.watchers:
                self.out.watchers.remove(command.link)
        elif isinstance(command, Freeze):
            self._freeze(command.user_id)
        elif isinstance(command, Stop):
            self.closed = True
            self.closed_for_good = command.closed
            if command.reason == "server_restarting":
                self.out.send_all(ServerRestartingMessage(v=self.out.v, pause_seconds=command.pause_seconds))
                self.close_code, self.close_reason = 1001, "the server is restarting; reconnect"
            elif command.closed:  # an operator closed it, its tournament was cancelled: gone, not moving
                self.flow.close_prompts()
                announce_game_over(self.flow, "table_closed", [], self.services.on_game_end)
                self.close_code, self.close_reason = TABLE_GONE, "the table was closed"
        return NOTHING

    # -- posting (from sockets and timers) ---------------------------------------------------------------

    def offer(self, command: Command) -> bool:
        """A socket's message; False when the inbox is full (the socket tells its client "busy")."""
        if self.closed or self.inbox.qsize() >= self.settings.inbox_size:
            return False
        self.inbox.put_nowait(command)
        self.writer.hurry()  # the table may be waiting on a gathering write: the player must not wait on it
        return True

    def post(self, command: Command) -> None:
        """Join, Leave, timers and Stop: always delivered (they use the reserved room)."""
        if self.closed and not self.lingering and isinstance(command, Join | Watch):
            command.link.close(self.close_code, self.close_reason)
            return
        try:
            self.inbox.put_nowait(command)
        except asyncio.QueueFull:
            log.error("table %s: inbox full, retrying %s", self.id, command)
            asyncio.get_running_loop().call_later(0.01, self.post, command)

    # -- sockets ---------------------------------------------------------------------------------------

    def _join(self, seat: int, link: SeatLink) -> Played:
        if self.flow.is_frozen(seat):
            link.close(4003, "this account is frozen")
            return NOTHING
        if self.snapshots.hit(str(seat)):
            link.close(TOO_MANY, "too many reconnects; wait a few seconds")
            return NOTHING
        slot = self.slots[seat]
        old, slot.link = slot.link, link
        if old is not None and old is not link:
            old.close(4001, "replaced by a newer connection")
        self.flow.seat_connected(seat, first=old is None)
        return NOTHING if self._humans_missing() else self.recovery.players_seated()

    def _leave(self, seat: int, link: SeatLink) -> None:
        slot = self.slots[seat]
        if slot.link is not link:
            return  # an old socket, already replaced
        slot.link = None
        link.close(1000, "left")
        self.flow.seat_disconnected(seat)

    def _watch(self, link: SeatLink) -> None:
        """A spectator: a public snapshot (``seat`` -1, no concealed tiles, no prompt), then public events."""
        self.out.watchers.append(link)
        link.synced = True
        for message in self.flow.spectator_messages():
            link.send(message.model_dump_json())

    def _freeze(self, user_id: int) -> None:
        """托管 for a frozen account's seat until the hand ends (``HandEnd.finish_hand`` stands it up)."""
        seat = next((s.seat for s in self.slots if s.user_id == user_id and not s.bot), None)
        if seat is None or self.flow.is_frozen(seat):
            return
        link = self.slots[seat].link
        if link is not None:
            link.close(4003, "this account is frozen")  # the first close code is the one sent
            self._leave(seat, link)
        self.flow.freeze(seat)

    def close(self, code: int, reason: str) -> None:
        """The game is over: the actor stops playing, its prompts and then its sockets close with ``code``, and
        for ``ended_linger_seconds`` it answers a socket that comes back (``linger``)."""
        self.closed = True
        self.close_code, self.close_reason = code, reason
        self.lingering = self.settings.ended_linger_seconds > 0 and self.hand_end.final is not None
        self.flow.close_prompts()
        self._close_links(code, reason)

    async def linger(self) -> None:
        """終局之後: the game is over, yet a seat's socket may have dropped just before ``game_over`` reached
        it (its process restarted, its relay moved), or its reconnect may have queued behind the last move.
        For ``ended_linger_seconds`` such a socket gets its final snapshot, the last hand's result and the
        same ``game_over``, then closes 1000, instead of a 4004 that never shows how the game ended.  The
        runtime keeps the table's lease meanwhile, so the other processes relay such sockets here."""
        timer = self.clock.call_at(self.clock.now() + self.settings.ended_linger_seconds, self.post,
                                   Stop("linger_over"))
        try:
            while True:
                command = await self.inbox.get()
                if isinstance(command, Join):
                    self._show_end(command.link, self.flow.seat_messages(command.seat))
                elif isinstance(command, Watch):
                    self._show_end(command.link, self.flow.spectator_messages())
                elif isinstance(command, Stop) and not command.closed:  # the linger's end, a drain, a shutdown
                    return
                # else: the registry closing the ended table (Stop closed=True), late moves, timers: nothing
        finally:
            timer.cancel()

    def _show_end(self, link: SeatLink, shown: Sequence[BaseModel]) -> None:
        final = self.hand_end.final
        assert final is not None
        for message in [*shown, final]:
            link.send(message.model_dump_json())
        link.close(self.close_code, self.close_reason)

    def _is_closed(self) -> bool:
        return self.closed

    def _fenced(self) -> None:
        self.services.on_lost = None  # another process owns the table now: nothing to reload here

    def _lost(self) -> None:
        """The journal did not take the last command: forget it and its messages, and stop this actor.
        Unless another process took the table over, the runtime reloads it from the journal."""
        self.out.drop()
        self.flow.close_prompts()
        self.closed = True
        self.close_code, self.close_reason = 1001, "the table is restarting; reconnect"
        if self.services.on_lost is not None:
            self.services.on_lost(self)

    def _humans_missing(self) -> bool:
        return any(slot.human and slot.link is None for slot in self.slots)

    def _close_links(self, code: int, reason: str) -> None:
        self.out.release()  # what is held goes before the close
        for link in self.out.watchers:
            link.close(code, reason)
        self.out.watchers.clear()
        for slot in self.slots:
            if slot.link is not None:
                slot.link.close(code, reason)
                slot.link = None

    # -- client messages -------------------------------------------------------------------------------

    def _inbound(self, command: Inbound) -> Played:
        seat, message = command.seat, command.message
        if self.slots[seat].link is not command.link:
            return NOTHING  # a replaced socket's late message
        if isinstance(message, ActionMessage):
            played = self.flow.client_action(seat, message)
            if command.received:
                seconds = time.perf_counter() - command.received
                metrics.action_answered(message.action.kind, seconds)
                if self.services.latencies is not None:
                    self.services.latencies.append(seconds)
            return played
        if isinstance(message, PingMessage):
            self.out.send(seat, PongMessage(v=self.out.v, t=message.t, server_ms=self.clock.wall_ms()))
        elif isinstance(message, ResyncMessage):
            wait = self.snapshots.hit(str(seat))
            if wait:
                self.out.send(seat, ErrorMessage(v=self.out.v, code="resync_limited", message="too many resyncs; "
                                                 "wait a moment", params={"retry_after": retry_after(wait)}))
            else:
                self.flow.send_snapshot(seat)
        elif isinstance(message, BackMessage):
            self.flow.player_back(seat)
        elif isinstance(message, AutoPlayMessage):
            self.flow.auto_play_chosen(seat)
        return NOTHING

    # -- crashes ---------------------------------------------------------------------------------------

    def _crashed(self, command: Command | None) -> Played:
        """A command raised: log it with the table's state, tell its sender, and recover the game."""
        log.critical("table %s: crash while handling %r; state: %s", self.id, command, self.state_dump(),
                     exc_info=True)
        with contextlib.suppress(Exception):
            if isinstance(command, Inbound):
                self.flow.error(command.seat, "internal",
                                "the server failed on this message; the table goes on")
            return self.recovery.recover()
        return NOTHING

    def state_dump(self) -> dict[str, Any]:
        """The table's state for the critical log (never the seed: it stays secret until the hand ends)."""
        return state_dump(self.flow)
