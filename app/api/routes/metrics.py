"""GET /metrics: Prometheus text format (app.metrics).  Off with METRICS_ENABLED=false; expose it only on
the operators' network (it says how busy the server is, nothing about any player)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST

from app.api.deps import SettingsDep
from app.monitoring import collector
from app.services.errors import ErrorCode, NotFound

router = APIRouter(tags=["health"])


@router.get("/metrics", response_class=Response)
async def read_metrics(request: Request, settings: SettingsDep) -> Response:
    if not settings.metrics_enabled:
        raise NotFound("metrics are off (METRICS_ENABLED=false)", ErrorCode.NOT_FOUND)
    return Response(collector.render(request.app), media_type=CONTENT_TYPE_LATEST)
