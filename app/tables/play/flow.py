"""The hand flow of a table actor: hands, prompts, claim windows, timeouts, 托管 and the claim hold.

* Every engine event is sent to every seat as that seat may see it, numbered by the table's ``v``.
* Whoever ``HandState.awaiting()`` names gets a private prompt with its legal actions and a deadline
  (discard_seconds or claim_seconds from delivery).  A claim window therefore prompts only the seats
  entitled to claim; the engine resolves it once all have answered, and on the deadline the actor answers
  for whoever did not (``default_action``: pass / discard the drawn tile).
* Two timeouts in a row put a seat on 托管; a disconnected seat is auto-played too (docs/rules/timing.md#auto-play).
* The claim hold (server-lessons §7.4): after a discard, or a kong others may rob, whatever follows is sent
  no earlier than ``claim_hold_seconds`` after it, so how fast play resumes does not tell who could claim.
"""

from __future__ import annotations

import itertools
import logging
import secrets
from collections import deque
from collections.abc import Callable
from typing import Any, Final

from app import metrics
from app.bots import TableBots
from app.tables.fairness import WallSeed, new_wall_seed
from app.tables.play.clock import Clock, TimerHandle
from app.tables.play.commands import Command, Tick
from app.tables.play.hints import turn_hints, waits_out
from app.tables.play.outbox import OpenPrompt, Outbox
from app.tables.play.played import NOTHING, AutoPlayReason, Played, SeatWithoutAMove
from app.tables.play.seats import SeatSlot
from app.tables.play.views import seat_snapshot, spectator_snapshot
from app.tables.protocol.messages import (
    ActionMessage,
    ErrorCode,
    ErrorMessage,
    HandResultMessage,
    HintsMessage,
    SnapshotMessage,
)
from app.tables.settings import BOT_SPEEDS, DEFAULT_BOT_SPEED, PracticePace, TableSettings
from app.tables.table_info import TableInfo
from engine.actions import Action, ActionKind, IllegalAction
from engine.events import Event
from engine.match import Match, draw_first_dealer
from engine.phase import Phase
from engine.state import HandState
from engine.variants import find_variant

log = logging.getLogger(__name__)
PROMPT_KIND: Final = {Phase.TURN: "turn", Phase.SPLIT: "split", Phase.CLAIMS: "claim", Phase.ROB: "rob"}
# Prompts whose pass nobody sees (a claim on a discard, robbing a kong): a bot that passes passes at once.
SILENT_PASS_KINDS: Final = frozenset({"claim", "rob"})
HOLD_AFTER: Final = {"discard", "kong_attempt"}


class HandFlow:
    """The game at one table (一局), owned by its actor: the match, the hand in play, its prompts, the claim
    hold and 托管.  Every method runs inside the actor task.

    What it needs of the table is passed in: the seats and their outbox, the table's clock, ``post`` (how a
    timer's ``Tick`` reaches the actor's inbox) and ``table_closed`` (whether the actor has stopped).  What a
    command did comes back as a ``Played`` (the hand ended: the actor settles it next).
    """

    def __init__(self, info: TableInfo, settings: TableSettings, clock: Clock, slots: list[SeatSlot],
                 out: Outbox, bots: TableBots, *, post: Callable[[Command], None],
                 table_closed: Callable[[], bool]) -> None:
        self.info = info
        self.id = info.id
        self.settings = settings
        self.clock = clock
        self.slots = slots
        self.out = out
        self.bots = bots
        self.post = post
        self.table_closed = table_closed
        self.game_id = secrets.token_hex(4)  # tells this game's hand keys from a later game's at the table
        self.options: dict[str, Any] = dict(info.options)
        self.match = Match(find_variant(info.variant.value), options=self.options)
        # The game's first commitment: the first dealer is drawn from it (docs/rules/common.md#first-dealer F-1)
        self.first_commitment: str | None = None
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
        self.start_timer: TimerHandle | None = None  # the wait for every human to connect
        self.voided = 0
        self.settled_hand: HandState | None = None
        # 結算: the settled hand's result, sent again with every snapshot until the next deal (a player who
        # reconnects in the pause, even to a restarted process, still sees how the hand ended)
        self.last_result: HandResultMessage | None = None
        self.points = [0] * len(slots)
        self.coins = [0] * len(slots)
        self.frozen_seats: set[int] = set()  # admin-frozen accounts: 托管 to the end of the game (F-10)
        self.resuming = False  # rebuilt from the journal, waiting for the players to come back
        # What the journal has not got yet (``journal_writer.JournalWriter`` writes it and clears the marks):
        self.logged = 0  # actions of the current hand in the journal
        self.start_due = False  # a new hand's wall is not journalled yet
        self.close_due = False  # the closed hand (settled or voided) is not journalled yet
        self.auto_due = False  # a seat's 托管 changed and is not journalled yet

    def timer(self, delay: float, tick: Tick) -> TimerHandle:
        return self.clock.call_at(self.clock.now() + delay, self.post, tick)  # no closure: fewer objects for the GC

    def error(self, seat: int, code: ErrorCode, message: str) -> None:
        self.out.send(seat, ErrorMessage(v=self.out.v, code=code, message=message))
        metrics.error_sent(code)

    # -- hands -----------------------------------------------------------------------------------------

    def schedule_start(self, wait: float | None) -> None:
        """Deal the first hand at once (``wait`` None: every human is here) or after ``wait`` seconds (the
        wait for every human to connect; ``start_game`` cuts it short once they have)."""
        if wait is None:
            self.post(Tick("start"))
        else:
            self.start_timer = self.timer(wait, Tick("start"))

    def start_game(self) -> Played:
        if self.started or self.table_closed():
            return NOTHING
        self.started = True
        log.info("game started", extra={"table_id": self.id, "game_id": self.game_id})
        if self.start_timer is not None:
            self.start_timer.cancel()
        return self.new_hand()

    @property
    def pace(self) -> PracticePace:
        """The practice pace chosen for this table (BOT_SPEEDS); every other table plays at the default."""
        return BOT_SPEEDS.get(self.info.bot_speed if self.info.practice else DEFAULT_BOT_SPEED,
                              BOT_SPEEDS[DEFAULT_BOT_SPEED])

    def new_hand(self) -> Played:
        wall = new_wall_seed()
        first_deal = self.hand_no == 0  # the game's first commitment draws the first dealer
        if first_deal:
            self.match.seat_first_dealer(draw_first_dealer(wall.commitment, len(self.slots)))
        hand = self.match.new_hand(wall.seed)  # if this raises, nothing has changed (see recover)
        if first_deal:
            self.first_commitment = wall.commitment
        self.hand_no += 1
        self.wall, self.hand, self.last_result = wall, hand, None
        self.start_due, self.logged = True, 0  # journalled before hand_start goes out
        self.taken, self.hold_until = 0, 0.0
        self.pending.clear()
        for slot in self.slots:
            slot.waits_sent = None
        self.close_prompts()
        self.out.table_event(self.hand_no, "hand_start", {
            "hand_no": self.hand_no, "dealer": hand.dealer, "round_wind": hand.round_wind,
            "dealer_streak": hand.dealer_streak, "commitment": wall.commitment,
            "first_dealer": self.match.first_dealer, "first_commitment": self.first_commitment})
        return self.pump()  # a hand may end in its deal (台灣 八仙過海)

    def pump(self) -> Played:
        """Send the engine's new events (minding the claim hold), then open the prompts they lead to; the
        hand has ended once its last event is out (``Played.hand_ended``: the actor settles it next)."""
        hand = self.hand
        if hand is None:
            return NOTHING
        if self.taken < len(hand.events):
            self.pending.extend(hand.events[self.taken:])
            self.taken = len(hand.events)
        now = self.clock.now()  # the actor's one command: time does not move while it runs
        while self.pending and now >= self.hold_until:
            event = self.pending.popleft()
            self.out.engine_event(self.hand_no, event)
            if event.type in HOLD_AFTER:
                hold = self.settings.claim_hold_seconds * self.pace.claim_hold
                if hold > 0:
                    self.hold_key += 1
                    self.hold_until = now + hold
                    self.timer(hold, Tick("release", self.hold_key))
        if self.pending:
            return NOTHING
        for seat in sorted(self.snapshot_due):
            self.send_snapshot(seat)
        self._send_waits(hand)
        if not hand.is_over:
            passes = self._open_prompts(hand)
            if passes:
                return self._pass_at_once(passes)
        elif hand.result is not None and hand is not self.settled_hand:
            return Played.hand_over(hand)
        return NOTHING

    # -- prompts ---------------------------------------------------------------------------------------

    def _open_prompts(self, hand: HandState) -> list[tuple[OpenPrompt, Action]]:
        """Open a prompt for every awaited seat; returns the bots' passes to play at once (``_bot_claim``)."""
        passes = []
        for seat in hand.awaiting():
            if seat in self.prompts:
                continue
            legal = hand.legal_actions(seat)
            if not legal or hand.default_action(seat) is None:
                raise SeatWithoutAMove(f"seat {seat} is awaited in phase {hand.phase.value} but has "
                                       f"{'no timeout action' if legal else 'no legal action'}")
            bot_pass = self._open_prompt(hand, seat, legal)
            if bot_pass is not None:
                passes.append(bot_pass)
        return passes

    def _bot_claim(self, hand: HandState, prompt: OpenPrompt) -> tuple[OpenPrompt, Action] | None:
        """過 without a wait: a bot offered a claim decides as the prompt opens, and a pass is played at once
        instead of after its thinking time.  Nobody sees a pass, so the table loses nothing of a bot's
        manner, and it gains two things: the pause after a discard no longer grows when a bot could have
        claimed (the claim hold alone hides who could), and the server spares a timer, an actor turn and a
        journal write per pass (issue 36).  A bot that claims still waits its thinking time, as before."""
        action = self.bots.choose(hand, prompt.seat, self.info.bot_level)
        if action.kind is ActionKind.PASS:
            return prompt, action
        self._schedule_act(prompt)
        return None

    def _pass_at_once(self, passes: list[tuple[OpenPrompt, Action]]) -> Played:
        """Play the bots' passes, each while its prompt is still the open one (a pass that closed the claim
        window moved the hand on, and the prompts opened since are new)."""
        played = NOTHING
        for prompt, action in passes:
            if self.prompts.get(prompt.seat) is prompt:
                played = played.then(self.play(action))
        return played

    def _open_prompt(self, hand: HandState, seat: int, legal: list[Action]) -> tuple[OpenPrompt, Action] | None:
        """Open ``seat``'s prompt and schedule whoever plays it; returns a bot's pass to play at once."""
        kind = PROMPT_KIND[hand.phase]
        key = "discard_seconds" if kind in ("turn", "split") else "claim_seconds"
        seconds = float(hand.options[key]) * self.settings.time_scale
        now = self.clock.now()
        prompt = OpenPrompt(next(self.keys), seat, kind, legal, self.out.v, self.hand_no, now + seconds,
                            self.clock.wall_ms() + round(seconds * 1000))
        slot = self.slots[seat]
        if not slot.bot:  # a bot always moves on its act timer, well before any deadline: one timer less a turn
            prompt.timers.append(self.timer(seconds + self.settings.grace_seconds,
                                            Tick("deadline", prompt.key, seat)))
        self.prompts[seat] = prompt
        if kind == "turn" and slot.human:
            prompt.hints = turn_hints(hand, seat, self.info.practice and self.info.suggest_discard)
        self.out.prompt(prompt, slot.auto_played)
        if slot.bot and kind in SILENT_PASS_KINDS:
            return self._bot_claim(hand, prompt)
        if slot.auto_played:
            self._schedule_act(prompt)
        return None

    def _send_waits(self, hand: HandState) -> None:
        """A ``hints`` message to each connected human whose waits changed (only once no event is held,
        so the unseen counts never run ahead of what the seat was shown)."""
        for slot in self.slots:
            if not slot.human or slot.link is None or not slot.link.synced:
                continue
            if not hand.is_over and hand.seats[slot.seat].concealed_count() % 3 == 2:
                continue  # its own turn: the prompt has the waits per discard; keep the last ones shown
            waits = [] if hand.is_over else waits_out(hand, slot.seat)
            key = tuple((w.tile, w.unseen) for w in waits)
            if key == slot.waits_sent or (not key and slot.waits_sent is None):
                continue
            slot.waits_sent = key
            self.out.send(slot.seat, HintsMessage(v=self.out.v, hand_no=self.hand_no, waits=waits))

    def _schedule_act(self, prompt: OpenPrompt) -> None:
        slot = self.slots[prompt.seat]
        if slot.bot:  # bots think 0.5-1.5× the setting: less robotic, and tables do not act in lockstep
            delay = self.settings.bot_delay_seconds * self.pace.bot_delay * (0.5 + self.bots.rng.random())
            # ... and never past the prompt's deadline, which has no timer of its own for a bot
            delay = min(delay, prompt.deadline + self.settings.grace_seconds - self.clock.now())
        else:
            delay = self.settings.auto_play_delay_seconds
        prompt.act_timer = self.timer(delay, Tick("act", prompt.key, prompt.seat))

    def close_prompts(self) -> None:
        for prompt in self.prompts.values():
            prompt.cancel()
        self.prompts.clear()

    def on_tick(self, tick: Tick) -> Played:
        """A timer of the game's: the start, the claim hold's release, the next deal, a prompt's deadline or a
        托管 seat's move."""
        if tick.kind == "start":
            return self.start_game()
        if tick.kind == "release":
            if tick.key != self.hold_key:
                return NOTHING
            self.hold_until = 0.0
            return self.pump()
        if tick.kind == "next_hand":
            if tick.key == self.hand_no and not self.table_closed() and not self.resuming:
                return self.new_hand()
            return NOTHING
        return self._prompt_timer(tick)

    def _prompt_timer(self, tick: Tick) -> Played:
        prompt = self.prompts.get(tick.seat)
        hand = self.hand
        if prompt is None or prompt.key != tick.key or hand is None:
            return NOTHING
        slot = self.slots[tick.seat]
        if tick.kind == "act":
            if not slot.auto_played:
                return NOTHING  # back, or reconnected, since it was scheduled
            level = self.info.bot_level if slot.bot else self.settings.auto_play_level
            action: Action | None = self.bots.choose(hand, slot.seat, level)
        else:
            action = hand.default_action(slot.seat)
            if slot.human:
                metrics.TIMEOUTS_BY[prompt.kind].inc()
                self._timed_out(slot.seat)
        if action is None:
            raise SeatWithoutAMove(f"seat {slot.seat} has no action to play at its {tick.kind} timer")
        return self.play(action)

    def play(self, action: Action) -> Played:
        """Apply an action (IllegalAction leaves everything as it was) and move the table on; returns the
        events it caused and whether (and how) the hand ended with them."""
        assert self.hand is not None
        events = self.hand.apply(action)
        prompt = self.prompts.pop(action.seat, None)
        if prompt is not None:
            prompt.cancel()
        if events:
            self.close_prompts()  # the hand moved on: every open prompt is stale
        return Played(tuple(events)).then(self.pump())

    # -- players ---------------------------------------------------------------------------------------

    def client_action(self, seat: int, message: ActionMessage) -> Played:
        """A player's action: refused with a typed error (nothing changes), or played."""
        prompt = self.prompts.get(seat)
        if prompt is None:
            over = self.hand is None or self.hand.is_over
            self.error(seat, "hand_over" if over else "not_your_turn", "no prompt is open for your seat")
            return NOTHING
        if message.v != prompt.v:
            self.error(seat, "stale", f"the open prompt is v={prompt.v}, not v={message.v}")
            return NOTHING
        data = message.action.model_dump(exclude_none=True)
        if data.setdefault("seat", seat) != seat:
            self.error(seat, "bad_seat", "you can only act for your own seat")
            return NOTHING
        try:
            action = Action.from_json(data)
        except ValueError as malformed:
            self.error(seat, "malformed", str(malformed))
            return NOTHING
        try:
            played = self.play(action)
        except IllegalAction as refused:
            self.error(seat, refused.reason.value, f"refused: {refused}")
            return NOTHING
        self.player_back(seat)
        return played

    def _timed_out(self, seat: int) -> None:
        slot = self.slots[seat]
        slot.timeouts += 1
        if slot.timeouts >= self.settings.timeouts_to_auto_play and not slot.auto:
            self.seat_went_auto(seat, "timeouts")

    def seat_went_auto(self, seat: int, reason: AutoPlayReason) -> None:
        """托管 begins for ``seat`` (docs/rules/timing.md#auto-play): it is counted, told to the table (a seat that left is told
        by its ``presence`` event instead), and the server plays the seat's open prompt."""
        slot = self.slots[seat]
        if slot.human:
            metrics.AUTO_PLAY_BY[reason].inc()
        if reason != "disconnected":
            slot.auto = True
            self.auto_due = True
            self.out.table_event(self.hand_no, "auto_play", {"seat": seat, "on": True, "reason": reason})
        prompt = self.prompts.get(seat)
        if prompt is not None and prompt.act_timer is None:
            self._schedule_act(prompt)

    def auto_seats(self) -> list[int]:
        """The human seats on 托管 now (the journal keeps them across a restart)."""
        return [s.seat for s in self.slots if s.human and s.auto]

    def auto_play_chosen(self, seat: int) -> None:
        """托管 switched on by the player: the server plays the seat (an open prompt too) until it is back."""
        slot = self.slots[seat]
        if not slot.auto and slot.human:
            self.seat_went_auto(seat, "chosen")

    def player_back(self, seat: int) -> None:
        """An accepted action or "back": the timeout streak ends and so does 托管."""
        slot = self.slots[seat]
        slot.timeouts = 0
        if slot.auto:
            slot.auto = False
            self.auto_due = True
            self.out.table_event(self.hand_no, "auto_play", {"seat": seat, "on": False, "reason": "back"})
        self._maybe_stop_auto(seat)

    def _maybe_stop_auto(self, seat: int) -> None:
        prompt = self.prompts.get(seat)
        if prompt is not None and not self.slots[seat].auto_played:
            prompt.cancel_act()

    def seat_connected(self, seat: int, *, first: bool) -> None:
        """A socket took the seat (``first``: none held it before; else it replaced one): its snapshot, the
        table hears of the arrival, and a player back from away plays their own prompt again."""
        self.send_snapshot(seat)
        if first:  # everyone already here learns of the new arrival, before the start too
            slot = self.slots[seat]
            self.out.table_event(self.hand_no, "presence",
                                 {"seat": seat, "connected": True, "auto_play": slot.human and slot.auto})
        self._maybe_stop_auto(seat)

    def seat_disconnected(self, seat: int) -> None:
        """The seat's socket left: the table hears it, and the server plays the seat while it is away."""
        self.out.table_event(self.hand_no, "presence",
                             {"seat": seat, "connected": False, "auto_play": self.slots[seat].human})
        self.seat_went_auto(seat, "disconnected")

    def is_frozen(self, seat: int) -> bool:
        return seat in self.frozen_seats

    def freeze(self, seat: int) -> None:
        """An admin froze the seat's account: 托管 to the end of the game, which goes on for the others
        (docs/rules/rooms.md#frozen F-10); the seat is released with the table at game over."""
        self.frozen_seats.add(seat)
        self.seat_went_auto(seat, "frozen")

    # -- snapshots -------------------------------------------------------------------------------------

    def send_snapshot(self, seat: int) -> None:
        """A full view; while events are held it waits for them (the view must not run ahead of ``v``)."""
        link = self.slots[seat].link
        if link is None:
            return
        if self.pending:
            self.snapshot_due.add(seat)
            return
        self.snapshot_due.discard(seat)
        link.synced = True
        for message in self.seat_messages(seat):
            self.out.send(seat, message)
        self.slots[seat].waits_sent = None  # a fresh client knows no waits yet
        if self.hand is not None:
            self._send_waits(self.hand)

    def seat_messages(self, seat: int) -> list[SnapshotMessage | HandResultMessage]:
        """What a seat's new socket is shown (and after the game, ``TableActor.linger``): its snapshot, then
        between hands how the last one ended, which it may have missed."""
        return [seat_snapshot(self, seat)] + ([self.last_result] if self.last_result is not None else [])

    def spectator_messages(self) -> list[SnapshotMessage | HandResultMessage]:
        """What a new spectator is sent: the public snapshot, then how the last hand ended (between hands)."""
        shown: list[SnapshotMessage | HandResultMessage] = [spectator_snapshot(self)]
        return shown + ([self.last_result] if self.last_result is not None else [])
