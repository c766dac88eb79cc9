"""Exports (issue 35 item 5): the ledger and the audit log as CSV, filtered by time and account, streamed.

Admins only.  The body is streamed a page of rows at a time (app.services.exports), so a year of rows
takes the memory of one page.  The columns are documented in docs/operations.md ("Exports").
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from app.api.deps import ID_MAX, AdminUser, StateDep
from app.services import exports
from app.services.errors import InvalidInput

router = APIRouter(prefix="/api/admin/export", tags=["admin"])

Since = Annotated[datetime | None, Query(description="rows created at or after this instant (ISO 8601, with a zone)")]
Until = Annotated[datetime | None, Query(description="rows created before this instant (ISO 8601, with a zone)")]
Account = Annotated[int | None, Query(ge=1, le=ID_MAX, description="only rows of this account")]
CSV: dict[int | str, dict[str, Any]] = {200: {"content": {"text/csv": {}}, "description": "CSV (RFC 4180), a header row first"}}


def _filter(since: datetime | None, until: datetime | None, user_id: int | None) -> exports.ExportFilter:
    for name, moment in (("since", since), ("until", until)):
        if moment is not None and moment.tzinfo is None:
            raise InvalidInput(f"{name} needs a time zone (e.g. 2026-12-01T00:00:00Z)", field=name, reason="timezone")
    if since is not None and until is not None and until <= since:
        raise InvalidInput("until must be after since", field="until", reason="order")
    return exports.ExportFilter(since=since, until=until, user_id=user_id)


def _csv(body: object, name: str) -> StreamingResponse:
    return StreamingResponse(body, media_type="text/csv; charset=utf-8",  # type: ignore[arg-type]
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/ledger.csv", response_class=StreamingResponse, responses=CSV)
async def export_ledger(_admin: AdminUser, state: StateDep, since: Since = None, until: Until = None,
                        user_id: Account = None) -> StreamingResponse:
    """Every ledger entry in the period (of one account if ``user_id``), oldest first."""
    where = _filter(since, until, user_id)
    return _csv(exports.ledger_csv(state.sessionmaker, where), "ledger.csv")


@router.get("/audit.csv", response_class=StreamingResponse, responses=CSV)
async def export_audit(_admin: AdminUser, state: StateDep, since: Since = None, until: Until = None,
                       user_id: Account = None) -> StreamingResponse:
    """Every audit entry in the period (done by or to one account if ``user_id``), oldest first."""
    where = _filter(since, until, user_id)
    return _csv(exports.audit_csv(state.sessionmaker, where), "audit.csv")
