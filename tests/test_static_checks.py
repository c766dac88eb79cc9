"""The code's own gates, run by ``make test``: lint, strict types on the engine, and the one-way arrow
``app -> engine`` (the engine is pure: no I/O frameworks, no asyncio, never ``app``)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_ENGINE = {"app", "asyncio", "fastapi", "sqlalchemy", "starlette", "redis", "httpx", "socket",
                       "websockets", "uvicorn", "time", "datetime"}
# The command-line tools the issues ask for (python -m engine …) do terminal I/O, and simulate reads the
# clock to report hands/s (simulate, duel); the rules they drive never do.
CLI_MODULES = {"__main__.py", "cli_score.py", "cli_waits.py", "duel.py", "simulate.py"}
CLI_ALLOWED = {"time"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "engine").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_is_pure(path: Path) -> None:
    """Brief: engine/ is pure rules (no I/O, no asyncio, never imports app/); time is passed in."""
    forbidden = FORBIDDEN_IN_ENGINE - (CLI_ALLOWED if path.name in CLI_MODULES else set())
    assert not (_imports(path) & forbidden)


def test_ruff_is_clean() -> None:
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "engine", "app", "tests", "bench"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def test_engine_types_check_strictly() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "engine"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
