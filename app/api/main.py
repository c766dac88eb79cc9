from __future__ import annotations

from fastapi import APIRouter

from app.api.routes import (
    admin,
    admin_cluster,
    auth,
    exports,
    games,
    hands,
    health,
    history,
    me,
    metrics,
    moderation,
    notices,
    operator,
    quickplay,
    rooms,
    schedules,
    sessions,
    tables,
    tournaments,
)

api_router = APIRouter()
for module in (health, metrics, auth, sessions, me, history, games, rooms, quickplay, tables, admin, admin_cluster,
               operator, tournaments,
               hands):
    api_router.include_router(module.router)
for module in (moderation, exports, schedules):  # issue 35 items 4, 5 and 6
    api_router.include_router(module.router)
api_router.include_router(tournaments.operator_router)
api_router.include_router(notices.router)
api_router.include_router(notices.admin_router)
