"""Alembic keeps the revision in ``alembic_version.version_num``, a VARCHAR(32): Postgres refuses a longer id
at upgrade time while SQLite (the tests' default) does not notice, so the length is checked here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

VERSIONS = sorted((Path(__file__).resolve().parents[3] / "migrations" / "versions").glob("*.py"))


@pytest.mark.parametrize("path", VERSIONS, ids=[p.stem for p in VERSIONS])
def test_every_revision_id_fits_alembic_version_num(path: Path) -> None:
    found = re.search(r'^revision: str = "([^"]+)"', path.read_text("utf-8"), re.M)
    assert found is not None, path.name
    assert len(found.group(1)) <= 32, found.group(1)
