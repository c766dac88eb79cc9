"""The server processes (伺服器進程), for admins: list them with the tables each owns, drain one.

A drain (``POST /api/admin/processes/{id}/drain``, or ``python -m app process drain ID``) makes the process
open no new table, hand its waiting tables to another process and let its playing games finish; it shows as
draining until it is stopped.  Audited as ``process.drain``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request

from app.api.deps import AdminUser, SessionDep
from app.core.db import begin_write
from app.schemas_admin import ReasonIn
from app.schemas_cluster import ProcessOut
from app.services import audit
from app.tables.cluster.processes import list_processes, request_drain

router = APIRouter(prefix="/api/admin", tags=["admin"])
ProcessId = Annotated[str, Path(pattern=r"^[0-9A-Za-z_.-]{1,64}$", description="a process id")]


@router.get("/processes")
async def read_processes(_admin: AdminUser, request: Request) -> list[ProcessOut]:
    """Every live process, oldest first: address, pid, version, start and heartbeat times, the tables it owns,
    its open sockets, and whether it is draining (from the heartbeats in Redis; one process alone without)."""
    return [ProcessOut.model_validate(card) for card in await list_processes(request.app.state.table_runtime)]


@router.post("/processes/{process_id}/drain")
async def drain_process(admin_user: AdminUser, session: SessionDep, request: Request, process_id: ProcessId,
                        body: ReasonIn) -> ProcessOut:
    """Drain a process without restarting it: it opens no new table, hands its waiting tables to another
    process and lets its playing games finish (another process's within a heartbeat).  404
    process_not_found for no live process of that id.  Audited."""
    card = await request_drain(request.app.state.table_runtime, process_id)
    await begin_write(session)
    audit.record(session, actor_id=admin_user.id, action="process.drain", target_type="process",
                 target_id=process_id, before={"tables": len(card["tables"])}, after={"draining": True},
                 reason=body.reason.strip())
    await session.commit()
    return ProcessOut.model_validate(card)
