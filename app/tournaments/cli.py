"""``python -m app tournament create|list|show|start|cancel|report``: the operator API from a shell.

Acts through the same service as the API, as the command line (audit entries with no actor).  ``start``
seats round 1 in the database; the server process's director launches the tables on its next tick.
Prints JSON.  A bad argument is a usage error like argparse's own: one line on stderr naming the option and
what it allows, exit status 2, never a traceback.  A refusal of the service (a tournament that cannot be
cancelled any more …) prints ``{"error", "code"}`` and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
from datetime import datetime
from typing import Any

from app.core.config import get_settings
from app.core.db import make_engine, make_sessionmaker, migrate
from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.services.errors import InvalidInput, ServiceError
from app.tournaments import queries, service
from app.tournaments.director import tournament_view
from app.tournaments.spec import TournamentSpec, TournamentState
from engine.options import option_table
from engine.variants.base import Option

# TournamentSpec's fields (and validate's field names) → the option that sets them
OPTION_OF = {"name": "--name", "room": "--room", "variant": "--variant", "starts_at": "--starts-at",
             "opens_at": "--opens-at", "entry_fee": "--fee", "player_limit": "--players", "rounds": "--rounds",
             "hands_per_round": "--hands", "prize_split": "--split", "places_paid": "--split",
             "guarantee": "--guarantee", "options": "--option"}


class UsageError(Exception):
    """A bad command-line argument: ``option`` and what it allows."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option


def iso_time(text: str) -> datetime:
    """An ISO 8601 time (``2030-01-01T12:00:00+00:00``; without an offset it is UTC)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO time like 2030-01-01T12:00:00+00:00") from None


def percentages(text: str) -> list[int]:
    """``50,30,20``: whole percentages per place, comma-separated."""
    parts = [p.strip() for p in text.split(",")]
    bad = [p for p in parts if not p.isdigit()]
    if bad:
        raise argparse.ArgumentTypeError(f"{bad[0]!r} is not a whole percentage: give whole percentages per "
                                         "place separated by commas, summing to 100 (e.g. 50,30,20)")
    return [int(p) for p in parts]


def option_pair(text: str) -> tuple[str, str]:
    """``NAME=JSON`` (the JSON is read once the variant is known, to name the option's allowed values)."""
    name, equals, raw = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE (e.g. --option rounds=2)")
    return name.strip(), raw


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("tournament", help="create, list, show, start, cancel or report tournaments")
    actions = parser.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a tournament (registration opens at once unless --opens-at)")
    create.add_argument("--name", required=True)
    create.add_argument("--room", required=True, choices=[r.value for r in RoomKey])
    create.add_argument("--variant", required=True, choices=[v.value for v in VariantKey])
    create.add_argument("--starts-at", required=True, type=iso_time, help="ISO time")
    create.add_argument("--opens-at", type=iso_time, default=None, help="ISO time")
    create.add_argument("--fee", type=int, required=True, help="entry fee in coins")
    create.add_argument("--players", type=int, required=True, help="player limit (a multiple of the table size)")
    create.add_argument("--rounds", type=int, default=1)
    create.add_argument("--hands", type=int, default=None, help="hands per round (default: a whole game)")
    create.add_argument("--split", required=True, type=percentages,
                        help="prize percentages per place, e.g. 50,30,20")
    create.add_argument("--guarantee", type=int, default=0, help="coins the house adds to the pool")
    create.add_argument("--option", action="append", default=[], type=option_pair, metavar="NAME=JSON",
                        help="a table option (docs/options.md), e.g. rounds=2 or cap=200")
    listing = actions.add_parser("list", help="newest first")
    listing.add_argument("--state", default=None, choices=[s.value for s in TournamentState])
    for name in ("show", "start", "report"):
        actions.add_parser(name).add_argument("id", type=int)
    cancel = actions.add_parser("cancel", help="refund every fee, exactly once")
    cancel.add_argument("id", type=int)
    cancel.add_argument("--reason", required=True)


def _options(variant: str, pairs: list[tuple[str, str]]) -> dict[str, Any]:

    table = option_table(variant)
    options = {}
    for name, raw in pairs:
        if name not in table:
            raise UsageError("--option", f"unknown option {name!r} for {variant}; options: {', '.join(table)}")
        try:
            options[name] = json.loads(raw)
        except ValueError:
            raise UsageError("--option", f"{name}={raw}: the value must be JSON; {name} takes "
                             f"{_allowed(table[name])}") from None
    return options


def _allowed(option: Option) -> str:
    """What an option takes, in words: its choices, its range, or its type."""
    bounds = option.bounds()
    if "choices" in bounds:
        return "one of " + ", ".join(json.dumps(c) for c in bounds["choices"])
    if "minimum" in bounds:
        return f"{option.type_name} from {bounds['minimum']} to {bounds['maximum']}"
    return option.type_name


async def _run(args: argparse.Namespace) -> Any:
    engine = make_engine(get_settings().database_url)
    try:
        await migrate(engine)
        async with make_sessionmaker(engine)() as session:
            if args.action == "create":
                spec = TournamentSpec(
                    name=args.name, room=args.room, variant=args.variant, starts_at=args.starts_at,
                    opens_at=args.opens_at, entry_fee=args.fee, player_limit=args.players, rounds=args.rounds,
                    hands_per_round=args.hands, prize_split=args.split,
                    guarantee=args.guarantee, options=_options(args.variant, args.option))
                return await tournament_view(session, (await service.create(session, spec, actor_id=None)).id)
            if args.action == "list":
                return [service.summary(t) for t in await queries.list_all(session, state=args.state)]
            if args.action == "show":
                return await tournament_view(session, args.id)
            if args.action == "start":
                await service.start(session, args.id, rng=random.Random(secrets.randbits(128)))
                return await tournament_view(session, args.id)
            if args.action == "cancel":
                await service.cancel(session, args.id, actor_id=None, reason=args.reason)
                return await tournament_view(session, args.id)
            return await queries.money_report(session, args.id)
    finally:
        await engine.dispose()


def main(args: argparse.Namespace) -> int:
    try:
        result = asyncio.run(_run(args))
    except UsageError as exc:
        return _usage(args, str(exc))
    except InvalidInput as exc:  # the spec's checks name the field: say it as the option that sets it
        field = str(exc.params.get("field", "")).split(".")[0]
        if field in OPTION_OF:
            return _usage(args, f"{OPTION_OF[field]}: {exc.message}")
        return _usage(args, exc.message)
    except ServiceError as exc:
        print(json.dumps({"error": exc.message, "code": exc.code.value}))
        return 1
    except ValueError as exc:  # any other value the service refused: still a usage error, not a traceback
        return _usage(args, str(exc))
    print(json.dumps(result, ensure_ascii=False, indent=2, default=str))
    return 0


def _usage(args: argparse.Namespace, message: str) -> int:
    """argparse's way: ``usage error`` on stderr and exit status 2."""
    print(f"python -m app tournament {args.action}: error: {message}", file=sys.stderr)
    return 2
