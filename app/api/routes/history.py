"""Your finished hands, your stats and the title ladder, and the 積分 leaderboards (app.services.history)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel

from app.api.deps import CurrentUser, SessionDep
from app.services import history

router = APIRouter(prefix="/api", tags=["history"])


class LeaderOut(BaseModel):
    rank: int
    user_id: int
    username: str
    rank_points: int


@router.get("/me/hands")
async def my_hands(user: CurrentUser, session: SessionDep,
                   limit: Annotated[int, Query(ge=1, le=history.HISTORY_LIMIT)] = history.HISTORY_LIMIT,
                   ) -> list[dict[str, Any]]:
    """Your finished hands, newest first: date, table, variant, result, points and coins."""
    return [history.hand_summary(h, user.id) for h in await history.player_hands(session, user.id, limit)]


@router.get("/me/stats")
async def my_stats(user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """Hands, wins, deal-ins, average 台, biggest hand, and your place on the title ladder."""
    return await history.player_stats(session, user)


@router.get("/leaderboard")
async def leaderboard(session: SessionDep, period: Literal["week", "all"] = "week") -> list[LeaderOut]:
    """The top players by 積分: earned this week (since Monday 00:00 UTC) or all time."""
    leaders = await history.leaderboard(session, period, datetime.now(UTC))
    return [LeaderOut(rank=i + 1, user_id=x.user_id, username=x.username, rank_points=x.rank_points)
            for i, x in enumerate(leaders)]
