"""What the console, the director and the command line read of tournaments: standings, games, the list, what is
due, the money report.  Nothing here changes a tournament (``app.tournaments.service`` does)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import LedgerEntry, Tournament, TournamentEntry, TournamentGame, User
from app.tournaments.service import FEE, GUARANTEE, PRIZE, REFUND, aware, get, now, summary
from app.tournaments.spec import TournamentState


async def standings(session: AsyncSession, tournament_id: int) -> list[dict[str, Any]]:
    """Registered players, best first: points, and after the end place and prize."""
    rows = await session.execute(
        select(TournamentEntry, User.username).join(User, User.id == TournamentEntry.user_id)
        .where(TournamentEntry.tournament_id == tournament_id, TournamentEntry.active.is_(True))
        .execution_options(populate_existing=True))
    ranked = sorted(rows.all(), key=lambda r: (r[0].disqualified, -r[0].points, r[0].id))
    return [{"user_id": e.user_id, "username": name, "points": e.points, "place": e.place, "prize": e.prize,
             "disqualified": e.disqualified} for e, name in ranked]


async def games(session: AsyncSession, tournament_id: int) -> list[TournamentGame]:
    return list(await session.scalars(
        select(TournamentGame).where(TournamentGame.tournament_id == tournament_id)
        .order_by(TournamentGame.round, TournamentGame.table_no).execution_options(populate_existing=True)))


async def list_all(session: AsyncSession, *, state: str | None = None, limit: int = 100) -> list[Tournament]:
    query = select(Tournament)
    if state is not None:
        query = query.where(Tournament.state == state)
    return list(await session.scalars(query.order_by(Tournament.id.desc()).limit(limit)))


async def due(session: AsyncSession) -> list[Tournament]:
    """Tournaments whose next step is due now: scheduled ones past opens_at, registering ones past
    starts_at, and every running one (its tables may need starting, e.g. after a restart)."""
    moment = now()
    rows = await session.scalars(select(Tournament).where(Tournament.state.in_(
        [TournamentState.SCHEDULED, TournamentState.REGISTERING, TournamentState.RUNNING])))
    out = []
    for t in rows:
        if t.state == TournamentState.SCHEDULED and t.opens_at is not None and aware(t.opens_at) <= moment or t.state == TournamentState.RUNNING or (
                t.state == TournamentState.REGISTERING and aware(t.starts_at) <= moment):
            out.append(t)
    await session.commit()
    return out


async def money_report(session: AsyncSession, tournament_id: int) -> dict[str, Any]:
    """The tournament's money: fees, refunds, guarantee, prizes and the pool's balance (0 at the end).
    ``balanced`` is True when everything that went into the pool came out or is still in it."""
    tournament = await get(session, tournament_id)
    rows = await session.execute(
        select(LedgerEntry.reason, func.sum(LedgerEntry.delta)).where(
            LedgerEntry.user_id == tournament.pool_user_id).group_by(LedgerEntry.reason))
    flows = {reason: int(total) for reason, total in rows.all()}
    pool = await session.get(User, tournament.pool_user_id, populate_existing=True)
    assert pool is not None
    everything = await session.scalar(select(func.sum(LedgerEntry.delta)).where(
        LedgerEntry.idempotency_key.like(f"tourney:{tournament_id}:%")))
    await session.commit()
    return {
        **summary(tournament), "pool": pool.coins, "fees_in": flows.get(FEE, 0),
        "refunds_out": -flows.get(REFUND, 0), "guarantee_net": flows.get(GUARANTEE, 0),
        "prizes_out": -flows.get(PRIZE, 0),
        "balanced": sum(flows.values()) == pool.coins and int(everything or 0) == 0,
    }
