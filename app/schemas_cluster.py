"""Request and response bodies of the cluster's admin endpoints (app/api/routes/admin_cluster.py)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ProcessOut(BaseModel):
    """One live server process (伺服器進程), from its heartbeat (app.tables.cluster.processes)."""

    id: str = Field(description="the process id: host, pid and a random tail")
    address: str | None = Field(description="host:port it serves on; null for a heartbeat without a card")
    pid: int | None
    version: str | None = Field(description="the server's version")
    started_at: float | None = Field(description="when it started, Unix seconds")
    heartbeat_at: float | None = Field(description="its last heartbeat, Unix seconds")
    tables: list[str] = Field(description="the ids of the tables it owns")
    sockets: int | None = Field(description="its open WebSockets (lobby, seats, spectators)")
    draining: bool = Field(description="it opens no new table (an operator's drain, or a restart)")
