from __future__ import annotations

from fastapi import APIRouter

from app.api.routes import (
    admin,
    admin_cluster,
    auth,
    games,
    hands,
    health,
    history,
    me,
    metrics,
    notices,
    operator,
    quickplay,
    rooms,
    sessions,
    tables,
    tournaments,
)

api_router = APIRouter()
for module in (health, metrics, auth, sessions, me, history, games, rooms, quickplay, tables, admin, admin_cluster,
               operator, tournaments,
               hands):
    api_router.include_router(module.router)
api_router.include_router(tournaments.operator_router)
api_router.include_router(notices.router)
api_router.include_router(notices.admin_router)
