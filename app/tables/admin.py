"""Operator and admin acts on live tables: list them, close one, carry a freeze to a seated account.

The registry and the table actors are in memory (this process); the audit entry for each act is written
by the caller's service session (``app.api.routes.admin_tables``).
"""

from __future__ import annotations

from typing import Any

from app.services.errors import Conflict, ErrorCode
from app.tables.commands import Freeze
from app.tables.registry import TableRegistry, TableStatus
from app.tables.runtime import TableRuntime


def live_tables(registry: TableRegistry, runtime: TableRuntime | None) -> list[dict[str, Any]]:
    """Every table of this process, practice ones included, with its actor's hand number and inbox depth."""
    rows = []
    for table in registry.all_tables():
        actor = runtime.actors.get(table.id) if runtime is not None else None
        rows.append({
            **table.public(),
            "hand_no": actor.hand_no if actor else None,
            "inbox": actor.inbox.qsize() if actor else 0,
        })
    return rows


async def close_table(registry: TableRegistry, table_id: str, *, force: bool) -> dict[str, Any]:
    """Remove a table (its actor stops; a hand in progress is not settled, so no coins move — a void).

    Without ``force`` only an empty or waiting table is closed; a playing one needs ``force`` (stuck).
    Returns the table as it was.  Raises NotFound, Conflict.
    """
    table = registry.get(table_id)
    if table.status == TableStatus.PLAYING and not force:
        raise Conflict("the table is playing; close it with force=true only if it is stuck", ErrorCode.TABLE_PLAYING,
                       table_id=table_id)
    await registry.remove(table_id)
    return table.public()


async def apply_freeze(registry: TableRegistry, runtime: TableRuntime | None, user_id: int) -> str | None:
    """Carry a freeze to the account's seat, if any: stand up from a waiting table at once; at a running
    one the actor plays the seat on 托管 until the hand ends.  Returns the table id it was seated at."""
    table_id = registry.table_of(user_id)
    if table_id is None:
        return None
    actor = runtime.actors.get(table_id) if runtime is not None else None
    if actor is not None and not actor.closed:
        actor.post(Freeze(user_id))
    else:
        table = registry.get(table_id)
        await registry.vacate_seat(table_id, table.seats.index(user_id))
        if not registry.get(table_id).players:
            await registry.remove(table_id)
    return table_id
