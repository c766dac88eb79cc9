from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.api.deps import StateDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(state: StateDep) -> JSONResponse:
    """200 when the app can reach its database (the container HEALTHCHECK and load balancers use this)."""
    try:
        async with state.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception:
        return JSONResponse({"status": "unavailable", "database": "unreachable"}, status_code=503)
    return JSONResponse({"status": "ok"})
