from __future__ import annotations

from fastapi import APIRouter

from app.api.routes import admin, auth, health, lobby, me, rooms, tables

api_router = APIRouter()
for module in (health, auth, me, rooms, tables, admin, lobby):
    api_router.include_router(module.router)
