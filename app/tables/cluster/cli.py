"""``python -m app process list|drain ID --reason TEXT``: the server processes from a shell (issue 35).

``list`` prints every live process's card (as ``GET /api/admin/processes``); ``drain`` writes the process's
drain request to Redis, where it reads it at its next heartbeat (``app.tables.cluster.processes``), and
records the act in the audit log as the command line.  Both need ``REDIS_URL``: without Redis there is one
process, drained through its API.  Prints JSON; exit status 1 when the process is unknown or Redis unset.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from redis.asyncio import Redis

from app.core.config import get_settings
from app.core.db import begin_write, make_engine, make_sessionmaker
from app.services import audit
from app.tables.cluster.processes import cards_in, write_drain_request


def add_parser(commands: Any) -> None:
    process = commands.add_parser("process", help="list the server processes, drain one (needs REDIS_URL)")
    acts = process.add_subparsers(dest="act", required=True)
    acts.add_parser("list", help="every live process: address, version, tables, sockets, draining")
    drain = acts.add_parser("drain", help="the process opens no new table; its games finish (audited)")
    drain.add_argument("process_id")
    drain.add_argument("--reason", required=True, help="recorded in the audit log")


def main(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    settings = get_settings()
    if not settings.redis_url:
        print(json.dumps({"error": "REDIS_URL is not set: one process alone; drain it through its API"}))
        return 1
    redis = Redis.from_url(str(settings.redis_url))
    try:
        cards = await cards_in(redis, settings.redis_prefix)
        if args.act == "list":
            print(json.dumps(cards, ensure_ascii=False, indent=2))
            return 0
        card = next((c for c in cards if c["id"] == args.process_id), None)
        if card is None:
            print(json.dumps({"error": "no such live server process", "code": "process_not_found"}))
            return 1
        await write_drain_request(redis, settings.redis_prefix, args.process_id)
    finally:
        await redis.aclose()
    await _audit(settings.database_url, args.process_id, len(card.get("tables") or []), args.reason)
    print(json.dumps({**card, "draining": True}, ensure_ascii=False, indent=2))
    return 0


async def _audit(database_url: str, process_id: str, tables: int, reason: str) -> None:
    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            await begin_write(session)
            audit.record(session, actor_id=None, action="process.drain", target_type="process",
                         target_id=process_id, before={"tables": tables}, after={"draining": True},
                         reason=reason.strip())
            await session.commit()
    finally:
        await engine.dispose()
