"""The compiled modules' build script (tools/compile_engine.py): its module list and its staleness check."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import app.tables.play.flow
import engine.state
from tools.compile_engine import MODULES, ROOT, SOURCE_TREES, compiled_files, mypyc_hazards, stale_reason

SUFFIX = EXTENSION_SUFFIXES[0]  # .cpython-311-x86_64-linux-gnu.so here


def test_every_listed_module_is_a_source_of_the_engine_or_the_app() -> None:
    for module in MODULES:
        assert module.split("/")[0] in SOURCE_TREES and (ROOT / module).is_file(), module


def test_the_compiled_modules_are_the_ones_imported_when_built() -> None:
    """With a build present Python loads the extension, not the source (else the build would be useless):
    the engine's modules and the app's alike."""
    for module in (engine.state, app.tables.play.flow):
        assert (module.__file__ or "").endswith(".so") == bool(compiled_files()), module.__name__


def fake_tree(root: Path, built: list[str], sources: list[str]) -> None:
    for rel in sources:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    for rel in built:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"")


def full_build() -> list[str]:
    return [m.removesuffix(".py") + SUFFIX for m in MODULES] + ["engine/native__mypyc" + SUFFIX]


def test_no_build_is_not_stale(tmp_path: Path) -> None:
    fake_tree(tmp_path, [], list(MODULES))
    assert stale_reason(tmp_path) is None


def test_a_build_newer_than_every_source_is_current(tmp_path: Path) -> None:
    fake_tree(tmp_path, [], [*MODULES, "engine/tiles.py"])
    for p in tmp_path.rglob("*.py"):
        os.utime(p, (1_000, 1_000))
    fake_tree(tmp_path, full_build(), [])
    assert stale_reason(tmp_path) is None


def test_an_edited_source_makes_the_build_stale(tmp_path: Path) -> None:
    """Any engine source counts, compiled or not: mypyc bakes in the constants and types it imports."""
    fake_tree(tmp_path, [], [*MODULES, "engine/tiles.py"])
    for p in tmp_path.rglob("*.py"):
        os.utime(p, (1_000, 1_000))
    fake_tree(tmp_path, full_build(), [])
    os.utime(tmp_path / "engine/tiles.py")  # now: after the build
    assert stale_reason(tmp_path) == "engine/tiles.py is newer than the compiled modules"


def test_an_edited_app_source_makes_the_build_stale(tmp_path: Path) -> None:
    """The app's sources count too: a compiled app module bakes in what it imports from the rest of the app."""
    fake_tree(tmp_path, [], [*MODULES, "app/tables/settings.py"])
    for p in tmp_path.rglob("*.py"):
        os.utime(p, (1_000, 1_000))
    fake_tree(tmp_path, full_build(), [])
    os.utime(tmp_path / "app/tables/settings.py")
    assert stale_reason(tmp_path) == "app/tables/settings.py is newer than the compiled modules"


def test_a_partial_build_is_stale(tmp_path: Path) -> None:
    fake_tree(tmp_path, [], list(MODULES))
    for p in tmp_path.rglob("*.py"):
        os.utime(p, (1_000, 1_000))
    fake_tree(tmp_path, full_build()[1:], [])
    assert stale_reason(tmp_path) == f"{MODULES[0]} has no compiled module beside it (a partial build)"


def test_no_compiled_module_reads_its_file_path() -> None:
    """mypyc gives a module of the shared library a ``__file__`` that depends on how it was first imported
    (``engine/engine/hand.….so`` when a dependency loads it): data files must be found by an uncompiled module
    (as ``engine.hand_tables`` finds the win tables)."""
    for module in MODULES:
        assert "__file__" not in (ROOT / module).read_text(encoding="utf-8"), module


def test_no_compiled_module_holds_what_mypyc_gets_wrong() -> None:
    """The build refuses a module with a coroutine or an ``except … as`` name bound to two exception types
    (``mypyc_hazards``): both compiled into wrong behaviour on error paths only, where tests rarely go."""
    for module in MODULES:
        assert mypyc_hazards((ROOT / module).read_text(encoding="utf-8"), module) == []


def test_the_hazards_are_found() -> None:
    source = """
async def pump():
    pass

def write():
    try:
        pass
    except KeyError as exc:
        raise
    except Exception as exc:
        print(exc)

def fine():
    try:
        pass
    except KeyError as missing:
        print(missing)
    except Exception as other:
        print(other)
    try:
        pass
    except KeyError as again:
        print(again)
    except KeyError as again:
        print(again)
"""
    found = mypyc_hazards(source, "m.py")
    assert found == ["m.py:2: async def pump (mypyc coroutines and cancellation)",
                     "m.py:5: write binds `exc` to ['Exception', 'KeyError'] (give each its own name)"]
