"""A table actor's journal: what each command did is written before it is sent, and a table rebuilt from
the journal after a restart or a take-over resumes once its players are back (``app.tables.durability.journal``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from app.tables.durability.journal import Fenced, LiveGame, MatchState
from app.tables.play.commands import Tick
from app.ws.protocol import HandResultMessage
from engine.actions import Action
from engine.state import HandState

if TYPE_CHECKING:
    from app.tables.play.actor import TableActor

log = logging.getLogger(__name__)
# A resumed table's event numbers jump by this much past the journal's, so ``v`` never goes back for a
# client even if table events (presence, 托管) sent after the last journal write were lost with the process.
V_GAP = 1000


class JournalLost(Exception):
    """The journal refused or failed a write: what the command did must not be sent."""


class Durable:
    """Mixed into ``TableActor``; every method runs inside the actor task."""

    def match_state(self: TableActor) -> MatchState:
        return MatchState.of(self.match, voided=self.voided, points=self.points, coins=self.coins)

    async def _open_game(self: TableActor) -> None:
        if self.journal is None:
            return
        try:
            await self.journal.open_game(self.info, self.game_id, self.fence, self.match_state())
        except Exception:  # the table still plays; it just would not survive a restart
            log.exception("table %s: cannot journal the new game; it is not durable", self.id)
            self.journal = None

    async def persist(self: TableActor) -> None:
        """Write what the last command did to the journal (nothing when nothing is due)."""
        journal = self.journal
        if journal is None:
            return
        steps = []  # one unit: what this command did, committed together
        started = self.start_due and self.wall is not None
        if started:
            assert self.wall is not None
            steps.append(journal.hand_started_step(self.id, self.fence, self.hand_no, self.wall, self.out.v))
            self.logged = 0
        hand = self.hand
        new = [a.to_json() for a in hand.actions[self.logged:]] if hand is not None else []
        if new:
            steps.append(journal.append_step(self.id, self.fence, self.game_id, self.hand_no, self.logged, new,
                                             self.out.v))
        if self.close_due:
            result = self.last_result.model_dump(mode="json") if self.last_result else None
            steps.append(journal.hand_closed_step(self.id, self.fence, self.game_id, self.hand_no,
                                                  self.match_state(), self.out.v, result))
        if not steps:
            return
        try:
            await journal.write(steps)
            self.start_due = self.start_due and not started
            self.logged += len(new)
            self.close_due = False
        except Fenced as exc:
            log.warning("table %s: %s; this process stops acting for it", self.id, exc)
            self.services.on_lost = None  # the new owner has it: nothing to reload here
            raise JournalLost(str(exc)) from None
        except Exception as exc:
            log.exception("table %s: journal write failed", self.id)
            raise JournalLost(str(exc)) from None

    def _lost(self: TableActor) -> None:
        """The journal did not take the last command: forget it and its messages, and stop this actor.
        Unless another process took the table over, the runtime reloads it from the journal."""
        self.out.drop()
        self._close_prompts()
        self.closed = True
        self.close_code, self.close_reason = 1001, "the table is restarting; reconnect"
        if self.services.on_lost is not None:
            self.services.on_lost(self)

    def _resume(self: TableActor, game: LiveGame) -> None:
        """Rebuild the table from the journal; play goes on once the players are back (``end_resume``)."""
        self.game_id, self.fence, self.hand_no = game.game_id, game.fence, game.hand_no
        m = game.match
        self.match.dealer, self.match.dealer_streak = m.dealer, m.dealer_streak
        self.match.round_wind, self.match.hands_played = m.round_wind, m.hands_played
        self.voided, self.points, self.coins = m.voided, list(m.points), list(m.coins)
        self.out.v = game.v + V_GAP
        self.started = game.hand_no > 0
        self.wall = game.wall  # a closed hand's too: the snapshot names its commitment until the next deal
        if game.last_result is not None:
            self.last_result = HandResultMessage.model_validate(game.last_result)
        if game.wall is not None and not game.hand_closed:
            try:
                self.hand = HandState.replay(
                    self.match.variant, [Action.from_json(a) for a in game.actions], seed=game.wall.seed,
                    dealer=m.dealer, round_wind=m.round_wind, dealer_streak=m.dealer_streak, options=self.options)
                self.taken, self.logged = len(self.hand.events), len(game.actions)
            except Exception:
                log.exception("table %s: hand %d does not replay; voiding it", self.id, self.hand_no)
                self.hand = None
                self.void_hand()
        self.resuming = True
        self.timer(self.settings.resume_join_seconds, Tick("resume"))
        log.info("table %s: resumed hand %d (%d actions) with fence %d", self.id, self.hand_no,
                 len(game.actions), self.fence)

    def end_resume(self: TableActor) -> None:
        """The players are back (or the wait is over): re-open the prompts with their full time, settle a
        hand that had ended, or deal the next hand."""
        if not self.resuming or self.closed:
            return
        self.resuming = False
        hand = self.hand
        if not self.started:
            self._start_game()
        elif hand is not None and not hand.is_over:
            self.pump()
        elif hand is not None and hand.result is not None:
            self.hand_ended = True  # it ended before the crash: settle it (idempotent by hand key)
        elif hand is not None:
            self.void_hand()
        elif self.rounds_complete():  # the last hand was settled, but the game's end never reached the journal
            self.end_reason = "rounds_complete"
        elif self.last_result is not None:  # it was settled: its result is shown for the usual pause first
            self.timer(self.settings.hand_pause_seconds, Tick("next_hand", self.hand_no))
        else:
            self.new_hand()
