"""Operator and admin acts on live tables: list them, close one, carry a freeze to a seated account.

The registry and the table actors are in memory (this process); the audit entry for each act is written
by the caller's service session (``app.api.routes.operator``, ``admin``).  With several processes
(``app.tables.cluster.cluster``) the list asks every process that owns tables, and a close or a freeze for a table
owned elsewhere runs on its owner (``ClusterRuntime.call``); ``here=True`` is that owner's side.
"""

from __future__ import annotations

import asyncio
from typing import Any

from app.services.errors import Conflict, ErrorCode, NotFound
from app.tables.cluster.directory import raise_payload
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.play.commands import Freeze
from app.tables.registry import TableRegistry, TableStatus


def live_tables(registry: TableRegistry, runtime: ProcessRuntime | None) -> list[dict[str, Any]]:
    """Every table of this process, practice ones included, with its actor's hand number and inbox depth."""
    rows = []
    for table in registry.all_tables():
        actor = runtime.actors.get(table.id) if runtime is not None else None
        rows.append({
            **table.public(),
            "hand_no": actor.flow.hand_no if actor else None,
            "inbox": actor.inbox.qsize() if actor else 0,
        })
    return rows


def _cluster(runtime: ProcessRuntime | None) -> Any:
    """The cluster runtime when several processes run, else None."""
    return runtime if runtime is not None and getattr(runtime, "active", False) else None


async def live_tables_everywhere(registry: TableRegistry, runtime: ProcessRuntime | None) -> list[dict[str, Any]]:
    """``live_tables`` of this process and of every other process that owns a table."""
    rows = live_tables(registry, runtime)
    cluster = _cluster(runtime)
    if cluster is None:
        return rows
    owners = {e["owner"] for e in await cluster.directory.entries()} - {cluster.process_id}
    replies = await asyncio.gather(*(cluster.call(o, "live_tables", timeout=3.0) for o in sorted(owners)),
                                   return_exceptions=True)
    seen = {row["id"] for row in rows}
    for reply in replies:
        if isinstance(reply, dict) and reply.get("ok"):
            rows += [row for row in reply["result"] if row["id"] not in seen]
    return rows


async def _forward(runtime: ProcessRuntime | None, owner: str | None, op: str, **args: Any) -> Any:
    cluster = _cluster(runtime)
    if cluster is None or owner is None or owner == cluster.process_id:
        return None
    reply = await cluster.call(owner, op, **args)
    if not reply.get("ok"):
        raise_payload(reply.get("error") or {})
    return reply.get("result")


async def close_table(registry: TableRegistry, table_id: str, *, force: bool, runtime: ProcessRuntime | None = None,
                      here: bool = False) -> dict[str, Any]:
    """Remove a table (its actor stops; a hand in progress is not settled, so no coins move — a void).

    Without ``force`` only an empty or waiting table is closed; a playing one needs ``force`` (stuck).
    Returns the table as it was.  Raises NotFound, Conflict.
    """
    cluster = _cluster(runtime)
    if not here and cluster is not None and not registry.is_open(table_id):
        found = await cluster.directory.entry(table_id)
        if found is None:
            raise NotFound("no such table", ErrorCode.TABLE_NOT_FOUND, table_id=table_id)
        return await _forward(runtime, found["owner"], "close_table", table_id=table_id,  # type: ignore[no-any-return]
                              force=force)
    table = registry.get(table_id)
    if table.status == TableStatus.PLAYING and not force:
        raise Conflict("the table is playing; close it with force=true only if it is stuck", ErrorCode.TABLE_PLAYING,
                       table_id=table_id)
    await registry.remove(table_id)
    return table.public()


async def apply_freeze(registry: TableRegistry, runtime: ProcessRuntime | None, user_id: int, *,
                       here: bool = False) -> str | None:
    """Carry a freeze to the account's seat, if any: stand up from a waiting table at once; at a running
    one the actor plays the seat on 托管 to the end of the game (docs/rules/rooms.md#frozen F-10).  Returns
    the table id it was seated at."""
    table_id = registry.table_of(user_id)
    cluster = _cluster(runtime)
    if table_id is None and not here and cluster is not None:  # seated at a table another process owns
        found = await cluster.directory.table_of(user_id)
        entry = await cluster.directory.entry(found[0]) if found else None
        if entry is not None:
            return await _forward(runtime, entry["owner"], "freeze", user_id=user_id)  # type: ignore[no-any-return]
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
