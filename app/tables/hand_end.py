"""The end of a hand and of the game at a table actor: settlement, the result, who stands up, game over,
and recovery from a crash in a handler (a broken hand is voided: no coins move, its seed is revealed).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from app.game.rooms import ROOMS
from app.services.settlement import Settlement
from app.tables.commands import Tick
from app.tables.fairness import WallSeed
from app.tables.seating import unseat_below_entry
from app.ws.protocol import GameOverMessage, HandResultMessage, PaymentOut
from engine.invariants import check_all
from engine.state import HandState

if TYPE_CHECKING:
    from app.tables.actor import TableActor

log = logging.getLogger(__name__)
MAX_VOIDED = 3  # hands the server may break in one game before it ends the game


def final_places(points: list[int]) -> list[int]:
    """名次: each seat's place at the end of a game, 1 first, by net points; equal points share the better
    place and the next place is skipped (standard competition ranking: 1, 2, 2, 4).

    >>> final_places([10, -30, 10, 10])
    [1, 4, 1, 1]
    """
    return [1 + sum(other > mine for other in points) for mine in points]


class HandEnd:
    """Mixed into ``TableActor``; every method runs inside the actor task."""

    async def finish_hand(self: TableActor) -> None:
        hand, wall = self.hand, self.wall
        if hand is None or hand.result is None or wall is None or hand is self.settled_hand:
            return
        self.settled_hand = hand  # exactly once, whatever happens next
        key = f"{self.id}:{self.game_id}:{self.hand_no}"
        settlement = await self.services.settle(self.info, key, hand, wall, self.hand_no)
        result = self._hand_result(hand, wall, settlement)
        self.out.send_all(result)
        if settlement is None:
            await self.game_over("server_error")
            return
        self.match.record(hand)
        for seat in range(len(self.slots)):
            self.points[seat] += settlement.point_deltas[seat]
            self.coins[seat] += settlement.coin_deltas[seat]
        self.close_due = True  # the journal's match moves on with this hand, and keeps its result
        self.last_result = result
        stood_up = await self._unseat_broke(settlement)
        if stood_up:
            await self.game_over("player_left", stood_up)
        elif self.rounds_complete():
            await self.game_over("rounds_complete")
        elif not self.closed:
            self.timer(self.settings.hand_pause_seconds, Tick("next_hand", self.hand_no))

    def rounds_complete(self: TableActor) -> bool:
        """The game has played all it should: its 圈 (RULES.md), or the table's hand limit."""
        return self.match.finished or bool(self.info.hands_limit and self.match.hands_played >= self.info.hands_limit)

    def _hand_result(self: TableActor, hand: HandState, wall: WallSeed,
                     settlement: Settlement | None) -> HandResultMessage:
        assert hand.result is not None
        n = len(self.slots)
        per_point = 0 if self.info.practice or not self.info.room else ROOMS[self.info.room].coins_per_point
        bots = set(self.info.bots) if per_point else set()  # bots hold no coins (app.services.settlement)
        payments = [PaymentOut(payer=p.payer, payee=p.payee, points=p.points, reason=p.reason,
                               coins=0 if {p.payer, p.payee} & bots else p.points * per_point,
                               bot=bool({p.payer, p.payee} & bots)) for p in hand.result.score.payments]
        done = settlement is not None
        # The totals after this hand: the actor adds the deltas only once the result is sent.
        points = [p + (settlement.point_deltas[s] if done else 0) for s, p in enumerate(self.points)]
        coins = [c + (settlement.coin_deltas[s] if done else 0) for s, c in enumerate(self.coins)]
        return HandResultMessage(
            v=self.out.v, hand_no=self.hand_no, hand_id=settlement.hand_id if done else None, void=not done,
            practice=self.info.practice, result=hand.result.public_json(hand), payments=payments,
            coin_deltas=settlement.coin_deltas if done else [0] * n,
            forfeited=settlement.forfeited if done else [0] * n,
            coins_after=settlement.coins_after if done else [None] * n, game_points=points, game_coins=coins,
            seed=wall.seed, salt=wall.salt, commitment=wall.commitment,
        )

    async def _unseat_broke(self: TableActor, settlement: Settlement) -> list[int]:
        """RULES.md §7: whoever fell below the room's entry stands up after the hand (and any frozen account)."""
        try:
            freed = await unseat_below_entry(registry=self.registry, table_id=self.id,
                                             coins_after=settlement.coins_after)
            for seat in sorted(self.frozen_seats - set(freed)):  # admin-frozen accounts stand up too
                await self.registry.vacate_seat(self.id, seat)
                freed.append(seat)
            return sorted(freed)
        except Exception as exc:  # the table may have been removed meanwhile
            log.info("table %s: unseating skipped: %s", self.id, exc)
            return []

    async def game_over(self: TableActor, reason: str, stood_up: list[int] | None = None) -> None:
        stood_up = stood_up or []
        log.info("game over", extra={"table_id": self.id, "game_id": self.game_id, "hand_no": self.hand_no,
                                     "reason": reason})
        await self.persist()
        if self.journal is not None:
            try:
                await self.journal.game_closed(self.id, self.fence)
            except Exception:  # fenced: another process owns the table; otherwise a restart re-ends it
                log.exception("table %s: the journal did not record the game's end", self.id)
        self.out.send_all(GameOverMessage(
            v=self.out.v, reason=reason, hands_played=self.match.hands_played,  # type: ignore[arg-type]
            points=self.points, coins=self.coins, stood_up=stood_up, places=final_places(self.points)))
        self.closed = True
        self._close_prompts()
        self._close_links(1000, "the game is over")
        await self._release_table(stood_up)
        if self.services.on_game_over is not None:
            try:
                await self.services.on_game_over(self.info, list(self.points), self.match.hands_played, reason)
            except Exception:
                log.exception("table %s: the game-over hook failed", self.id)

    async def _release_table(self: TableActor, stood_up: list[int]) -> None:
        """At game over the table closes: every seat is released and the lobby hears ``table_removed``, so
        nobody stays seated at a finished game (issue 9 item 4).  A new game is a new table."""
        try:
            await self.registry.remove(self.id)
        except Exception as exc:
            log.warning("table %s: closing it in the registry failed: %s", self.id, exc)

    def recover(self: TableActor) -> None:
        """After a crash: a hand the server broke is voided (no coins move, its seed is revealed and the
        next hand is dealt); a failed deal is retried; otherwise prompts re-open for whoever is awaited."""
        self._close_prompts()
        hand = self.hand
        if not self.started:
            return
        if hand is None or hand is self.settled_hand:
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
            self.pump()

    def void_hand(self: TableActor) -> None:
        assert self.wall is not None
        self.pending.clear()
        self.out.table_event(self.hand_no, "hand_void", hand_no=self.hand_no, seed=self.wall.seed,
                             salt=self.wall.salt, reason="the server failed during this hand; no coins move")
        self.hand = None
        self.close_due = True
        self._server_failed()

    def _server_failed(self: TableActor) -> None:
        self.voided += 1
        if self.voided >= MAX_VOIDED:
            self.end_reason = "server_error"
        else:
            self.timer(self.settings.hand_pause_seconds, Tick("next_hand", self.hand_no))
