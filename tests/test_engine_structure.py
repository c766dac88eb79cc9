"""The engine's shape (issue 22): no import circle inside ``engine/`` and no module reaching into another's
underscore names.

Imports under ``if TYPE_CHECKING:`` and inside functions count: they are design ties even when they cost
nothing at run time.  (import-linter contracts in ``make lint`` may take these checks over.)
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
# Public API of the standard library that happens to start with an underscore (namedtuple).
STDLIB_UNDERSCORE_API = {"_replace", "_asdict", "_fields", "_make"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}


def imported_modules(name: str, tree: ast.AST, is_package: bool) -> set[str]:
    """Every engine module ``name`` imports anywhere in its text (``from pkg import sub`` names ``pkg.sub``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:
                    found.add(sub)
                elif base in MODULES:
                    found.add(base)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    return {name: imported_modules(name, ast.parse(path.read_text(encoding="utf-8")), path.name == "__init__.py")
            for name, path in MODULES.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def foreign_underscore_uses(path: Path) -> list[str]:
    """``from engine.x import _y``, and ``obj._y`` where ``_y`` is not defined in this module (``self._y`` and
    ``cls._y`` are the module's own business)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "engine"):
            found += [f"line {node.lineno}: imports {alias.name}" for alias in node.names
                      if alias.name.startswith("_")]
        elif (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
              and node.attr not in STDLIB_UNDERSCORE_API and node.attr not in own
              and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            found.append(f"line {node.lineno}: uses {ast.unparse(node)}")
    return found


def test_the_checks_see_a_circle_and_a_foreign_underscore(tmp_path: Path) -> None:
    """The checks themselves: a two-module circle and a reach into another module's private are found."""
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    bad = tmp_path / "bad.py"
    bad.write_text("from engine.hand import _private\n\ndef f(state):\n    return state._finish() + self._x\n")
    assert foreign_underscore_uses(bad) == ["line 1: imports _private", "line 4: uses state._finish"]


def test_engine_has_no_import_circle() -> None:
    """Issue 22: no circle among engine modules, TYPE_CHECKING and function-level imports included."""
    assert circles(import_graph()) == []


def test_engine_modules_use_only_each_others_public_names() -> None:
    """Issue 22 / the brief: a helper another module calls is public API, not an ``_underscore`` name."""
    found = {module_name(p): uses for p in MODULES.values() if (uses := foreign_underscore_uses(p))}
    assert found == {}
