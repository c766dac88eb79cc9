"""Settings, /healthz, OpenAPI, the web/ hook and the migrations themselves."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi import FastAPI
from pydantic import ValidationError
from sqlalchemy import inspect

from app.core.config import PLACEHOLDER_SECRET, PROJECT_ROOT, Settings
from app.core.db import alembic_config, make_engine, migrate
from app.main import create_app
from app.models import Base
from app.web import mount_web


def test_placeholder_secret_is_refused_outside_development(no_env_settings):
    Settings(_env_file=None)  # development: the placeholder is fine
    for environment in ("staging", "production"):
        with pytest.raises(ValidationError, match="SECRET_KEY"):
            Settings(_env_file=None, environment=environment)
        with pytest.raises(ValidationError, match="SECRET_KEY"):
            Settings(_env_file=None, environment=environment, secret_key="short")
        assert Settings(_env_file=None, environment=environment, secret_key="s" * 32).secret_key != PLACEHOLDER_SECRET


def test_settings_from_environment(no_env_settings, monkeypatch):
    defaults = Settings(_env_file=None)
    assert (defaults.host, defaults.port, defaults.redis_url) == ("127.0.0.1", 8000, None)
    assert defaults.database_url == f"sqlite+aiosqlite:///{PROJECT_ROOT / 'var' / 'mahjong.sqlite3'}"
    monkeypatch.setenv("REDIS_URL", "")
    monkeypatch.setenv("PORT", "9000")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@db/mahjong")
    settings = Settings(_env_file=None)
    assert (settings.redis_url, settings.port, settings.is_sqlite) == (None, 9000, False)


async def test_healthz_and_docs(client):
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    assert (await client.get("/docs")).status_code == 200
    paths = (await client.get("/openapi.json")).json()["paths"]
    assert {"/api/auth/register", "/api/me", "/api/rooms/{room}/tables", "/api/tables/{table_id}/sit"} <= set(paths)
    assert (await client.get("/")).status_code == 404  # no browser client yet


async def test_readyz_reports_a_dead_database_while_healthz_says_the_process_runs(app: FastAPI, client):
    assert (await client.get("/readyz")).json() == {"status": "ok", "database": "ok"}  # no Redis configured
    await app.state.services.engine.dispose()
    app.state.services.engine = make_engine("postgresql+asyncpg://nobody@127.0.0.1:1/none")
    response = await client.get("/readyz")
    assert response.status_code == 503 and response.json() == {"status": "unavailable", "database": "unreachable"}
    assert (await client.get("/healthz")).json() == {"status": "ok"}  # liveness: do not restart it for that


def test_web_is_mounted_only_when_index_exists(tmp_path: Path):
    app = FastAPI()
    assert mount_web(app, tmp_path) is False
    (tmp_path / "index.html").write_text("<h1>麻將</h1>", encoding="utf-8")
    assert mount_web(app, tmp_path) is True


async def test_app_serves_web_without_shadowing_the_api(settings, tmp_path: Path):
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<h1>麻將</h1>", encoding="utf-8")
    app = create_app(settings.model_copy(update={"web_dir": web}))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            assert "麻將" in (await client.get("/")).text
            assert (await client.get("/healthz")).json() == {"status": "ok"}
            assert (await client.get("/api/rooms")).status_code == 200


async def test_migrations_match_the_models_and_go_down_and_up(database_url):
    engine = make_engine(database_url)
    try:
        await migrate(engine)
        await migrate(engine)  # a second startup is a no-op

        def diff(connection):
            return compare_metadata(MigrationContext.configure(connection), Base.metadata)

        async with engine.connect() as connection:
            assert await connection.run_sync(diff) == []

        def down(connection):
            config = alembic_config()
            config.attributes["connection"] = connection
            command.downgrade(config, "base")

        async with engine.begin() as connection:
            await connection.run_sync(down)
        async with engine.connect() as connection:
            tables = await connection.run_sync(lambda c: inspect(c).get_table_names())
        assert set(tables) <= {"alembic_version"}
        await migrate(engine)
    finally:
        await engine.dispose()
