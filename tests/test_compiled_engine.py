"""The compiled modules' build script (tools/compile_engine.py): its module list and its staleness check."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

import app.tables.play.flow
import engine.state
from app.tables.play.seats import SeatLink
from tools.compile_engine import (
    CONSTRUCTORS,
    MODULES,
    ROOT,
    SOURCE_TREES,
    compiled_files,
    mypyc_hazards,
    stale_reason,
)

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


# -- written-out constructors (CONSTRUCTORS): what mypyc would otherwise run as plain Python -------------------

def _required_arguments() -> dict[str, dict[str, Any]]:
    """A valid value for each required field of each class in CONSTRUCTORS (a compiled class checks types)."""
    from app.tables.protocol.messages import PingMessage
    from engine.actions import ActionKind
    from engine.phase import Source
    from engine.tiles import TILES

    return {
        "engine.actions.Action": {"kind": ActionKind.PASS, "seat": 1},
        "engine.events.Event": {"seq": 3, "type": "draw", "public": {"seat": 1}},
        "engine.phase.TurnContext": {"source": Source.DRAW},
        "engine.phase.ClaimWindow": {"kind": "discard", "from_seat": 2, "tile": TILES[0]},
        "engine.claims.Verdict": {},
        "engine.bots.shanten.Sight": {"seat": 0, "counts": [0] * 42, "wild": frozenset({5}), "unseen": [4] * 42},
        "app.tables.play.played.Played": {},
        "app.tables.play.commands.Tick": {"kind": "act"},
        "app.tables.play.commands.Inbound": {"seat": 1, "link": SeatLink(4),
                                             "message": PingMessage(type="ping", t=1.5)},
        "app.tables.play.outbox.OpenPrompt": {"key": 7, "seat": 1, "kind": "turn", "actions": [], "v": 9,
                                              "hand_no": 2, "deadline": 12.5, "deadline_ms": 12500},
        "app.tables.durability.journal_statement.RowWrite": {"table_id": "t1", "fence": 2, "game_id": "g1",
                                                             "hand_no": 3, "start": 4, "v": 5},
    }


def _class(name: str) -> type:
    module, _, cls = name.rpartition(".")
    found: type = getattr(importlib.import_module(module), cls)
    return found


def _generated(init: Any) -> bool:
    """``@dataclass`` generated this ``__init__`` (its code was compiled from a string at import)."""
    code = getattr(init, "__code__", None)
    return code is not None and code.co_filename == "<string>"


@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_a_written_out_constructor_takes_exactly_the_fields_with_their_defaults(name: str) -> None:
    cls = _class(name)
    assert dataclasses.is_dataclass(cls) and "__init__" in vars(cls) and not _generated(vars(cls)["__init__"]), name
    fields = [f for f in dataclasses.fields(cls) if f.init]
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields], name
    for p, f in zip(params, fields, strict=True):  # by keyword and by position: the next test
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, (name, f.name)
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is None, (name, f.name)  # None: a new one, as the factory would make
        else:
            assert p.default is inspect.Parameter.empty, (name, f.name)


@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_a_written_out_constructor_sets_what_the_generated_one_would(name: str) -> None:
    """Given only the required fields, every field holds the argument, its default, or a new default_factory
    value (two objects never share one); given them positionally, the same."""
    cls, given = _class(name), _required_arguments()[name]
    first, second = cls(**given), cls(*given.values())
    for f in dataclasses.fields(cls):
        value = getattr(first, f.name)
        if f.name in given:  # the object itself (a compiled class keeps a float or an int unboxed: equal)
            arg = given[f.name]
            for held in (value, getattr(second, f.name)):
                assert held is arg if isinstance(arg, list | dict | set | SeatLink) else held == arg, (name, f.name)
        elif f.default is not dataclasses.MISSING:
            assert value == f.default, (name, f.name)
        else:
            assert value == f.default_factory() and value is not getattr(second, f.name), (name, f.name)  # type: ignore[misc]
    assert first == second


def test_every_written_out_constructor_of_a_compiled_module_is_checked() -> None:
    """A dataclass of a compiled module with an ``__init__`` of its own is in CONSTRUCTORS (so the two tests
    above hold it to its fields), and every class there is in a compiled module."""
    compiled = {m.removesuffix(".py").replace("/", ".") for m in MODULES}
    written = set()
    for module_name in compiled:
        module = importlib.import_module(module_name)
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == module_name and dataclasses.is_dataclass(value)
                    and "__init__" in vars(value) and not _generated(vars(value)["__init__"])):
                written.add(f"{module_name}.{value.__qualname__}")
    assert written == set(CONSTRUCTORS)
    assert set(_required_arguments()) == set(CONSTRUCTORS)
