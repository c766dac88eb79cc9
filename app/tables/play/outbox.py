"""What a table sends: per-seat projections of its events, prompts and snapshots, numbered by ``v``.

Every message is one of ``app.tables.protocol.messages``, encoded once per seat; events and prompts, the
bulk of them, straight to JSON by ``app.tables.protocol.frames`` (the same text as their models).  A seat
sees only ``Event.for_seat(seat)`` and its own prompts; bots and disconnected seats get nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

import orjson
from pydantic import BaseModel

from app.tables.play.clock import Clock, TimerHandle
from app.tables.play.seats import SeatLink, SeatSlot
from app.tables.protocol.frames import encode, event_frame, fragment
from app.tables.protocol.messages import ActionOut, PromptMessage, TurnHintsOut
from engine.actions import Action
from engine.events import Event

# Each distinct action's protocol part, built once: legal actions are interned by the engine
# (``engine.actions.act``) and few (kinds × seats × tiles), and building a pydantic model per action per
# prompt was most of a turn prompt's cost.  The parts are never mutated, only serialized.
_ACTION_OUT: Final[dict[Action, ActionOut]] = {}
_ACTION_JSON: Final[dict[Action, orjson.Fragment]] = {}  # the same, encoded once (``OpenPrompt.frame``)


def action_out(action: Action) -> ActionOut:
    """The protocol form of an engine action (``Action.to_json``), shared by every prompt that offers it."""
    found = _ACTION_OUT.get(action)
    if found is None:
        found = _ACTION_OUT[action] = ActionOut(**action.to_json())
    return found


def action_json(action: Action) -> orjson.Fragment:
    """``action_out(action)`` as JSON, encoded once per action and embedded as is in every prompt frame."""
    found = _ACTION_JSON.get(action)
    if found is None:
        found = _ACTION_JSON[action] = fragment(action_out(action))
    return found


@dataclass
class OpenPrompt:
    """A prompt the table is waiting on.  ``deadline`` is clock time; ``deadline_ms`` wall time."""

    key: int
    seat: int
    kind: str
    actions: list[Action]
    v: int
    hand_no: int
    deadline: float
    deadline_ms: int
    timers: list[TimerHandle] = field(default_factory=list)
    act_timer: TimerHandle | None = None
    hints: TurnHintsOut | None = None

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, key: int, seat: int, kind: str, actions: list[Action], v: int, hand_no: int,
                 deadline: float, deadline_ms: int, timers: list[TimerHandle] | None = None,
                 act_timer: TimerHandle | None = None, hints: TurnHintsOut | None = None) -> None:
        self.key, self.seat, self.kind, self.actions = key, seat, kind, actions
        self.v, self.hand_no, self.deadline, self.deadline_ms = v, hand_no, deadline, deadline_ms
        self.timers = [] if timers is None else timers
        self.act_timer, self.hints = act_timer, hints

    def cancel(self) -> None:
        for timer in self.timers:
            timer.cancel()
        self.cancel_act()

    def cancel_act(self) -> None:
        if self.act_timer is not None:
            self.act_timer.cancel()
            self.act_timer = None

    def message(self, clock: Clock, auto_play: bool) -> PromptMessage:
        left = max(0, round((self.deadline - clock.now()) * 1000))
        return PromptMessage(
            v=self.v, hand_no=self.hand_no, kind=self.kind,  # type: ignore[arg-type]
            actions=[action_out(a) for a in self.actions],
            deadline_ms=self.deadline_ms, expires_in_ms=left, auto_play=auto_play, hints=self.hints,
        )

    def frame(self, clock: Clock, auto_play: bool) -> str:
        """``message(clock, auto_play).model_dump_json()``, without building the model."""
        left = max(0, round((self.deadline - clock.now()) * 1000))
        return encode({
            "v": self.v, "type": "prompt", "hand_no": self.hand_no, "kind": self.kind,
            "actions": [action_json(a) for a in self.actions],
            "deadline_ms": self.deadline_ms, "expires_in_ms": left, "auto_play": auto_play,
            "hints": None if self.hints is None else fragment(self.hints),
        })


class Outbox:
    """Queues each seat's messages on its socket.  While ``held`` (a durable table handling a command),
    messages wait in order until the journal has the actions they report: ``release`` sends them, ``drop``
    forgets them (the journal write failed, so they never happened)."""

    sent_total: ClassVar[int] = 0  # messages queued by every table of this process (the bench reads it)

    def __init__(self, slots: Sequence[SeatSlot], clock: Clock) -> None:
        self.slots = slots
        self.clock = clock
        self.v = 0  # the table's event number
        self.sent = 0  # messages queued (for metrics)
        self.held: list[tuple[SeatLink, str]] | None = None
        # Spectators (operators): they get what every seat gets publicly, and engine events as
        # ``for_seat(None)`` — never a seat's private part, never a prompt (``send`` is per seat).
        self.watchers: list[SeatLink] = []

    def hold(self) -> None:
        if self.held is None:
            self.held = []

    def release(self) -> None:
        held, self.held = self.held, None
        for link, text in held or ():
            self._put(link, text)

    def drop(self) -> None:
        self.held = None

    def _put(self, link: SeatLink, text: str) -> None:
        if self.held is not None:
            self.held.append((link, text))
        elif link.send(text):
            self.sent += 1
            Outbox.sent_total += 1

    def send(self, seat: int, message: BaseModel) -> None:
        link = self.slots[seat].link
        if link is not None and link.synced:
            self._put(link, message.model_dump_json())

    def send_all(self, message: BaseModel) -> None:
        self.send_all_text(message.model_dump_json())

    def send_all_text(self, text: str) -> None:
        """``send_all`` of a frame already encoded."""
        for slot in self.slots:
            if slot.link is not None and slot.link.synced:
                self._put(slot.link, text)
        self._watch(text)

    def _watch(self, text: str) -> None:
        for link in self.watchers:
            if link.synced:
                self._put(link, text)

    def engine_event(self, hand_no: int, event: Event) -> None:
        """Each seat gets the event as it may see it.  Most events have no private part for most seats: those
        seats (and spectators) share one encoding of the public event instead of one each."""
        self.v += 1
        public: str | None = None
        for slot in self.slots:
            link = slot.link
            if link is None or not link.synced:
                continue
            if slot.seat in event.private:
                self._put(link, event_frame(self.v, hand_no, event.for_seat(slot.seat)))
                continue
            if public is None:
                public = event_frame(self.v, hand_no, event.for_seat(None))
            self._put(link, public)
        if self.watchers:
            if public is None:
                public = event_frame(self.v, hand_no, event.for_seat(None))
            self._watch(public)

    def table_event(self, hand_no: int, type_: str, data: dict[str, Any]) -> None:
        """A public event of the table itself (hand_start, presence, auto_play).  (``data`` is a dict, not
        keywords: a compiled module does not keep a keyword ``hand_no`` apart from the parameter.)"""
        self.v += 1
        self.send_all_text(event_frame(self.v, hand_no, {"type": type_, **data}))

    def prompt(self, prompt: OpenPrompt, auto_play: bool) -> None:
        link = self.slots[prompt.seat].link
        if link is not None and link.synced:  # bots and absent seats have no socket: build nothing
            self._put(link, prompt.frame(self.clock, auto_play))
