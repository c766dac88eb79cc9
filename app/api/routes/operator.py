"""Operator tools on live tables (operators and admins): list every table, close an empty or stuck one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.deps import OperatorUser, RegistryDep, SessionDep, TableId
from app.core.db import begin_write
from app.schemas_admin import CloseTableIn, LiveTableOut
from app.services import audit
from app.tables.cluster.admin import close_table, live_tables_everywhere

router = APIRouter(prefix="/api/operator", tags=["operator"])


@router.get("/tables")
async def list_live_tables(_operator: OperatorUser, registry: RegistryDep, request: Request) -> list[LiveTableOut]:
    """Every table (practice ones too; of every process when several run) with its hand number and actor
    inbox depth."""
    rows = await live_tables_everywhere(registry, request.app.state.table_runtime)
    return [LiveTableOut.model_validate(row) for row in rows]


@router.post("/tables/{table_id}/close")
async def close_live_table(
    operator: OperatorUser, session: SessionDep, registry: RegistryDep, table_id: TableId, body: CloseTableIn,
    request: Request,
) -> dict[str, Any]:
    """Close a table.  A playing one only with ``force`` (it is stuck); its unfinished hand moves no coins."""
    table = await close_table(registry, table_id, force=body.force, runtime=request.app.state.table_runtime)
    await begin_write(session)
    audit.record(session, actor_id=operator.id, action="table.close", target_type="table", target_id=table_id,
                 before={"status": table["status"], "seats": [s["user_id"] for s in table["seats"]]},
                 after={"status": "closed", "force": body.force}, reason=body.reason.strip())
    await session.commit()
    return {"closed": table_id}
