"""The server processes (伺服器進程) seen from any one of them: who is alive, what each owns, which is draining.

Each process's heartbeat (``TableLeases.beat``, every third of a lease) carries its card: its id, address,
pid, version, start and heartbeat times, the tables it owns, its open sockets and whether it is draining.
``GET /api/admin/processes`` lists the cards of every live process (a process without Redis lists itself).

An operator drains a process (``POST /api/admin/processes/{id}/drain``, ``python -m app process drain ID``)
by writing its drain request to Redis, ``{prefix}:drain:{id}``: the process reads it at its next heartbeat
and retires (``ProcessRuntime.retire``): it opens no new table, hands its waiting tables to another live
process and lets its playing games finish.  Its card says ``draining`` until it is stopped.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from app.core.outage import REDIS_ERRORS
from app.services.errors import ErrorCode, NotFound, Unavailable
from app.tables.cluster.directory import info_of
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.registry import TableRegistry, TableStatus

log = logging.getLogger(__name__)

# How long a drain request waits in Redis for its process (one that died before reading it leaves no trace).
DRAIN_REQUEST_SECONDS = 24 * 3600


def server_version() -> str:
    """The installed server's version (pyproject's ``version``), or "unknown" when not installed."""
    try:
        return version("mahjong-server")
    except PackageNotFoundError:
        return "unknown"


def process_card(runtime: ProcessRuntime) -> dict[str, Any]:
    """This process's card: what ``GET /api/admin/processes`` shows of it."""
    state = runtime.state
    tables = [t.id for t in state.registry.all_tables()] if state is not None else []
    port = state.settings.port if state is not None else 0
    return {
        "id": runtime.process_id,
        "address": f"{socket.gethostname()}:{port}",
        "pid": os.getpid(),
        "version": server_version(),
        "started_at": runtime.started_at,
        "heartbeat_at": time.time(),
        "tables": sorted(tables),
        "sockets": sum(state.sockets.users.values()) if state is not None else 0,
        "draining": runtime.draining or runtime.retiring,
    }


def drain_key(prefix: str, process_id: str) -> str:
    return f"{prefix}:drain:{process_id}"


def _cluster(runtime: ProcessRuntime) -> Any:
    """The cluster runtime when several processes can run (Redis), else None."""
    return runtime if getattr(runtime, "active", False) else None


async def list_processes(runtime: ProcessRuntime) -> list[dict[str, Any]]:
    """Every live process's card, oldest first: from the heartbeats in Redis, or this process alone."""
    cluster = _cluster(runtime)
    if cluster is None:
        return [process_card(runtime)]
    try:
        cards = await cards_in(cluster.redis, cluster.prefix)
        entries = await cluster.directory.entries()
    except REDIS_ERRORS as exc:
        raise Unavailable("the processes' heartbeats (Redis) cannot be read; try again") from exc
    # The directory is written at every change of a table, the cards once a heartbeat: its owners are fresher.
    owned: dict[str, list[str]] = {}
    for entry in entries:
        owned.setdefault(entry["owner"], []).append(entry["table"]["id"])
    here = process_card(runtime)
    cards = [c for c in cards if c.get("id") != runtime.process_id] + [here]
    for card in cards:
        card["tables"] = sorted(set(owned.get(card["id"], [])) | ({*card["tables"]} if card is here else set()))
    return sorted(cards, key=lambda c: (c.get("started_at") or 0, c["id"]))


async def request_drain(runtime: ProcessRuntime, process_id: str) -> dict[str, Any]:
    """Ask the process to drain (this one at once, another at its next heartbeat); its card, marked
    draining.  NotFound when no live process has that id."""
    if process_id == runtime.process_id:
        await runtime.retire()
        return process_card(runtime)
    cluster = _cluster(runtime)
    if cluster is not None:
        card = next((c for c in await list_processes(runtime) if c["id"] == process_id), None)
        if card is not None:
            await write_drain_request(cluster.redis, cluster.prefix, process_id)
            return {**card, "draining": True}
    raise NotFound("no such live server process", ErrorCode.PROCESS_NOT_FOUND, process_id=process_id)


async def write_drain_request(redis: Any, prefix: str, process_id: str) -> None:
    """The drain request the process reads at its next heartbeat (``ClusterRuntime.keep_once``)."""
    await redis.set(drain_key(prefix, process_id), "1", ex=DRAIN_REQUEST_SECONDS)


async def cards_in(redis: Any, prefix: str) -> list[dict[str, Any]]:
    """The cards of the live processes, read straight from Redis (the command line has no runtime)."""
    cards = []
    async for key in redis.scan_iter(match=f"{prefix}:proc:*", count=200):
        raw = await redis.get(key)
        if raw is not None:
            cards.append(card_from(key, raw, prefix))
    return sorted(cards, key=lambda c: (c.get("started_at") or 0, c["id"]))


def card_from(key: bytes | str, raw: bytes | str, prefix: str) -> dict[str, Any]:
    """A heartbeat's card; a heartbeat without one (an older server during a rolling deploy) gives its id only."""
    name = key.decode() if isinstance(key, bytes) else key
    process_id = name[len(f"{prefix}:proc:"):]
    try:
        card = json.loads(raw)
    except ValueError:
        card = None
    if not isinstance(card, dict):
        return {"id": process_id, "address": None, "pid": None, "version": None, "started_at": None,
                "heartbeat_at": None, "tables": [], "sockets": None, "draining": False}
    return {**card, "id": process_id}


async def hand_over_waiting_tables(cluster: Any) -> int:
    """Hand every waiting table (no game started) of a retiring ``ClusterRuntime`` to the live process that
    owns the fewest tables and is not draining; returns how many went.  While no such process lives they
    wait here."""
    registry = cluster.state.registry
    waiting = [t for t in registry.all_tables() if t.status == TableStatus.WAITING]
    if not waiting:
        return 0
    others = [c for c in await cards_in(cluster.redis, cluster.prefix)
              if c["id"] != cluster.process_id and not c.get("draining") and c.get("started_at") is not None]
    if not others:
        return 0
    handed = 0
    for table in waiting:
        target = min(others, key=lambda c: len(c.get("tables") or []))
        try:
            reply = await cluster.call(target["id"], "adopt_table", table=table.public())
        except TimeoutError:
            reply = {"ok": False}
        if reply.get("ok") and registry.is_open(table.id):
            registry.forget(table.id)
            target.setdefault("tables", []).append(table.id)
            handed += 1
        else:
            log.warning("table %s: %s did not take it; it waits here", table.id, target["id"])
    if handed:
        log.info("cluster: handed %d waiting tables to other processes", handed)
    return handed


async def adopt_table(registry: TableRegistry, public: dict[str, Any]) -> None:
    """The receiving side of ``hand_over_waiting_tables``: the table, as its former owner published it."""
    table = info_of(public)
    table.creator = public.get("creator_id")
    await registry.adopt(table)
