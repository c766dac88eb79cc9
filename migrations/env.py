"""Alembic environment.

Two ways in: the app calls ``app.core.db.migrate(engine)``, which hands us an open connection in
``config.attributes["connection"]``; the ``alembic`` CLI gives us nothing, and we connect to DATABASE_URL.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from app.core.config import get_settings
from app.core.db import make_engine
from app.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things, so autogenerate writes copy-and-move batch ops,
    # which also run unchanged on Postgres.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def _run_from_settings() -> None:
    engine = make_engine(get_settings().database_url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    # Only the CLI configures logging; inside the app it would clobber uvicorn's loggers.
    if config.config_file_name is not None:
        fileConfig(config.config_file_name)
    asyncio.run(_run_from_settings())


if context.is_offline_mode():
    context.configure(url=get_settings().database_url, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
