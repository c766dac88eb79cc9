"""The table actor: one asyncio task per table owns its Match and HandState (lila's round actor, in Python).

Sockets never touch the game: they post commands to the actor's bounded inbox and read their own outbox
(``SeatLink``).  Timers post ``Tick`` commands, so every change happens inside the actor, one command at
a time.  A command that raises is logged with the table's state and the table goes on.

The hand flow itself (prompts, claim windows, timeouts, 托管, the claim hold) is ``flow.HandFlow``.

Durability (``journal``): while a command is handled the outbox is held; the journal then records what the
command did (a new hand's wall, the accepted actions, a closed hand) and only then are its messages sent.
So no client ever sees an event that a restart could lose.  A table resumed from the journal
(``resume=``) rebuilds its hand with ``HandState.replay`` and waits for its players to reconnect (at most
``resume_join_seconds``) before it re-opens every prompt with its full time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app import metrics
from app.bots import TableBots
from app.core.throttle import Throttle, retry_after
from app.tables.clock import Clock, TimerHandle
from app.tables.commands import Command, Freeze, Inbound, Join, Leave, Stop, Tick, Unwatch, Watch
from app.tables.durable import Durable, JournalLost
from app.tables.fairness import WallSeed
from app.tables.flow import HandFlow
from app.tables.hand_end import HandEnd
from app.tables.journal import LiveGame, TableJournal
from app.tables.outbox import OpenPrompt, Outbox
from app.tables.registry import TableInfo, TableRegistry
from app.tables.seats import SeatLink, SeatSlot
from app.tables.settings import TableSettings
from app.tables.settle import Settler
from app.ws.guard import TOO_MANY
from app.ws.protocol import (
    ActionMessage,
    BackMessage,
    ErrorCode,
    ErrorMessage,
    HandResultMessage,
    PingMessage,
    PongMessage,
    ResyncMessage,
    ServerRestartingMessage,
)
from engine.events import Event
from engine.match import Match
from engine.state import HandState
from engine.variants import find_variant

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
    # After game_over: (table, points per seat, hands played, reason).  Tournament tables report here.
    on_game_over: Callable[[TableInfo, list[int], int, str], Awaitable[None]] | None = None
    # seconds from a socket reading an action to its results being queued for every seat (recent ones)
    latencies: deque[float] | None = None
    journal: TableJournal | None = None
    # Called when the journal failed (not fenced): the runtime reloads the table from the journal later.
    on_lost: Callable[[TableActor], None] | None = None


class TableActor(HandFlow, HandEnd, Durable):
    def __init__(self, info: TableInfo, services: ActorServices, *, fence: int = 1,
                 resume: LiveGame | None = None) -> None:
        self.info = info
        self.id = info.id
        self.game_id = secrets.token_hex(4)  # tells this game's hand keys from a later game's at the table
        self.services = services
        self.settings = services.settings
        self.clock = services.clock
        self.registry = services.registry
        self.bots = services.bots()
        self.options: dict[str, Any] = dict(info.options)
        self.match = Match(find_variant(info.variant.value), first_dealer=0, options=self.options)
        self.slots = [SeatSlot(seat, uid, info.seat_names[seat] if info.seat_names else None, seat in info.bots)
                      for seat, uid in enumerate(info.seats)]
        self.out = Outbox(self.slots, self.clock)
        self.inbox: asyncio.Queue[Command] = asyncio.Queue(self.settings.inbox_size + RESERVED)
        self.hand: HandState | None = None
        self.hand_no = 0
        self.wall: WallSeed | None = None
        self.taken = 0  # engine events of this hand taken out (sent or pending)
        self.pending: deque[Event] = deque()  # held by the claim hold
        self.hold_until = 0.0
        self.hold_key = 0
        self.prompts: dict[int, OpenPrompt] = {}
        self.snapshot_due: set[int] = set()
        self.keys = itertools.count(1)
        self.started = False
        self.closed = False
        self.hand_ended = False
        self.end_reason: str | None = None  # set when the game must end (game_over runs after the command)
        self.voided = 0
        self.settled_hand: HandState | None = None
        # 結算: the settled hand's result, sent again with every snapshot until the next deal (a player who
        # reconnects in the pause, even to a restarted process, still sees how the hand ended)
        self.last_result: HandResultMessage | None = None
        self.points = [0] * len(self.slots)
        self.coins = [0] * len(self.slots)
        self.handled = 0
        self.frozen_seats: set[int] = set()  # admin-frozen accounts: 托管 now, stood up after the hand
        self.task: asyncio.Task[None] | None = None
        # snapshots served per seat (connects and resyncs), on the table's clock
        self.snapshots = Throttle(self.settings.resyncs_per_window, self.settings.resync_window_seconds,
                                  clock=self.clock.now)
        self._start_timer: TimerHandle | None = None
        self.journal = services.journal
        self.fence = fence  # this process's fencing token for the table (journal writes carry it)
        self.resume = resume
        self.resuming = False  # rebuilt from the journal, waiting for the players to come back
        self.logged = 0  # actions of the current hand in the journal
        self.start_due = False  # a new hand's wall is not journalled yet
        self.close_due = False  # the closed hand (settled or voided) is not journalled yet
        self.close_code, self.close_reason = 1001, "the table closed"
        self.closed_for_good = False  # Stop(closed=True): the game leaves the journal as the actor ends

    # -- life ------------------------------------------------------------------------------------------

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.create_task(self.run(), name=f"table-{self.id}")
        return self.task

    async def run(self) -> None:
        if self.resume is not None:
            self._resume(self.resume)
        else:
            if not self._humans_missing():
                self.post(Tick("start"))
            else:
                self._start_timer = self.timer(self.settings.join_seconds, Tick("start"))
            await self._open_game()  # the first command waits for it: the game's row comes first
        try:
            while not self.closed:
                command = await self.inbox.get()
                await self._run_one(command)
                if self.handled % 8 == 0:
                    await asyncio.sleep(0)  # a busy table must not starve the others
        finally:
            self._close_links(self.close_code, self.close_reason)
            while not self.inbox.empty():  # sockets that joined as the table closed must not hang
                command = self.inbox.get_nowait()
                if isinstance(command, Join):
                    command.link.close(1001, "the table closed")
            if self.closed_for_good and self.journal is not None:
                try:  # a fenced write means another process owns the game now: it is theirs to end
                    await self.journal.game_closed(self.id, self.fence)
                except Exception as exc:
                    log.warning("table %s: closed, but its journal row stays: %s", self.id, exc)
            if self.services.on_exit is not None:
                result = self.services.on_exit(self)
                if asyncio.iscoroutine(result):
                    await result

    async def _run_one(self, command: Command) -> None:
        self.handled += 1
        if self.journal is not None:
            self.out.hold()
        try:
            self._handle(command)
        except Exception:
            self._crashed(command)
        try:  # journal what the command did, send it, then: settle a finished hand, end the game
            await self.persist()
            self.out.release()
            if self.hand_ended:
                self.hand_ended = False
                if self.journal is not None:
                    self.out.hold()
                await self.finish_hand()
                await self.persist()
                self.out.release()
            if self.end_reason and not self.closed:
                await self.game_over(self.end_reason)
        except JournalLost:
            self._lost()
        except Exception:  # past the settlement's own retries: end the game cleanly
            self._crashed(command)
            try:
                await self.game_over("server_error")
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

    def _handle(self, command: Command) -> None:
        if isinstance(command, Inbound):
            self._inbound(command)
        elif isinstance(command, Tick):
            self.on_tick(command)
        elif isinstance(command, Join):
            self._join(command.seat, command.link)
        elif isinstance(command, Leave):
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

    # -- posting (from sockets and timers) ---------------------------------------------------------------

    def offer(self, command: Command) -> bool:
        """A socket's message; False when the inbox is full (the socket tells its client "busy")."""
        if self.closed or self.inbox.qsize() >= self.settings.inbox_size:
            return False
        self.inbox.put_nowait(command)
        return True

    def post(self, command: Command) -> None:
        """Join, Leave, timers and Stop: always delivered (they use the reserved room)."""
        if self.closed and isinstance(command, Join):
            command.link.close(1001, "the table closed")
            return
        try:
            self.inbox.put_nowait(command)
        except asyncio.QueueFull:
            log.error("table %s: inbox full, retrying %s", self.id, command)
            asyncio.get_running_loop().call_later(0.01, self.post, command)

    def timer(self, delay: float, tick: Tick) -> TimerHandle:
        return self.clock.call_at(self.clock.now() + delay, self.post, tick)  # no closure: fewer objects for the GC

    # -- sockets ---------------------------------------------------------------------------------------

    def _join(self, seat: int, link: SeatLink) -> None:
        if seat in self.frozen_seats:
            link.close(4003, "this account is frozen")
            return
        if self.snapshots.hit(str(seat)):
            link.close(TOO_MANY, "too many reconnects; wait a few seconds")
            return
        slot = self.slots[seat]
        old, slot.link = slot.link, link
        if old is not None and old is not link:
            old.close(4001, "replaced by a newer connection")
        self.send_snapshot(seat)
        if old is None:  # everyone already here learns of the new arrival, before the start too
            self.out.table_event(self.hand_no, "presence", seat=seat, connected=True,
                                 auto_play=slot.human and slot.auto)
        self._maybe_stop_auto(seat)
        if self._humans_missing():
            return
        if self.resuming:
            self.end_resume()
        elif not self.started:
            self._start_game()

    def _leave(self, seat: int, link: SeatLink) -> None:
        slot = self.slots[seat]
        if slot.link is not link:
            return  # an old socket, already replaced
        slot.link = None
        link.close(1000, "left")
        self.out.table_event(self.hand_no, "presence", seat=seat, connected=False, auto_play=slot.human)
        prompt = self.prompts.get(seat)
        if prompt is not None and prompt.act_timer is None:
            self.schedule_act(prompt)

    def _watch(self, link: SeatLink) -> None:
        """A spectator: a public snapshot (``seat`` -1, no concealed tiles, no prompt), then public events."""
        self.out.watchers.append(link)
        link.synced = True
        link.send(self.spectator_snapshot().model_dump_json())
        if self.last_result is not None:
            link.send(self.last_result.model_dump_json())

    def _freeze(self, user_id: int) -> None:
        """托管 for a frozen account's seat until the hand ends (``flow.finish_hand`` stands it up)."""
        seat = next((s.seat for s in self.slots if s.user_id == user_id and not s.bot), None)
        if seat is None or seat in self.frozen_seats:
            return
        self.frozen_seats.add(seat)
        slot = self.slots[seat]
        if slot.link is not None:
            link = slot.link
            link.close(4003, "this account is frozen")  # the first close code is the one sent
            self._leave(seat, link)
        slot.auto = True
        metrics.AUTO_PLAY_BY["frozen"].inc()
        self.out.table_event(self.hand_no, "auto_play", seat=seat, on=True, reason="frozen")
        prompt = self.prompts.get(seat)
        if prompt is not None and prompt.act_timer is None:
            self.schedule_act(prompt)

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

    def _inbound(self, command: Inbound) -> None:
        seat, message = command.seat, command.message
        if self.slots[seat].link is not command.link:
            return  # a replaced socket's late message
        if isinstance(message, ActionMessage):
            self.client_action(seat, message)
            if command.received:
                seconds = time.perf_counter() - command.received
                metrics.action_answered(message.action.kind, seconds)
                if self.services.latencies is not None:
                    self.services.latencies.append(seconds)
        elif isinstance(message, PingMessage):
            self.out.send(seat, PongMessage(v=self.out.v, t=message.t, server_ms=self.clock.wall_ms()))
        elif isinstance(message, ResyncMessage):
            wait = self.snapshots.hit(str(seat))
            if wait:
                self.out.send(seat, ErrorMessage(v=self.out.v, code="resync_limited", message="too many resyncs; "
                                                 "wait a moment", params={"retry_after": retry_after(wait)}))
            else:
                self.send_snapshot(seat)
        elif isinstance(message, BackMessage):
            self.player_back(seat)

    def error(self, seat: int, code: ErrorCode, message: str) -> None:
        self.out.send(seat, ErrorMessage(v=self.out.v, code=code, message=message))
        metrics.error_sent(code)

    # -- crashes ---------------------------------------------------------------------------------------

    def _crashed(self, command: Command) -> None:
        log.critical("table %s: crash while handling %r; state: %s", self.id, command, self.state_dump(),
                     exc_info=True)
        with contextlib.suppress(Exception):
            if isinstance(command, Inbound):
                self.error(command.seat, "internal", "the server failed on this message; the table goes on")
            self.recover()

    def state_dump(self) -> dict[str, Any]:
        """The table's state for the critical log (never the seed: it stays secret until the hand ends)."""
        hand = self.hand
        return {
            "table": self.id, "game": self.game_id, "hand_no": self.hand_no, "v": self.out.v,
            "variant": self.info.variant.value, "phase": hand.phase.value if hand else None,
            "awaiting": hand.awaiting() if hand else [], "prompts": sorted(self.prompts),
            "pending": len(self.pending), "actions": [str(a) for a in hand.actions[-12:]] if hand else [],
            "seats": [(s.user_id, s.bot, s.connected, s.auto) for s in self.slots],
        }
