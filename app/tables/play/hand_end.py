"""The end of a hand and of the game at a table actor: settlement (结算), the result, who stands up, game
over (終局).  Recovering the game from a crash or a restart is ``recovery.GameRecovery``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from app.game.rooms import ROOMS
from app.services.games import FinishedGame, record_id
from app.services.settlement import Settlement
from app.tables.durability.journal import Fenced
from app.tables.durability.settle import Settler
from app.tables.fairness import WallSeed
from app.tables.play.commands import Tick
from app.tables.play.flow import HandFlow
from app.tables.play.journal_writer import JournalWriter
from app.tables.protocol.messages import GameOverMessage, HandResultMessage, PaymentOut
from app.tables.registry import TableRegistry
from app.tables.seating import unseat_below_entry
from app.tables.table_info import TableInfo
from engine.state import HandState

log = logging.getLogger(__name__)


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


def announce_game_over(flow: HandFlow, reason: str, stood_up: list[int],
                       on_game_end: GameEndHook | None) -> GameOverMessage:
    """Send ``game_over`` to every seat, then hand the game's end to its record.  The record's failure is
    the runtime's to log: it never stops the message or the table's close.  Returns the message (a seat that
    reconnects in the moments after is sent it again, ``TableActor.linger``)."""
    message = game_over_message(flow, reason, stood_up)
    flow.out.send_all(message)
    if on_game_end is not None and flow.started:  # a table closed before its first deal played no game
        try:
            on_game_end(finished_game(flow, reason, stood_up))
        except Exception:
            log.exception("table %s: the game's record could not be handed over", flow.id)
    return message

def rounds_complete(flow: HandFlow) -> bool:
    """The game has played all it should: its 圈 (docs/rules/timing.md#room-options), or the table's hand limit."""
    limit = flow.info.hands_limit
    return flow.match.finished or bool(limit and flow.match.hands_played >= limit)


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
        self.final: GameOverMessage | None = None  # the game's ``game_over`` (終局), once it is sent

    async def finish_hand(self) -> None:
        flow = self.flow
        hand, wall = flow.hand, flow.wall
        if hand is None or hand.result is None or wall is None or hand is flow.settled_hand:
            return
        flow.settled_hand = hand  # exactly once, whatever happens next
        key = f"{flow.id}:{flow.game_id}:{flow.hand_no}"
        settlement = await self.settle(flow.info, key, hand, wall, flow.hand_no,
                                       first_commitment=flow.first_commitment)
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
        elif rounds_complete(flow):
            await self.game_over("rounds_complete")
        elif not flow.table_closed():
            flow.timer(flow.settings.hand_pause_seconds, Tick("next_hand", flow.hand_no))


    def _hand_result(self, hand: HandState, wall: WallSeed,
                     settlement: Settlement | None) -> HandResultMessage:
        flow = self.flow
        assert hand.result is not None
        n = len(flow.slots)
        # A tournament hand moves no coins either (docs/tournaments.md): its payments are points only.
        per_point = ROOMS[flow.info.room].coins_per_point if flow.info.moves_coins and flow.info.room else 0
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
            practice=not flow.info.moves_coins, result=hand.result.public_json(hand), payments=payments,
            coin_deltas=settlement.coin_deltas if settlement else [0] * n,
            forfeited=settlement.forfeited if settlement else [0] * n,
            coins_after=settlement.coins_after if settlement else [None] * n,
            game_points=points, game_coins=coins,
            seed=wall.seed, salt=wall.salt, commitment=wall.commitment,
        )

    async def _unseat_broke(self, settlement: Settlement) -> list[int]:
        """docs/rules/rooms.md#rooms: whoever fell below the room's entry stands up after the hand.

        An admin-frozen account does not (docs/rules/rooms.md#frozen F-10): its seat plays on under 托管 to the
        end of the game and settles as usual, so the others' game goes on; the seat is released with the table
        at game over, and the frozen account can take no new seat, queue or registration.  At a practice table
        the frozen player is the only person there, so no one's game needs keeping: it stands up after the hand,
        which ends that game, and no 托管 game holds the account's seat for hours."""
        flow = self.flow
        try:
            freed = await unseat_below_entry(registry=self.registry, table_id=flow.id,
                                             coins_after=settlement.coins_after)
            frozen = flow.frozen_seats if flow.info.practice else set()
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
        self.final = announce_game_over(flow, reason, stood_up, self.on_game_end)
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
