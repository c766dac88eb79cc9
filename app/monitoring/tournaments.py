"""Tournaments by state and their entrants, counted from the database by the director's tick (every
process's director counts the same rows: dashboards take the ``max`` over processes)."""

from __future__ import annotations

import time

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import metrics
from app.models import Tournament, TournamentEntry


async def refresh(session: AsyncSession) -> None:
    """Set ``mahjong_tournaments{state}`` and ``mahjong_tournament_entrants{state}`` from the database."""
    counts = dict((await session.execute(select(Tournament.state, func.count()).group_by(Tournament.state))).all())
    entrants = dict((await session.execute(
        select(Tournament.state, func.count(TournamentEntry.id))
        .join(TournamentEntry, TournamentEntry.tournament_id == Tournament.id)
        .where(TournamentEntry.active.is_(True)).group_by(Tournament.state))).all())
    for state in metrics.TOURNAMENT_STATES:
        metrics.TOURNAMENTS_BY[state].set(counts.get(state, 0))
        metrics.ENTRANTS_BY[state].set(entrants.get(state, 0))


def ticked() -> None:
    """The director finished a tick (the "no tournament director" alert watches this)."""
    metrics.DIRECTOR_TICK.set(time.time())
