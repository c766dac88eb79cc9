"""What one command did to the table's game (``Played``): the hand flow and the game's recovery return it, and
the actor acts on it (settles an ended hand, ends the game) instead of reading flags off the flow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from engine.events import Event
from engine.state import HandState

# Why a seat goes on 托管 (docs/rules/timing.md#auto-play): two timeouts in a row, an admin's freeze, its socket left, the
# player asked.  The same names label the ``AUTO_PLAY_BY`` metric (app.metrics.AUTO_PLAY_REASONS).
AutoPlayReason = Literal["timeouts", "frozen", "disconnected", "chosen"]


@dataclass(frozen=True, slots=True)
class Played:
    """What happened: the engine's ``events`` an action caused (empty for a command that played none), whether
    the hand ended — it is over with a result and its last event has gone out, so the actor settles it (结算)
    next — and how (``ended_by``: the win kind, ``"discard"``, ``"self_draw"``, …, or ``"draw"`` for 流局),
    and whether the game must end now and why (``game_over``: ``"server_error"``, ``"rounds_complete"``).
    """

    events: tuple[Event, ...] = ()
    hand_ended: bool = False
    ended_by: str | None = None
    game_over: str | None = None

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, events: tuple[Event, ...] = (), hand_ended: bool = False, ended_by: str | None = None,
                 game_over: str | None = None) -> None:
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "hand_ended", hand_ended)
        object.__setattr__(self, "ended_by", ended_by)
        object.__setattr__(self, "game_over", game_over)

    @staticmethod
    def hand_over(hand: HandState) -> Played:
        """The hand ended with its result (``hand.result`` must be set)."""
        result = hand.result
        assert result is not None
        how = "draw" if result.is_draw or result.win_kind is None else result.win_kind.value
        return Played(hand_ended=True, ended_by=how)

    def then(self, later: Played) -> Played:
        """This, then ``later`` in the same command: the events of both; an end either reports."""
        return Played(self.events + later.events, self.hand_ended or later.hand_ended,
                      self.ended_by or later.ended_by, self.game_over or later.game_over)


NOTHING: Final = Played()
"""A command that moved nothing the actor must follow up."""


class SeatWithoutAMove(Exception):
    """The hand awaits a seat that has no legal action or no timeout action (docs/rules/common.md#always-a-move D-7).

    An ``Exception`` rather than a ``RuntimeError``: this module is compiled (tools/compile_engine.py), and mypyc
    compiles a subclass of ``Exception`` but not of ``RuntimeError``.

    The engine never offers an action that leads there, but if it ever did, the table must not wait for ever
    (no prompt, no timer): the actor treats it as a crash in a handler, which logs it and voids the hand.
    """
