"""The end of a hand on the database side: one ``settle_hand`` transaction per hand (S's ledger service).

Coin tables move coins and 積分; practice tables only record the hand.  The hand key
``{table}:{game}:{hand_no}`` makes a retried settlement a no-op, so a failed attempt is retried; after
``attempts`` failures the hand is voided (nothing moved, docs/rules/rooms.md#settlement) and ``None`` returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app import metrics
from app.core.db import HeldConnections
from app.game.rooms import ROOMS
from app.services.settlement import Settlement, practice_hand, record_practice_hand, settle_hand
from app.tables.fairness import WallSeed
from app.tables.registry import TableInfo
from engine.match import draw_first_dealer
from engine.state import HandState

log = logging.getLogger(__name__)
# The first wait between two attempts, doubled after each: a database restarting (seconds) must not void the
# hand at once (issue 27: three attempts within 30 ms voided a hand and ended its game while Postgres restarted).
RETRY_SECONDS = 0.5


class Settler(Protocol):
    async def __call__(self, info: TableInfo, hand_key: str, hand: HandState, wall: WallSeed,
                       hand_no: int, *, first_commitment: str | None = None) -> Settlement | None: ...


def hand_record(info: TableInfo, hand: HandState, wall: WallSeed, hand_no: int, *,
                first_commitment: str | None = None) -> dict[str, Any]:
    """What is stored for the hand: enough to verify the wall and replay it (``fairness.verify_hand``), and
    the game's first commitment with the first dealer drawn from it (docs/rules/common.md#first-dealer)."""
    assert hand.result is not None
    return {
        "table_id": info.id,
        "seed": wall.seed,
        "commitment": wall.commitment,
        "actions": [a.to_json() for a in hand.actions],
        "result": {
            **hand.result.public_json(hand),
            "salt": wall.salt,
            "hand_no": hand_no,
            "dealer": hand.dealer,
            "round_wind": hand.round_wind,
            "dealer_streak": hand.dealer_streak,
            "first_commitment": first_commitment or wall.commitment,
            "first_dealer": draw_first_dealer(first_commitment or wall.commitment, hand.variant.n_seats),
            "options": hand.options,
        },
    }


class DatabaseSettler:
    """``serial``: one settlement at a time in this process (SQLite has one writer anyway; queueing here
    keeps waiting settlements off the database's busy-timeout and out of its worker threads).

    On Postgres (asyncpg) a practice or tournament hand, which moves nothing, is one statement on a
    connection kept between hands (``record_practice_hand``): about a quarter of the session path's CPU
    (bench/settle_bench.py).  Coin hands always take ``settle_hand``'s transaction.
    """

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], attempts: int = 3,
                 serial: bool = False, lock: asyncio.Lock | None = None, retry_seconds: float = RETRY_SECONDS) -> None:
        self.sessionmaker = sessionmaker
        self.attempts = attempts
        self.retry_seconds = retry_seconds
        self.lock: Any = lock or (asyncio.Lock() if serial else contextlib.nullcontext())
        engine = sessionmaker.kw.get("bind")
        self.connections = (HeldConnections(engine) if isinstance(engine, AsyncEngine)
                            and engine.dialect.driver == "asyncpg" else None)

    async def close(self) -> None:
        """Give back the connections kept for practice hands (at shutdown)."""
        if self.connections is not None:
            await self.connections.close()

    async def __call__(self, info: TableInfo, hand_key: str, hand: HandState, wall: WallSeed,
                       hand_no: int, *, first_commitment: str | None = None) -> Settlement | None:
        assert hand.result is not None
        record = hand_record(info, hand, wall, hand_no, first_commitment=first_commitment)
        seats = [None if seat in info.bots else uid for seat, uid in enumerate(info.seats)]
        practice = info.practice or info.tournament_game_id is not None
        started, kind = time.perf_counter(), info.kind.value
        for attempt in range(1, self.attempts + 1):
            try:
                if practice and self.connections is not None:
                    async with self.connections.driver() as driver:
                        settled = await record_practice_hand(driver, practice_hand(
                            hand_key=hand_key, seats=seats, payments=hand.result.score.payments,
                            variant=info.variant.value, record=record, winners=hand.result.winners))
                else:
                    async with self.lock, self.sessionmaker() as session:
                        settled = await settle_hand(
                            session, hand_key=hand_key, room=ROOMS[info.room] if info.room else None,
                            seats=seats, payments=hand.result.score.payments, variant=info.variant.value,
                            record=record, winners=hand.result.winners, practice=practice)
                metrics.hand_settled(time.perf_counter() - started, info.variant.value, kind,
                                     metrics.outcome(hand.result))
                log.info("hand settled", extra={"table_id": info.id, "hand_no": hand_no, "hand_id": settled.hand_id})
                return settled
            except Exception:
                log.exception("table %s: settling hand %s failed (attempt %d/%d)",
                              info.id, hand_key, attempt, self.attempts)
                if attempt < self.attempts:
                    await asyncio.sleep(self.retry_seconds * 2 ** (attempt - 1))
        metrics.hand_voided(info.variant.value, kind)
        log.critical("table %s: hand %s voided: it could not be settled", info.id, hand_key)
        return None
