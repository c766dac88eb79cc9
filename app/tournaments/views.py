"""What a tournament's readers see beyond its rows: live standings and where its money went.

* Live standings (名次, after every hand): a game's points are recorded when its table finishes; until then
  the hands its table has settled count too, read from their hand records (``hands.settlement`` holds each
  seat's ``point_deltas``), so every process shows the same standings after every hand.
* Money: the prizes paid out of the pool and the fees refunded from it, per player, from the pool
  account's ledger entries (a finished tournament's pool is 0 because it was paid out).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Hand, LedgerEntry, Tournament, TournamentGame, User

PRIZE, REFUND = "tournament_prize", "tournament_refund"  # app.tournaments.service's ledger reasons


async def live_points(session: AsyncSession, tournament_id: int) -> Counter[int]:
    """Points per player from the hands already settled at the tables of unfinished games."""
    tables = list(await session.scalars(select(TournamentGame.table_id).where(
        TournamentGame.tournament_id == tournament_id, TournamentGame.finished.is_(False),
        TournamentGame.table_id.is_not(None))))
    points: Counter[int] = Counter()
    if not tables:
        return points
    for seats, settlement in (await session.execute(
            select(Hand.seats, Hand.settlement).where(Hand.table_id.in_(tables)))).all():
        for uid, delta in zip(seats, (settlement or {}).get("point_deltas") or [], strict=False):
            if uid is not None:
                points[uid] += delta
    return points


async def money(session: AsyncSession, tournament: Tournament) -> dict[str, Any]:
    """``paid_out`` (prize coins), ``refunded`` and ``refunds`` (``[{user_id, username, coins}]``)."""
    rows = (await session.execute(
        select(LedgerEntry.reason, func.sum(LedgerEntry.delta)).where(
            LedgerEntry.user_id == tournament.pool_user_id, LedgerEntry.reason.in_([PRIZE, REFUND]))
        .group_by(LedgerEntry.reason))).all()
    flows = {reason: -int(total) for reason, total in rows}
    # a transfer's credit side is keyed "<key>:in" on the payee (app.tournaments.service._move)
    refunds = (await session.execute(
        select(LedgerEntry.user_id, User.username, func.sum(LedgerEntry.delta))
        .join(User, User.id == LedgerEntry.user_id)
        .where(LedgerEntry.reason == REFUND, LedgerEntry.user_id != tournament.pool_user_id,
               LedgerEntry.idempotency_key.like(f"tourney:{tournament.id}:refund:%:in"))
        .group_by(LedgerEntry.user_id, User.username).order_by(User.username))).all()
    return {"paid_out": flows.get(PRIZE, 0), "refunded": flows.get(REFUND, 0),
            "refunds": [{"user_id": uid, "username": name, "coins": int(total)} for uid, name, total in refunds]}
