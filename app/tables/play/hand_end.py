"""The end of a hand and of the game at a table actor: settlement, the result, who stands up, game over,
and recovery: from a crash in a handler (a broken hand is voided: no coins move, its seed is revealed) and
from a restart or a take-over (the game is rebuilt from the journal and waits for its players).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from app.game.rooms import ROOMS
from app.services.games import FinishedGame, record_id
from app.services.settlement import Settlement
from app.tables.durability.journal import Fenced, LiveGame
from app.tables.durability.settle import Settler
from app.tables.fairness import WallSeed
from app.tables.play.commands import Tick
from app.tables.play.journal_writer import V_GAP, JournalWriter
from app.tables.play.flow import HandFlow
from app.tables.registry import TableRegistry
from app.tables.seating import unseat_below_entry
from app.tables.table_info import TableInfo
from app.ws.protocol import GameOverMessage, HandResultMessage, PaymentOut
from engine.actions import Action
from engine.invariants import check_all
from engine.state import HandState

log = logging.getLogger(__name__)
MAX_VOIDED = 3  # hands the server may break in one game before it ends the game


# After game_over: (table, points per seat, hands played, reason).  Tournament tables report here.
GameOverHook = Callable[[TableInfo, list[int], int, str], Awaitable[None]]
# As game_over goes out: the game's end for its durable record.  Must return at once (the runtime writes the
# record in its own task): the actor is closing and its sockets are waiting for the close.
GameEndHook = Callable[[FinishedGame], None]


def final_places(points: list[int]) -> list[int]:
    """名次: each seat's place at the end of a game, 1 first, by net points; equal points share the better
    place and the next place is skipped (standard competition ranking: 1, 2, 2, 4).

    >>> final_places([10, -30, 10, 10])
    [1, 4, 1, 1]
    """
    return [1 + sum(other > mine for other in points) for mine in points]


def finished_game(flow: HandFlow, reason: str, stood_up: list[int]) -> FinishedGame:
    """The game's end as the seats are told it, for its record (app.services.games)."""
    info = flow.info
    return FinishedGame(
        table_id=info.id, game_id=flow.game_id, variant=info.variant.value,
        room=info.room.value if info.room else None, kind=info.kind, options=dict(info.options),
        hands_limit=info.hands_limit,
        # The seats as the game began: one who stood up at the end has left ``info.seats`` already.
        seats=[None if slot.bot else slot.user_id for slot in flow.slots],
        seat_names=[None if slot.bot else slot.username for slot in flow.slots], bots=sorted(info.bots), reason=reason,
        hands_played=flow.match.hands_played, last_hand_no=flow.hand_no, points=list(flow.points),
        coins=list(flow.coins), places=final_places(flow.points), stood_up=list(stood_up))


def game_over_message(flow: HandFlow, reason: str, stood_up: list[int]) -> GameOverMessage:
    """The table's last word (終局): the game's totals and places, whether it ended by its rounds, a player
    leaving, an error or an operator closing the table."""
    return GameOverMessage(
        v=flow.out.v, game_id=record_id(flow.id, flow.game_id), reason=reason,  # type: ignore[arg-type]
        hands_played=flow.match.hands_played, points=flow.points, coins=flow.coins, stood_up=stood_up,
        places=final_places(flow.points))


def announce_game_over(flow: HandFlow, reason: str, stood_up: list[int], on_game_end: GameEndHook | None) -> None:
    """Send ``game_over`` to every seat, then hand the game's end to its record.  The record's failure is
    the runtime's to log: it never stops the message or the table's close."""
    flow.out.send_all(game_over_message(flow, reason, stood_up))
    if on_game_end is not None and flow.started:  # a table closed before its first deal played no game
        try:
            on_game_end(finished_game(flow, reason, stood_up))
        except Exception:
            log.exception("table %s: the game's record could not be handed over", flow.id)

class HandEnd:
    """Ends the hands and the game of the table's ``flow``; owned by the actor, every method runs inside the
    actor task.  ``settle`` is the ledger's side of a hand (结算), ``writer`` the table's journal, ``close``
    stops the actor and closes its sockets (code, reason), ``on_game_over`` the tournament's hook and
    ``on_game_end`` the game's record.
    """

    def __init__(self, flow: HandFlow, writer: JournalWriter, registry: TableRegistry, settle: Settler, *,
                 close: Callable[[int, str], None], on_game_over: GameOverHook | None,
                 on_game_end: GameEndHook | None = None) -> None:
        self.flow = flow
        self.writer = writer
        self.registry = registry
        self.settle = settle
        self.close = close
        self.on_game_over = on_game_over
        self.on_game_end = on_game_end

    async def finish_hand(self) -> None:
        flow = self.flow
        hand, wall = flow.hand, flow.wall
        if hand is None or hand.result is None or wall is None or hand is flow.settled_hand:
            return
        flow.settled_hand = hand  # exactly once, whatever happens next
        key = f"{flow.id}:{flow.game_id}:{flow.hand_no}"
        settlement = await self.settle(flow.info, key, hand, wall, flow.hand_no)
        result = self._hand_result(hand, wall, settlement)
        flow.out.send_all(result)
        if settlement is None:
            await self.game_over("server_error")
            return
        flow.match.record(hand)
        for seat in range(len(flow.slots)):
            flow.points[seat] += settlement.point_deltas[seat]
            flow.coins[seat] += settlement.coin_deltas[seat]
        flow.close_due = True  # the journal's match moves on with this hand, and keeps its result
        flow.last_result = result
        stood_up = await self._unseat_broke(settlement)
        if stood_up:
            await self.game_over("player_left", stood_up)
        elif self.rounds_complete():
            await self.game_over("rounds_complete")
        elif not flow.table_closed():
            flow.timer(flow.settings.hand_pause_seconds, Tick("next_hand", flow.hand_no))

    def rounds_complete(self) -> bool:
        """The game has played all it should: its 圈 (RULES.md), or the table's hand limit."""
        flow = self.flow
        limit = flow.info.hands_limit
        return flow.match.finished or bool(limit and flow.match.hands_played >= limit)

    def _hand_result(self, hand: HandState, wall: WallSeed,
                     settlement: Settlement | None) -> HandResultMessage:
        flow = self.flow
        assert hand.result is not None
        n = len(flow.slots)
        per_point = 0 if flow.info.practice or not flow.info.room else ROOMS[flow.info.room].coins_per_point
        bots = set(flow.info.bots) if per_point else set()  # bots hold no coins (app.services.settlement)
        payments = [PaymentOut(payer=p.payer, payee=p.payee, points=p.points, reason=p.reason,
                               coins=0 if {p.payer, p.payee} & bots else p.points * per_point,
                               bot=bool({p.payer, p.payee} & bots)) for p in hand.result.score.payments]
        done = settlement is not None
        # The game's totals after this hand: the flow adds the deltas only once the result is sent.
        points = [p + (settlement.point_deltas[s] if settlement else 0) for s, p in enumerate(flow.points)]
        coins = [c + (settlement.coin_deltas[s] if settlement else 0) for s, c in enumerate(flow.coins)]
        return HandResultMessage(
            v=flow.out.v, hand_no=flow.hand_no, hand_id=settlement.hand_id if settlement else None,
            void=not done,
            practice=flow.info.practice, result=hand.result.public_json(hand), payments=payments,
            coin_deltas=settlement.coin_deltas if settlement else [0] * n,
            forfeited=settlement.forfeited if settlement else [0] * n,
            coins_after=settlement.coins_after if settlement else [None] * n,
            game_points=points, game_coins=coins,
            seed=wall.seed, salt=wall.salt, commitment=wall.commitment,
        )

    async def _unseat_broke(self, settlement: Settlement) -> list[int]:
        """RULES.md §7: whoever fell below the room's entry stands up after the hand (and any frozen account)."""
        flow = self.flow
        try:
            freed = await unseat_below_entry(registry=self.registry, table_id=flow.id,
                                             coins_after=settlement.coins_after)
            # Admin-frozen accounts stand up too, except at a tournament table: there the seat plays on 托管 to
            # the end of the round, so the table goes on for the others (the tournament disqualifies the player).
            frozen = set() if flow.info.tournament_game_id is not None else flow.frozen_seats
            for seat in sorted(frozen - set(freed)):
                await self.registry.vacate_seat(flow.id, seat)
                freed.append(seat)
            return sorted(freed)
        except Exception as exc:  # the table may have been removed meanwhile
            log.info("table %s: unseating skipped: %s", flow.id, exc)
            return []

    async def game_over(self, reason: str, stood_up: list[int] | None = None) -> None:
        flow = self.flow
        stood_up = stood_up or []
        log.info("game over", extra={"table_id": flow.id, "game_id": flow.game_id, "hand_no": flow.hand_no,
                                     "reason": reason})
        await self.writer.persist()
        if self.writer.journal is not None:
            try:
                await self.writer.game_closed()
            except Fenced:  # another process owns the table: its end is theirs to record
                log.warning("table %s: fenced; the journal's game is another process's", flow.id)
            except Exception:  # the database is away: the actor retries as it stops (JournalWriter.record_end)
                self.writer.end_due = True
        announce_game_over(flow, reason, stood_up, self.on_game_end)
        self.close(1000, "the game is over")
        await self._release_table(stood_up)
        if self.on_game_over is not None:
            try:
                await self.on_game_over(flow.info, list(flow.points), flow.match.hands_played, reason)
            except Exception:
                log.exception("table %s: the game-over hook failed", flow.id)

    async def _release_table(self, stood_up: list[int]) -> None:
        """At game over the table closes: every seat is released and the lobby hears ``table_removed``, so
        nobody stays seated at a finished game (issue 9 item 4).  A new game is a new table."""
        flow = self.flow
        try:
            await self.registry.remove(flow.id)
        except Exception as exc:
            log.warning("table %s: closing it in the registry failed: %s", flow.id, exc)

    def recover(self) -> None:
        """After a crash: a hand the server broke is voided (no coins move, its seed is revealed and the
        next hand is dealt); a failed deal is retried; otherwise prompts re-open for whoever is awaited."""
        flow = self.flow
        flow.close_prompts()
        hand = flow.hand
        if not flow.started:
            return
        if hand is None or hand is flow.settled_hand:
            self._server_failed()  # the next deal failed: try again after the pause
            return
        try:
            broken = hand.is_over and hand.result is None
            if not broken:
                check_all(hand)  # includes D-7: an awaited seat without a move is a broken hand
        except Exception:
            broken = True
        if broken:
            self.void_hand()
        else:
            flow.pump()

    def void_hand(self) -> None:
        flow = self.flow
        assert flow.wall is not None
        flow.pending.clear()
        flow.out.table_event(flow.hand_no, "hand_void", hand_no=flow.hand_no, seed=flow.wall.seed,
                             salt=flow.wall.salt, reason="the server failed during this hand; no coins move")
        flow.hand = None
        flow.close_due = True
        self._server_failed()

    def _server_failed(self) -> None:
        flow = self.flow
        flow.voided += 1
        if flow.voided >= MAX_VOIDED:
            flow.end_reason = "server_error"
        else:
            flow.timer(flow.settings.hand_pause_seconds, Tick("next_hand", flow.hand_no))

    # -- resuming from the journal (after a restart or a take-over) ----------------------------------------

    def resume(self, game: LiveGame) -> None:
        """Rebuild the table from the journal; play goes on once the players are back (``end_resume``)."""
        flow = self.flow
        flow.game_id, self.writer.fence, flow.hand_no = game.game_id, game.fence, game.hand_no
        m = game.match
        flow.match.dealer, flow.match.dealer_streak = m.dealer, m.dealer_streak
        flow.match.round_wind, flow.match.hands_played = m.round_wind, m.hands_played
        flow.voided, flow.points, flow.coins = m.voided, list(m.points), list(m.coins)
        flow.out.v = game.v + V_GAP
        flow.started = game.hand_no > 0
        flow.wall = game.wall  # a closed hand's too: the snapshot names its commitment until the next deal
        if game.last_result is not None:
            flow.last_result = HandResultMessage.model_validate(game.last_result)
        if game.wall is not None and not game.hand_closed:
            try:
                flow.hand = HandState.replay(
                    flow.match.variant, [Action.from_json(a) for a in game.actions], seed=game.wall.seed,
                    dealer=m.dealer, round_wind=m.round_wind, dealer_streak=m.dealer_streak,
                    options=flow.options)
                flow.taken, flow.logged = len(flow.hand.events), len(game.actions)
            except Exception:
                log.exception("table %s: hand %d does not replay; voiding it", flow.id, flow.hand_no)
                flow.hand = None
                self.void_hand()
        flow.resuming = True
        flow.timer(flow.settings.resume_join_seconds, Tick("resume"))
        log.info("table %s: resumed hand %d (%d actions) with fence %d", flow.id, flow.hand_no,
                 len(game.actions), self.writer.fence)

    def end_resume(self) -> None:
        """The players are back (or the wait is over): re-open the prompts with their full time, settle a
        hand that had ended, or deal the next hand."""
        flow = self.flow
        if not flow.resuming or flow.table_closed():
            return
        flow.resuming = False
        hand = flow.hand
        if not flow.started:
            flow.start_game()
        elif hand is not None and not hand.is_over:
            flow.pump()
        elif hand is not None and hand.result is not None:
            flow.hand_ended = True  # it ended before the crash: settle it (idempotent by hand key)
        elif hand is not None:
            self.void_hand()
        elif self.rounds_complete():  # the last hand was settled, but the game's end never reached the journal
            flow.end_reason = "rounds_complete"
        elif flow.last_result is not None:  # it was settled: its result is shown for the usual pause first
            flow.timer(flow.settings.hand_pause_seconds, Tick("next_hand", flow.hand_no))
        else:
            flow.new_hand()
