"""``python -m app tournament create|list|show|start|cancel|report``: the operator API from a shell.

Acts through the same service as the API, as the command line (audit entries with no actor).  ``start``
seats round 1 in the database; the server process's director launches the tables on its next tick.
Prints JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
from datetime import datetime
from typing import Any

from app.core.config import get_settings
from app.core.db import make_engine, make_sessionmaker, migrate
from app.services.errors import ServiceError
from app.tournaments import service
from app.tournaments.director import describe
from app.tournaments.spec import TournamentSpec


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("tournament", help="create, list, show, start, cancel or report tournaments")
    actions = parser.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a tournament (registration opens at once unless --opens-at)")
    create.add_argument("--name", required=True)
    create.add_argument("--room", required=True, help="beginner, intermediate or advanced")
    create.add_argument("--variant", required=True, help="tiantai, taipao or taiwan")
    create.add_argument("--starts-at", required=True, type=datetime.fromisoformat, help="ISO time")
    create.add_argument("--opens-at", type=datetime.fromisoformat, default=None, help="ISO time")
    create.add_argument("--fee", type=int, required=True, help="entry fee in coins")
    create.add_argument("--players", type=int, required=True, help="player limit (a multiple of the table size)")
    create.add_argument("--rounds", type=int, default=1)
    create.add_argument("--hands", type=int, default=None, help="hands per round (default: a whole game)")
    create.add_argument("--split", required=True, help="prize percentages per place, e.g. 50,30,20")
    create.add_argument("--guarantee", type=int, default=0, help="coins the house adds to the pool")
    create.add_argument("--option", action="append", default=[], metavar="NAME=JSON", help="a table option")
    listing = actions.add_parser("list", help="newest first")
    listing.add_argument("--state", default=None)
    for name in ("show", "start", "report"):
        actions.add_parser(name).add_argument("id", type=int)
    cancel = actions.add_parser("cancel", help="refund every fee, exactly once")
    cancel.add_argument("id", type=int)
    cancel.add_argument("--reason", required=True)


def _options(pairs: list[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, _, raw = pair.partition("=")
        options[name] = json.loads(raw)
    return options


async def _run(args: argparse.Namespace) -> Any:
    engine = make_engine(get_settings().database_url)
    try:
        await migrate(engine)
        async with make_sessionmaker(engine)() as session:
            if args.action == "create":
                spec = TournamentSpec(
                    name=args.name, room=args.room, variant=args.variant, starts_at=args.starts_at,
                    opens_at=args.opens_at, entry_fee=args.fee, player_limit=args.players, rounds=args.rounds,
                    hands_per_round=args.hands, prize_split=[int(p) for p in args.split.split(",")],
                    guarantee=args.guarantee, options=_options(args.option))
                return await describe(session, (await service.create(session, spec, actor_id=None)).id)
            if args.action == "list":
                return [service.summary(t) for t in await service.list_all(session, state=args.state)]
            if args.action == "show":
                return await describe(session, args.id)
            if args.action == "start":
                await service.start(session, args.id, rng=random.Random(secrets.randbits(128)))
                return await describe(session, args.id)
            if args.action == "cancel":
                await service.cancel(session, args.id, actor_id=None, reason=args.reason)
                return await describe(session, args.id)
            return await service.report(session, args.id)
    finally:
        await engine.dispose()


def main(args: argparse.Namespace) -> int:
    try:
        result = asyncio.run(_run(args))
    except (ServiceError, ValueError) as exc:
        print(json.dumps({"error": getattr(exc, "message", str(exc)),
                          "code": getattr(getattr(exc, "code", None), "value", "invalid_input")}))
        return 1
    print(json.dumps(result, ensure_ascii=False, indent=2, default=str))
    return 0
