from __future__ import annotations

from fastapi import APIRouter

from app.api.routes import (
    admin,
    auth,
    exports,
    games,
    hands,
    health,
    history,
    me,
    metrics,
    moderation,
    operator,
    quickplay,
    rooms,
    schedules,
    sessions,
    tables,
    tournaments,
)

api_router = APIRouter()
for module in (health, metrics, auth, sessions, me, history, games, rooms, quickplay, tables, admin, operator, tournaments,
               hands):
    api_router.include_router(module.router)
for module in (moderation, exports, schedules):  # issue 35 items 4, 5 and 6
    api_router.include_router(module.router)
api_router.include_router(tournaments.operator_router)
