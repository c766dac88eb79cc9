"""The hand flow of a table actor: hands, prompts, claim windows, timeouts, 托管 and the claim hold.

* Every engine event is sent to every seat as that seat may see it, numbered by the table's ``v``.
* Whoever ``HandState.awaiting()`` names gets a private prompt with its legal actions and a deadline
  (discard_seconds or claim_seconds from delivery).  A claim window therefore prompts only the seats
  entitled to claim; the engine resolves it once all have answered, and on the deadline the actor answers
  for whoever did not (``default_action``: pass / discard the drawn tile).
* Two timeouts in a row put a seat on 托管; a disconnected seat is auto-played too (RULES.md §8).
* The claim hold (server-lessons §7.4): after a discard, or a kong others may rob, whatever follows is sent
  no earlier than ``claim_hold_seconds`` after it, so how fast play resumes does not tell who could claim.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING

from app.game.rooms import ROOMS
from app.game.variants import VARIANTS
from app.tables.commands import Tick
from app.tables.fairness import new_wall_seed
from app.tables.hints import turn_hints, waits_out
from app.tables.outbox import OpenPrompt, Outbox
from app.tables.settings import BOT_SPEEDS, DEFAULT_BOT_SPEED, PracticePace
from app.ws.protocol import (
    ActionMessage,
    HintsMessage,
    SeatOut,
    SnapshotMessage,
    TableOut,
)
from engine.actions import Action, IllegalAction
from engine.events import Event
from engine.state import HandState, Phase

if TYPE_CHECKING:
    from app.tables.actor import TableActor

log = logging.getLogger(__name__)
PROMPT_KIND = {Phase.TURN: "turn", Phase.SPLIT: "split", Phase.CLAIMS: "claim", Phase.ROB: "rob"}
HOLD_AFTER = {"discard", "kong_attempt"}


class SeatWithoutAMove(RuntimeError):
    """The hand awaits a seat that has no legal action or no timeout action (RULES.md §4 D-7).

    The engine never offers an action that leads there, but if it ever did, the table must not wait for ever
    (no prompt, no timer): the actor treats it as a crash in a handler, which logs it and voids the hand.
    """


class HandFlow:
    """Mixed into ``TableActor``; every method runs inside the actor task."""

    hand: HandState | None
    pending: deque[Event]
    prompts: dict[int, OpenPrompt]
    out: Outbox

    # -- hands -----------------------------------------------------------------------------------------

    def _start_game(self: TableActor) -> None:
        if self.started or self.closed:
            return
        self.started = True
        log.info("game started", extra={"table_id": self.id, "game_id": self.game_id})
        if self._start_timer is not None:
            self._start_timer.cancel()
        self.new_hand()

    @property
    def pace(self: TableActor) -> PracticePace:
        """The practice pace chosen for this table (BOT_SPEEDS); every other table plays at the default."""
        return BOT_SPEEDS.get(self.info.bot_speed if self.info.practice else DEFAULT_BOT_SPEED,
                              BOT_SPEEDS[DEFAULT_BOT_SPEED])

    def new_hand(self: TableActor) -> None:
        wall = new_wall_seed()
        hand = self.match.new_hand(wall.seed)  # if this raises, nothing has changed (see recover)
        self.hand_no += 1
        self.wall, self.hand, self.last_result = wall, hand, None
        self.start_due, self.logged = True, 0  # journalled before hand_start goes out
        self.taken, self.hold_until = 0, 0.0
        self.pending.clear()
        for slot in self.slots:
            slot.waits_sent = None
        self._close_prompts()
        self.out.table_event(self.hand_no, "hand_start", hand_no=self.hand_no, dealer=hand.dealer,
                             round_wind=hand.round_wind, dealer_streak=hand.dealer_streak,
                             commitment=wall.commitment)
        self.pump()

    def pump(self: TableActor) -> None:
        """Send the engine's new events (minding the claim hold), then open the prompts they lead to."""
        hand = self.hand
        if hand is None:
            return
        if self.taken < len(hand.events):
            self.pending.extend(hand.events[self.taken:])
            self.taken = len(hand.events)
        while self.pending and self.clock.now() >= self.hold_until:
            event = self.pending.popleft()
            self.out.engine_event(self.hand_no, event)
            hold = self.settings.claim_hold_seconds * self.pace.claim_hold
            if event.type in HOLD_AFTER and hold > 0:
                self.hold_key += 1
                self.hold_until = self.clock.now() + hold
                self.timer(hold, Tick("release", self.hold_key))
        if self.pending:
            return
        for seat in sorted(self.snapshot_due):
            self.send_snapshot(seat)
        self._send_waits(hand)
        if hand.is_over:
            self.hand_ended = hand.result is not None and hand is not self.settled_hand
        else:
            self._open_prompts(hand)

    # -- prompts ---------------------------------------------------------------------------------------

    def _open_prompts(self: TableActor, hand: HandState) -> None:
        for seat in hand.awaiting():
            if seat in self.prompts:
                continue
            legal = hand.legal_actions(seat)
            if not legal or hand.default_action(seat) is None:
                raise SeatWithoutAMove(f"seat {seat} is awaited in phase {hand.phase.value} but has "
                                       f"{'no timeout action' if legal else 'no legal action'}")
            self._open_prompt(hand, seat, legal)

    def _open_prompt(self: TableActor, hand: HandState, seat: int, legal: list[Action]) -> None:
        kind = PROMPT_KIND[hand.phase]
        key = "discard_seconds" if kind in ("turn", "split") else "claim_seconds"
        seconds = float(hand.options[key]) * self.settings.time_scale
        now = self.clock.now()
        prompt = OpenPrompt(next(self.keys), seat, kind, legal, self.out.v, self.hand_no, now + seconds,
                            self.clock.wall_ms() + round(seconds * 1000))
        prompt.timers.append(self.timer(seconds + self.settings.grace_seconds,
                                        Tick("deadline", prompt.key, seat)))
        self.prompts[seat] = prompt
        slot = self.slots[seat]
        if kind == "turn" and slot.human:
            prompt.hints = turn_hints(hand, seat, self.info.practice and self.info.suggest_discard)
        self.out.prompt(prompt, slot.auto_played)
        if slot.auto_played:
            self.schedule_act(prompt)

    def _send_waits(self: TableActor, hand: HandState) -> None:
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

    def schedule_act(self: TableActor, prompt: OpenPrompt) -> None:
        slot = self.slots[prompt.seat]
        if slot.bot:  # bots think 0.5-1.5× the setting: less robotic, and tables do not act in lockstep
            delay = self.settings.bot_delay_seconds * self.pace.bot_delay * (0.5 + self.bots.rng.random())
        else:
            delay = self.settings.auto_play_delay_seconds
        prompt.act_timer = self.timer(delay, Tick("act", prompt.key, prompt.seat))

    def _close_prompts(self: TableActor) -> None:
        for prompt in self.prompts.values():
            prompt.cancel()
        self.prompts.clear()

    def on_tick(self: TableActor, tick: Tick) -> None:
        if tick.kind == "start":
            self._start_game()
        elif tick.kind == "release":
            if tick.key == self.hold_key:
                self.hold_until = 0.0
                self.pump()
        elif tick.kind == "next_hand":
            if tick.key == self.hand_no and not self.closed and not self.resuming:
                self.new_hand()
        elif tick.kind == "resume":
            self.end_resume()
        else:
            self._prompt_timer(tick)

    def _prompt_timer(self: TableActor, tick: Tick) -> None:
        prompt = self.prompts.get(tick.seat)
        hand = self.hand
        if prompt is None or prompt.key != tick.key or hand is None:
            return
        slot = self.slots[tick.seat]
        if tick.kind == "act":
            if not slot.auto_played:
                return  # back, or reconnected, since it was scheduled
            level = self.info.bot_level if slot.bot else self.settings.auto_play_level
            action = self.bots.choose(hand, slot.seat, level)
        else:
            action = hand.default_action(slot.seat)
            if slot.human:
                self._timed_out(slot.seat)
        if action is None:
            raise SeatWithoutAMove(f"seat {slot.seat} has no action to play at its {tick.kind} timer")
        self.play(action)

    def play(self: TableActor, action: Action) -> None:
        """Apply an action (IllegalAction leaves everything as it was) and move the table on."""
        assert self.hand is not None
        events = self.hand.apply(action)
        prompt = self.prompts.pop(action.seat, None)
        if prompt is not None:
            prompt.cancel()
        if events:
            self._close_prompts()  # the hand moved on: every open prompt is stale
        self.pump()

    # -- players ---------------------------------------------------------------------------------------

    def client_action(self: TableActor, seat: int, message: ActionMessage) -> None:
        prompt = self.prompts.get(seat)
        if prompt is None:
            over = self.hand is None or self.hand.is_over
            self.error(seat, "hand_over" if over else "not_your_turn", "no prompt is open for your seat")
            return
        if message.v != prompt.v:
            self.error(seat, "stale", f"the open prompt is v={prompt.v}, not v={message.v}")
            return
        data = message.action.model_dump(exclude_none=True)
        if data.setdefault("seat", seat) != seat:
            self.error(seat, "bad_seat", "you can only act for your own seat")
            return
        try:
            action = Action.from_json(data)
        except ValueError as exc:
            self.error(seat, "malformed", str(exc))
            return
        try:
            self.play(action)
        except IllegalAction as exc:
            self.error(seat, exc.reason.value, f"refused: {exc}")  # type: ignore[arg-type]
            return
        self.player_back(seat)

    def _timed_out(self: TableActor, seat: int) -> None:
        slot = self.slots[seat]
        slot.timeouts += 1
        if slot.timeouts >= self.settings.timeouts_to_auto_play and not slot.auto:
            slot.auto = True
            self.out.table_event(self.hand_no, "auto_play", seat=seat, on=True, reason="timeouts")

    def player_back(self: TableActor, seat: int) -> None:
        """An accepted action or "back": the timeout streak ends and so does 托管."""
        slot = self.slots[seat]
        slot.timeouts = 0
        if slot.auto:
            slot.auto = False
            self.out.table_event(self.hand_no, "auto_play", seat=seat, on=False, reason="back")
        self._maybe_stop_auto(seat)

    def _maybe_stop_auto(self: TableActor, seat: int) -> None:
        prompt = self.prompts.get(seat)
        if prompt is not None and not self.slots[seat].auto_played:
            prompt.cancel_act()

    # -- snapshots -------------------------------------------------------------------------------------

    def send_snapshot(self: TableActor, seat: int) -> None:
        """A full view; while events are held it waits for them (the view must not run ahead of ``v``)."""
        link = self.slots[seat].link
        if link is None:
            return
        if self.pending:
            self.snapshot_due.add(seat)
            return
        self.snapshot_due.discard(seat)
        link.synced = True
        self.out.send(seat, self._snapshot(seat))
        if self.last_result is not None:  # between hands: how the last one ended, which it may have missed
            self.out.send(seat, self.last_result)
        self.slots[seat].waits_sent = None  # a fresh client knows no waits yet
        if self.hand is not None:
            self._send_waits(self.hand)

    def _snapshot(self: TableActor, seat: int) -> SnapshotMessage:
        hand, prompt = self.hand, self.prompts.get(seat)
        slot = self.slots[seat]
        return SnapshotMessage(
            v=self.out.v, table=self._table_out(seat), view=hand.view(seat) if hand else None,
            commitment=self.wall.commitment if self.wall else None,
            prompt=prompt.message(self.clock, slot.auto_played) if prompt else None,
            server_ms=self.clock.wall_ms(),
        )

    def spectator_snapshot(self: TableActor) -> SnapshotMessage:
        """What a spectator sees: the public view (``HandState.view(None)``: no concealed tile), seat -1."""
        hand = self.hand
        return SnapshotMessage(
            v=self.out.v, table=self._table_out(-1), view=hand.view(None) if hand else None,
            commitment=self.wall.commitment if self.wall else None, prompt=None,
            server_ms=self.clock.wall_ms(),
        )

    def _table_out(self: TableActor, seat: int) -> TableOut:
        info, match = self.info, self.match
        return TableOut(
            id=info.id, variant=info.variant.value, practice=info.practice,
            room=info.room.value if info.room else None,
            coins_per_point=None if info.practice or not info.room else ROOMS[info.room].coins_per_point,
            options=info.options, seat=seat, discard_row=VARIANTS[info.variant].discard_row,
            seats=[SeatOut(seat=s.seat, username=s.username, bot=s.bot, connected=s.bot or s.connected,
                           auto_play=s.human and (s.auto or not s.connected)) for s in self.slots],
            hand_no=self.hand_no, hands_played=match.hands_played,
            dealer=self.hand.dealer if self.hand else match.dealer,
            round_wind=self.hand.round_wind if self.hand else match.round_wind,
            dealer_streak=self.hand.dealer_streak if self.hand else match.dealer_streak,
            game_points=list(self.points), game_coins=list(self.coins), hands_limit=info.hands_limit,
        )
