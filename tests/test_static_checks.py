"""The code's own gates, run by ``make test``: lint, types (strict on the engine), the import contracts of
docs/architecture.md, the one-way arrow ``app -> engine`` (the engine is pure: no I/O frameworks, no
asyncio, never ``app``), no import cycle in ``app`` and no module reaching into another's private names."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_engine_structure import circles

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
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "engine", "app", "tests", "bench", "tools"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def test_types_check() -> None:
    """``mypy app engine`` (strict on the engine, pyproject.toml), as ``make lint`` runs it."""
    run = subprocess.run([sys.executable, "-m", "mypy", "app", "engine"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


def test_import_contracts_are_kept() -> None:
    """The architecture's arrows (pyproject.toml ``[tool.importlinter]``, docs/architecture.md)."""
    run = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def _import_cycles(package: str) -> list[list[str]]:
    """Groups of modules of ``package`` that import each other in a circle, TYPE_CHECKING and in-function
    imports included (they are design ties too)."""
    import grimp

    graph = grimp.build_graph(package, exclude_type_checking_imports=False, cache_dir=None)
    modules = sorted(m for m in graph.modules if m.startswith(package))
    return circles({m: {d for d in graph.find_modules_directly_imported_by(m) if d.startswith(package)}
                    for m in modules})


def test_no_import_cycle_in_app() -> None:
    assert _import_cycles("app") == []


def test_import_cycles_are_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cycle finder itself: a two-module circle through a TYPE_CHECKING import is one cycle."""
    package = tmp_path / "circle_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from circle_pkg import b\n")
    (package / "b.py").write_text("import circle_pkg.a\n")
    (package / "c.py").write_text("import circle_pkg.b\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _import_cycles("circle_pkg") == [["circle_pkg.a", "circle_pkg.b"]]


# Private names another module may use all the same: os._exit is the documented exit for a child process.
PRIVATE_ALLOWED = {("os", "_exit")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(source: str) -> list[str]:
    """Where ``source`` uses a private (``_underscore``) name it does not define: ``from x import _y``, or
    ``obj._y`` on anything but ``self``/``cls`` when no ``_y`` is defined (def, class, assignment, argument)
    in this module.  A helper another module needs is public API with a docstring (the developers' brief)."""
    tree = ast.parse(source)
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: from {node.module} import {a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            owner = ast.unparse(node.value)
            if owner not in ("self", "cls") and (owner, node.attr) not in PRIVATE_ALLOWED:
                found.append(f"{node.lineno}: {owner}.{node.attr}")
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "app").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_uses_another_modules_private_names(path: Path) -> None:
    assert private_uses(path.read_text(encoding="utf-8")) == []


def test_private_uses_are_found() -> None:
    """The check itself: what it must refuse and what it must let through."""
    source = (
        "from app.tables.play.flow import _snapshot\n"
        "class A:\n"
        "    def __init__(self):\n        self._mine = 1\n"
        "    def f(self, other, flow):\n"
        "        return self._mine, other._mine, flow._open_prompts(), os._exit\n"
    )
    assert private_uses(source) == ["1: from app.tables.play.flow import _snapshot", "6: flow._open_prompts"]
