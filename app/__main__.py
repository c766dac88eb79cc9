"""Command line.

    python -m app                  serve on HOST:PORT (default 127.0.0.1:8000), migrating first
    python -m app migrate          apply database migrations and exit
    python -m app tournament create|list|show|start|cancel|report ...   (app.tournaments.cli)
    python -m app process list|drain ID --reason TEXT   the server processes (app.tables.cluster.cli)
    python -m app make-admin NAME [--reason TEXT]
                                   make an existing account an admin (audited; the only way to the first admin)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from pydantic import ValidationError

from app.core.config import get_settings
from app.core.db import make_engine, make_sessionmaker, migrate
from app.core.preflight import EXIT_CONFIG, StartupError, check_database, check_services, settings_error
from app.services.accounts import get_user_by_username
from app.services.roles import Role, set_role
from app.tables.cluster import cli as process_cli
from app.tournaments import cli as tournament_cli


async def _migrate() -> None:
    engine = make_engine(get_settings().database_url)
    try:
        await migrate(engine)
    finally:
        await engine.dispose()


async def _make_admin(name: str, reason: str) -> int:
    engine = make_engine(get_settings().database_url)
    try:
        await migrate(engine)
        async with make_sessionmaker(engine)() as session:
            user = await get_user_by_username(session, username=name)
            if user is None:
                print(f"no account named {name!r}; register it first", file=sys.stderr)
                return 1
            shown = user.username
            await set_role(session, user_id=user.id, role=Role.ADMIN, actor_id=None, reason=reason)
        print(f"{shown} is an admin")
        return 0
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    """Run a command; a server that cannot start says why in one line (app.core.preflight)."""
    try:
        return _run(argv)
    except (StartupError, ValidationError) as exc:
        if _debug():
            raise
        error = exc if isinstance(exc, StartupError) else settings_error(exc)
        print(f"cannot start: {error} (DEBUG=true shows the traceback)", file=sys.stderr)
        return EXIT_CONFIG


def _debug() -> bool:
    try:
        return get_settings().debug
    except ValidationError:
        return os.environ.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}


def _run(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description="The mahjong server.")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("serve", help="run the server (the default)")
    commands.add_parser("migrate", help="apply database migrations and exit")
    make_admin = commands.add_parser("make-admin", help="make an existing account an admin")
    make_admin.add_argument("name")
    make_admin.add_argument("--reason", default="python -m app make-admin", help="recorded in the audit log")
    tournament_cli.add_parser(commands)
    process_cli.add_parser(commands)
    args = parser.parse_args(argv)

    if args.command == "migrate":
        asyncio.run(check_database(get_settings()))
        asyncio.run(_migrate())
        return 0
    if args.command == "tournament":
        return tournament_cli.main(args)
    if args.command == "process":
        return process_cli.main(args)
    if args.command == "make-admin":
        return asyncio.run(_make_admin(args.name, args.reason))

    from app.core.serve import serve

    # The app migrates at startup (settings.migrate_on_startup), so there is no separate step here;
    # SIGTERM drains the tables (app.core.serve) and the next start resumes them.
    settings = get_settings()
    asyncio.run(check_services(settings))
    serve(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
