"""The frames the outbox encodes with orjson are the text the protocol's pydantic models wrote (issue 36).

Whole hands of every variant are played; every event (as each seat and a spectator see it) and every prompt
(with its turn hints and the practice suggestion) is encoded both ways and compared character for character.
"""

from __future__ import annotations

import random

import pytest

from app.tables.play.clock import FakeClock
from app.tables.play.hints import turn_hints
from app.tables.play.outbox import OpenPrompt
from app.tables.protocol.frames import event_frame
from app.tables.protocol.messages import EventMessage
from engine.bots import greedy_policy
from engine.state import HandState
from engine.variants import VARIANTS


def _played_hands(variant: str, hands: int = 3):
    rng = random.Random(variant)
    for n in range(hands):
        hand = HandState.deal(VARIANTS[variant], seed=f"{variant}-{n}", dealer=n % VARIANTS[variant].n_seats)
        yield hand, rng


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_event_frames_equal_the_models_encoding(variant: str) -> None:
    checked = 0
    for hand, rng in _played_hands(variant):
        events = list(hand.events)
        while not hand.is_over:
            events += hand.apply(greedy_policy(hand, hand.awaiting()[0], rng))
        for v, event in enumerate(events, start=1):
            for seat in (None, *range(hand.variant.n_seats)):
                view = event.for_seat(seat)
                assert event_frame(v, 7, view) == EventMessage(v=v, hand_no=7, event=view).model_dump_json()
                checked += 1
    # a table event with non-ASCII text: UTF-8 as is, not escaped, the same both ways
    view = {"type": "presence", "seat": 1, "connected": False, "name": "東風 玩家"}
    assert event_frame(3, 1, view) == EventMessage(v=3, hand_no=1, event=view).model_dump_json()
    # parts keyed by seat (台灣 眼牌's ``reveal``: the hands it shows, by seat number) get string keys both ways
    view = {"seq": 13, "type": "reveal", "seat": 1, "hands": {0: ["1m", "9p"], 2: ["7z"]}}
    assert event_frame(4, 1, view) == EventMessage(v=4, hand_no=1, event=view).model_dump_json()
    assert checked > 500


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_prompt_frames_equal_the_models_encoding(variant: str) -> None:
    clock = FakeClock()
    checked = with_waits = 0
    for hand, rng in _played_hands(variant, hands=4):
        while not hand.is_over:
            for seat in hand.awaiting():
                legal = hand.legal_actions(seat)
                turn = hand.seats[seat].concealed_count() % 3 == 2
                prompt = OpenPrompt(checked, seat, "turn" if turn else "claim", legal, checked, 2,
                                    clock.now() + 12.5, 1_765_000_000_000)
                if turn:
                    prompt.hints = turn_hints(hand, seat, suggest=checked % 2 == 0)
                    with_waits += bool(prompt.hints.discard_waits)
                for auto_play in (False, True):
                    assert prompt.frame(clock, auto_play) == prompt.message(clock, auto_play).model_dump_json()
                checked += 1
            hand.apply(greedy_policy(hand, hand.awaiting()[0], rng))
    assert checked > 50 and with_waits > 0  # every kind of part was compared
