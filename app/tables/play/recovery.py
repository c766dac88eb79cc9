"""The game's recovery at a table actor: from a crash in a handler (a broken hand is voided: no coins move,
its seed is revealed) and from a restart or a take-over (the game is rebuilt from the journal, waits for its
players, then plays on).  The end of a hand and of the game is ``hand_end.HandEnd``.
"""

from __future__ import annotations

import logging

from app.tables.durability.journal import LiveGame
from app.tables.play.commands import Tick
from app.tables.play.flow import HandFlow
from app.tables.play.hand_end import rounds_complete
from app.tables.play.journal_writer import V_GAP, JournalWriter
from app.tables.play.played import NOTHING, Played
from app.tables.protocol.messages import HandResultMessage
from engine.actions import Action
from engine.invariants import check_all
from engine.match import draw_first_dealer
from engine.state import HandState

log = logging.getLogger(__name__)
MAX_VOIDED = 3  # hands the server may break in one game before it ends the game


class GameRecovery:
    """Brings the table's ``flow`` back after a crash or from the journal (``writer`` carries the fence);
    owned by the actor, every method runs inside the actor task and returns what the actor must follow up
    (a hand to settle, a game to end)."""

    def __init__(self, flow: HandFlow, writer: JournalWriter) -> None:
        self.flow = flow
        self.writer = writer

    def recover(self) -> Played:
        """After a crash: a hand the server broke is voided (no coins move, its seed is revealed and the
        next hand is dealt); a failed deal is retried; otherwise prompts re-open for whoever is awaited."""
        flow = self.flow
        flow.close_prompts()
        hand = flow.hand
        if not flow.started:
            return NOTHING
        if hand is None or hand is flow.settled_hand:
            return self._server_failed()  # the next deal failed: try again after the pause
        try:
            broken = hand.is_over and hand.result is None
            if not broken:
                check_all(hand)  # includes D-7: an awaited seat without a move is a broken hand
        except Exception:
            broken = True
        return self.void_hand() if broken else flow.pump()

    def void_hand(self) -> Played:
        """The server broke the hand: it is void (its seed revealed, no coins move) and the next is dealt
        after the pause, unless the game has had ``MAX_VOIDED`` of them (it ends: ``server_error``)."""
        flow = self.flow
        assert flow.wall is not None
        flow.pending.clear()
        flow.out.table_event(flow.hand_no, "hand_void", {
            "hand_no": flow.hand_no, "seed": flow.wall.seed, "salt": flow.wall.salt,
            "reason": "the server failed during this hand; no coins move"})
        flow.hand = None
        flow.close_due = True
        return self._server_failed()

    def _server_failed(self) -> Played:
        flow = self.flow
        flow.voided += 1
        if flow.voided >= MAX_VOIDED:
            return Played(game_over="server_error")
        flow.timer(flow.settings.hand_pause_seconds, Tick("next_hand", flow.hand_no))
        return NOTHING

    # -- resuming from the journal (after a restart or a take-over) ----------------------------------------

    def resume(self, game: LiveGame) -> Played:
        """Rebuild the table from the journal; play goes on once the players are back (``end_resume``).
        Reports a game that must end at once (its hand does not replay, and it was one void too many)."""
        flow = self.flow
        flow.game_id, self.writer.fence, flow.hand_no = game.game_id, game.fence, game.hand_no
        m = game.match
        flow.match.dealer, flow.match.dealer_streak = m.dealer, m.dealer_streak
        flow.match.round_wind, flow.match.hands_played = m.round_wind, m.hands_played
        self._restore_first_dealer(game)
        flow.voided, flow.points, flow.coins = m.voided, list(m.points), list(m.coins)
        for seat in game.auto_seats:  # 托管 stays on across the restart until the player is back
            if 0 <= seat < len(flow.slots) and flow.slots[seat].human:
                flow.slots[seat].auto = True
        flow.out.v = game.v + V_GAP
        flow.started = game.hand_no > 0
        flow.wall = game.wall  # a closed hand's too: the snapshot names its commitment until the next deal
        if game.last_result is not None:
            flow.last_result = HandResultMessage.model_validate(game.last_result)
        played = NOTHING
        if game.wall is not None and not game.hand_closed:
            try:
                flow.hand = HandState.replay(
                    flow.match.variant, [Action.from_json(a) for a in game.actions], seed=game.wall.seed,
                    dealer=flow.match.dealer, round_wind=m.round_wind, dealer_streak=m.dealer_streak,
                    options=flow.options)
                flow.taken, flow.logged = len(flow.hand.events), len(game.actions)
            except Exception:
                log.exception("table %s: hand %d does not replay; voiding it", flow.id, flow.hand_no)
                flow.hand = None
                played = self.void_hand()
        flow.resuming = True
        flow.timer(flow.settings.resume_join_seconds, Tick("resume"))
        log.info("table %s: resumed hand %d (%d actions) with fence %d", flow.id, flow.hand_no,
                 len(game.actions), self.writer.fence)
        return played

    def _restore_first_dealer(self, game: LiveGame) -> None:
        """The game's first commitment and the first dealer drawn from it (docs/rules/common.md#first-dealer).

        Until the first hand closes the row has no first commitment and still names the dealer it was opened
        with: the hand in play is the first one, and its own commitment drew the dealer.  (A game begun before
        the draw existed has none after its first hand either, and keeps seat 0.)"""
        flow, m = self.flow, game.match
        first_hand = game.hand_no == 1 and not m.hands_played and not m.voided
        flow.first_commitment = m.first_commitment or (game.wall.commitment if game.wall and first_hand else None)
        if flow.first_commitment is not None:
            flow.match.first_dealer = draw_first_dealer(flow.first_commitment, len(flow.slots))
            if first_hand:
                flow.match.dealer = flow.match.first_dealer

    def players_seated(self) -> Played:
        """Every human is at the table: a resumed game plays on, a new one deals its first hand."""
        return self.end_resume() if self.flow.resuming else self.flow.start_game()

    def end_resume(self) -> Played:
        """The players are back (or the wait is over): re-open the prompts with their full time, settle a
        hand that had ended, or deal the next hand."""
        flow = self.flow
        if not flow.resuming or flow.table_closed():
            return NOTHING
        flow.resuming = False
        hand = flow.hand
        if not flow.started:
            return flow.start_game()
        if hand is not None and not hand.is_over:
            return flow.pump()
        if hand is not None and hand.result is not None:
            return Played.hand_over(hand)  # it ended before the crash: settle it (idempotent by hand key)
        if hand is not None:
            return self.void_hand()
        if rounds_complete(flow):  # the last hand was settled, but the game's end never reached the journal
            return Played(game_over="rounds_complete")
        if flow.last_result is not None:  # it was settled: its result is shown for the usual pause first
            flow.timer(flow.settings.hand_pause_seconds, Tick("next_hand", flow.hand_no))
            return NOTHING
        return flow.new_hand()
