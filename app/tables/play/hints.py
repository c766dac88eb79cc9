"""Hints for the players (提示), as protocol parts: waits while ready, waits per discard, and on practice
tables the normal bot's suggestion.  Everything comes from ``engine.hints`` on the seat's own view."""

from __future__ import annotations

import random
from typing import Final

from app.tables.protocol.messages import ActionOut, DiscardWaitsOut, TurnHintsOut, WaitOut
from engine.bots import get_policy
from engine.hints import Wait, discard_waits, ready_waits
from engine.state import HandState

SUGGESTING_LEVEL: Final = "normal"  # issue 12: practice tables suggest what the normal bot would do


def _waits(found: list[Wait]) -> list[WaitOut]:
    return [WaitOut(tile=str(w.tile), unseen=w.unseen) for w in found]


def waits_out(hand: HandState, seat: int) -> list[WaitOut]:
    """The seat's waits between its turns (empty when not ready)."""
    return _waits(ready_waits(hand, seat))


def turn_hints(hand: HandState, seat: int, suggest: bool) -> TurnHintsOut:
    """The hints of a turn prompt: the waits each ready-leaving discard leaves, and maybe a suggestion."""
    per = [DiscardWaitsOut(tile=str(t), waits=_waits(w)) for t, w in sorted(discard_waits(hand, seat).items())]
    suggestion = None
    if suggest:
        action = get_policy(SUGGESTING_LEVEL)(hand, seat, random.Random(0))  # ties broken the same each time
        suggestion = ActionOut(**action.to_json())
    return TurnHintsOut(discard_waits=per, suggestion=suggestion)
