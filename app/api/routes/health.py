"""Liveness and readiness (Kubernetes' probe conventions).

``/healthz`` (liveness) says the process runs and serves: it looks at nothing else, so a database or Redis
outage never gets a healthy process restarted.  ``/readyz`` (readiness) says whether to send it traffic: it
checks the database and, when ``REDIS_URL`` is set, Redis, each within ``READY_CHECK_SECONDS``, and names
each in its body; 503 when one is down (docs/operations.md, "Redis is unreachable").
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app import metrics
from app.api.deps import StateDep

router = APIRouter(tags=["health"])

# Each dependency's check in /readyz: one slower than this counts as unreachable (docs/operations.md).
READY_CHECK_SECONDS = 2.0


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: 200 while the process runs.  It checks no dependency (``/readyz`` does)."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(state: StateDep) -> JSONResponse:
    """Readiness: 200 when the database and (when configured) Redis answer, else 503; the body names each
    (``"ok"`` or ``"unreachable"``)."""
    checks = {"database": await _check(_database(state))}
    if state.redis is not None:
        checks["redis"] = await _check(state.redis.ping())
        metrics.REDIS_UNREACHABLE.set(0 if checks["redis"] == "ok" else 1)
    ready = all(v == "ok" for v in checks.values())
    return JSONResponse({"status": "ok" if ready else "unavailable", **checks}, status_code=200 if ready else 503)


async def _database(state: Any) -> None:
    async with state.engine.connect() as connection:
        await connection.execute(text("SELECT 1"))


async def _check(probe: Any) -> str:
    try:
        await asyncio.wait_for(probe, READY_CHECK_SECONDS)
    except Exception:  # any failure means "not ready"; the body says which dependency
        return "unreachable"
    return "ok"
