"""A table's side of its journal (``app.tables.durability.journal``): what each command did is written
before it is sent.  Rebuilding a table from the journal after a restart or a take-over is
``recovery.GameRecovery.resume``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from app.tables.durability.journal import Fenced, MatchState, TableJournal
from app.tables.play.flow import HandFlow

log = logging.getLogger(__name__)
# A resumed table's event numbers jump by this much past the journal's, so ``v`` never goes back for a
# client even if table events (presence, 托管) sent after the last journal write were lost with the process.
V_GAP = 1000
# Recording a game's end while the database is away: the first wait, doubled after each try, up to the cap.
END_RETRY_SECONDS = 0.5
END_RETRY_CAP_SECONDS = 8.0


class JournalLost(Exception):
    """The journal refused or failed a write: what the command did must not be sent."""


class JournalWriter:
    """Writes what the table's game (``flow``) has not journalled yet; owned by the actor, every method runs
    inside the actor task.  ``journal`` is None for a table that is not durable (or stopped being so when its
    game could not be opened); ``fence`` is this process's fencing token for the table, carried by every
    write; ``on_fenced`` is called when another process has taken the table over.
    """

    def __init__(self, flow: HandFlow, journal: TableJournal | None, fence: int, *,
                 on_fenced: Callable[[], None]) -> None:
        self.flow = flow
        self.journal = journal
        self.fence = fence
        self.on_fenced = on_fenced
        # The game ended but the journal could not record it (the database was away): ``record_end`` retries,
        # or the game would be resumed from the journal and played on with nobody at the table.
        self.end_due = False
        self.end_recorded = False  # the game's row has left the journal
        self.gathering = False  # waiting on a write that may gather with other tables' (``persist``)

    async def game_closed(self) -> None:
        """The game is over: its row leaves the journal (raises when fenced or failed)."""
        assert self.journal is not None
        await self.journal.game_closed(self.flow.id, self.fence)
        self.end_due, self.end_recorded = False, True

    async def record_end(self, within_seconds: float, *, first_wait: float = END_RETRY_SECONDS) -> bool:
        """Record the game's end, retrying through a database outage for up to ``within_seconds``
        (waits from ``first_wait``, doubling, capped).  Returns whether the journal recorded it; a fenced
        write means another process owns the table, and its end is theirs to record."""
        assert self.journal is not None
        deadline, wait, tries = time.monotonic() + within_seconds, first_wait, 0
        while True:
            tries += 1
            try:
                await self.game_closed()
            except Fenced as exc:
                log.warning("table %s: %s; its end is the new owner's to record", self.flow.id, exc)
                return False
            except Exception as exc:
                if time.monotonic() + wait > deadline:
                    log.error("table %s: the journal did not record the game's end after %d tries (%s); "
                              "a restart may resume it", self.flow.id, tries, exc)
                    return False
                if tries == 1:
                    log.warning("table %s: the journal cannot record the game's end yet (%s); retrying",
                                self.flow.id, exc)
                await asyncio.sleep(wait)
                wait = min(wait * 2, END_RETRY_CAP_SECONDS)
            else:
                if tries > 1:
                    log.info("table %s: the game's end is recorded (try %d)", self.flow.id, tries)
                return True

    def match_state(self) -> MatchState:
        flow = self.flow
        return MatchState.of(flow.match, voided=flow.voided, points=flow.points, coins=flow.coins,
                             first_commitment=flow.first_commitment)

    async def open_game(self) -> None:
        if self.journal is None:
            return
        try:
            await self.journal.open_game(self.flow.info, self.flow.game_id, self.fence, self.match_state())
        except Exception:  # the table still plays; it just would not survive a restart
            log.exception("table %s: cannot journal the new game; it is not durable", self.flow.id)
            self.journal = None

    def hurry(self) -> None:
        """A player's message reached the table: if the table is waiting on a write that gathers with other
        tables', the journal commits now, so the player does not wait on it.  (Only then: a player usually
        answers a prompt sent once the table's last write was in, and hurrying every gathering write for
        every message would only add a commit ahead of the player's own.)"""
        if self.gathering and self.journal is not None:
            self.journal.hurry()

    async def persist(self, *, urgent: bool = True) -> None:
        """Write what the last command did to the journal (nothing when nothing is due).  ``urgent=False``:
        a timer's command (a bot's move, a claim window closing), which no player is waiting on, so its
        write may share a commit with other tables' (``TableJournal.write``)."""
        journal, flow = self.journal, self.flow
        if journal is None:
            return
        steps = []  # one unit: what this command did, committed together
        started = flow.start_due and flow.wall is not None
        if started:
            assert flow.wall is not None
            steps.append(journal.hand_started_step(flow.id, self.fence, flow.hand_no, flow.wall, flow.out.v))
            flow.logged = 0
        hand = flow.hand
        new = [a.to_json() for a in hand.actions[flow.logged:]] if hand is not None else []
        if new:
            steps.append(journal.append_step(flow.id, self.fence, flow.game_id, flow.hand_no, flow.logged,
                                             new, flow.out.v))
        if flow.auto_due:
            steps.append(journal.auto_play_step(flow.id, self.fence, flow.auto_seats()))
        if flow.close_due:
            result = flow.last_result.model_dump(mode="json") if flow.last_result else None
            steps.append(journal.hand_closed_step(flow.id, self.fence, flow.game_id, flow.hand_no,
                                                  self.match_state(), flow.out.v, result))
        if not steps:
            return
        try:
            self.gathering = not urgent
            try:
                await journal.write(steps, urgent=urgent)
            finally:
                self.gathering = False
            flow.start_due = flow.start_due and not started
            flow.logged += len(new)
            flow.close_due = False
            flow.auto_due = False
        except Fenced as exc:
            log.warning("table %s: %s; this process stops acting for it", flow.id, exc)
            self.on_fenced()  # the new owner has it: nothing to reload here
            raise JournalLost(str(exc)) from None
        except Exception as exc:
            log.exception("table %s: journal write failed", flow.id)
            raise JournalLost(str(exc)) from None
