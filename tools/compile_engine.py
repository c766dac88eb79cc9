"""Compile the engine's, the bots' and the table's hot modules to C extensions with mypyc (issue 36), or remove
them again.

    python tools/compile_engine.py            # build, unless the build is newer than every engine and app source
    python tools/compile_engine.py --clean    # remove the compiled modules: the pure-Python engine again
    python tools/compile_engine.py --check    # exit 1, saying why, when a compiled build is older than a source

``make compiled`` runs the first (``make test`` and ``make run`` depend on it), ``make test-pure`` the second
before running the engine's and the table's tests on the plain sources.  Each compiled module lies beside its
source (``engine/state.cpython-311-x86_64-linux-gnu.so`` next to ``engine/state.py``), with the code of all of them in
one library (``engine/native__mypyc.*.so``); Python imports an extension before a source of the same name, so
with the files present the compiled engine runs, and without them the same sources run as plain Python.
Nothing else changes: the sources are the single truth, and the compiled modules must give the same hands
bit for bit (the engine's tests run on both).

A compiled module does not see later edits of the sources: a build older than any ``engine/**/*.py`` or
``app/**/*.py`` is stale (mypyc also bakes in ``Final`` constants and types of the modules it imports), which
``--check`` and the test suite's start (``tests/conftest.py``) refuse.  The app's modules compile into the same
library as the engine's (one group: calls between them stay native); the arrow still points one way, since
only the app's modules import the engine's.  mypyc comes with mypy from PyPI; it needs a C compiler and the
Python headers.

A module-level constant that a compiled function reads should be ``Final``: mypyc then inlines a literal
(``N_KINDS: Final = 42``) or keeps the value in a C static, where a plain global is looked up in the module's
dictionary, and a plain int comes back boxed, on every read (issue 36, eleventh round: making the engine's,
the bots' and the table's constants ``Final`` took 4 % of a random hand's instructions and 7 % of a bot-played
one).  Not a tuple of floats: mypyc 1.x keeps it unboxed and then refuses to read it ("value for final name
was not set"), as ``engine.bots.strong.TYPICAL_DRAWS`` showed.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MODULES = (
    # the hand's flow: every action of every hand runs these
    "engine/state.py",
    "engine/board.py",
    "engine/legal.py",
    "engine/claims.py",
    "engine/melding.py",
    "engine/split_deal.py",
    "engine/outcome.py",
    "engine/seat.py",
    "engine/wall.py",
    "engine/phase.py",
    "engine/actions.py",
    "engine/events.py",
    "engine/hand.py",
    "engine/decompose.py",
    "engine/hints.py",
    "engine/view.py",
    # the bots' 向聽 and 進張 (the normal bot is the server's practice player)
    "engine/bots/easy.py",
    "engine/bots/shanten.py",
    "engine/bots/normal.py",
    "engine/bots/strong.py",
    "engine/bots/defence.py",
    # the table's hot path in the service: every command of every table runs these (a table's hand flow, what it
    # sends, its hints, the frames' encoding and the journal's batched statement); 14 % less server CPU per
    # table-second at production pace (bench/results/throughput.md, sixth round).  A compiled class takes no
    # attribute it does not declare: a test observes it from outside instead of patching its methods.
    "app/tables/play/flow.py",
    "app/tables/play/outbox.py",
    "app/tables/play/hints.py",
    "app/tables/protocol/frames.py",
    "app/tables/durability/journal_statement.py",
    # what every command carries and returns, and the table's clock (asked the time several times a command)
    "app/tables/play/played.py",
    "app/tables/play/commands.py",
    "app/tables/play/clock.py",
)
"""The compiled modules, as paths from the repository root (the one list: the build and the checks read it)."""

SOURCE_TREES = ("engine", "app")
"""Where the compiled modules and every source they may bake in lie."""

CONSTRUCTORS = (
    "engine.actions.Action",
    "engine.events.Event",
    "engine.phase.TurnContext",
    "engine.phase.ClaimWindow",
    "engine.claims.Verdict",
    "engine.bots.shanten.Sight",
    "app.tables.play.played.Played",
    "app.tables.play.commands.Tick",
    "app.tables.play.commands.Inbound",
    "app.tables.play.outbox.OpenPrompt",
    "app.tables.durability.journal_statement.RowWrite",
)
"""The dataclasses of the compiled modules that write their ``__init__`` out instead of letting ``@dataclass``
generate it.  mypyc compiles a dataclass's own methods but not the ones the decorator generates when the module
is imported: those run as plain Python, so constructing a compiled ``Played`` cost 0.79 µs and a ``Tick`` 0.62
µs here, and a three-field frozen class built in a compiled loop 0.60 µs against 0.037 µs with its ``__init__``
written out (issue 36, ninth round: −12 to −15 % of the engine's instructions per hand).  These are the classes
built several times for every message a table sends (counted at production pace); the others keep the
generated one.  A written-out ``__init__`` takes exactly the fields, in order, with the same defaults (a
``default_factory`` field: ``None``, meaning a new one), which ``tests/test_compiled_engine.py`` checks."""

GROUP = "engine.native"
"""mypyc's name for the shared library (``engine/native__mypyc.*.so``), inside the package so that it is
found wherever ``engine`` is."""


def compiled_files(root: Path = ROOT) -> list[Path]:
    """Every compiled extension under ``engine/`` and ``app/``."""
    return sorted(p for tree in SOURCE_TREES for p in (root / tree).rglob("*.so"))


def stale_reason(root: Path = ROOT) -> str | None:
    """Why the compiled build under ``root`` cannot be trusted (a source newer than it, or a module missing),
    or ``None`` when it is current or there is none (the pure-Python engine)."""
    built = compiled_files(root)
    if not built:
        return None
    names = {p.name.split(".")[0] for p in built if p.parent == root / "engine"}
    for module in MODULES:
        path = root / module
        stem = path.name.removesuffix(".py")
        if not any(p.parent == path.parent and p.name.split(".")[0] == stem for p in built):
            return f"{module} has no compiled module beside it (a partial build)"
    if not any(n.endswith("__mypyc") for n in names):
        return "the shared library engine/native__mypyc.*.so is missing"
    oldest = min(p.stat().st_mtime for p in built)
    for source in sorted(p for tree in SOURCE_TREES for p in (root / tree).rglob("*.py")):
        if source.stat().st_mtime > oldest:
            return f"{source.relative_to(root)} is newer than the compiled modules"
    return None


def mypyc_hazards(source: str, name: str = "<source>") -> list[str]:
    """What in a module's source mypyc would compile into wrong behaviour, each as ``name:line: why``.

    * ``async def``: when a compiled coroutine is cancelled and its ``finally`` awaits while the cancel
      propagates, the next run of that coroutine raises the same ``CancelledError`` again (mypy 2.4.1; a
      dozen lines reproduce it, bench/results/throughput.md "seventh round"): a table actor compiled with the
      rest killed the next table a test started with the previous table's cancel.  Coroutines stay Python.
    * one ``except … as name`` reused for unrelated exception types in a function: mypyc gives the name the
      type of the first handler and raises ``TypeError`` when a later handler binds another type (a journal
      write's ``except Exception as exc`` after ``except Fenced as exc``), only on that error path.
    """
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.AsyncFunctionDef):
            found.append(f"{name}:{node.lineno}: async def {node.name} (mypyc coroutines and cancellation)")
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            bound: dict[str, set[str]] = {}
            for handler in ast.walk(node):
                if isinstance(handler, ast.ExceptHandler) and handler.name:
                    bound.setdefault(handler.name, set()).add(ast.unparse(handler.type) if handler.type else "")
            found += [f"{name}:{node.lineno}: {node.name} binds `{n}` to {sorted(t)} (give each its own name)"
                      for n, t in bound.items() if len(t) > 1]
    return found


def clean(root: Path = ROOT) -> int:
    """Remove the compiled modules; returns how many files went."""
    files = compiled_files(root)
    for p in files:
        p.unlink()
    return len(files)


def build(root: Path = ROOT) -> None:
    """Compile ``MODULES`` in place (a few minutes: one C file for all, built with -O3)."""
    from mypyc.build import mypycify
    from setuptools import setup

    hazards = [h for m in MODULES for h in mypyc_hazards((root / m).read_text(encoding="utf-8"), m)]
    if hazards:
        raise SystemExit("not compiled, mypyc would get these wrong:\n  " + "\n  ".join(hazards))
    clean(root)
    os.chdir(root)
    setup(
        name="engine-native",
        ext_modules=mypycify(list(MODULES), group_name=GROUP, target_dir="build/mypyc"),
        script_args=["build_ext", "--inplace", "--build-temp", "build/mypyc/temp", "--build-lib",
                     "build/mypyc/lib"],
    )
    # setuptools copies an extension whose C code did not change with its old time stamp: mark the whole
    # build as made from the sources of now, which it is
    for p in compiled_files(root):
        p.touch()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--clean", action="store_true", help="remove the compiled modules")
    mode.add_argument("--check", action="store_true", help="fail when the compiled build is stale")
    args = p.parse_args(argv)
    if args.clean:
        print(f"removed {clean()} compiled files: the engine and the table run as plain Python")
        return 0
    why = stale_reason()
    if args.check:
        if why:
            print(f"stale compiled modules: {why}; run `make compiled` (or `make clean-compiled`)", file=sys.stderr)
            return 1
        return 0
    if compiled_files() and why is None:
        print("compiled modules are up to date")
        return 0
    build()
    why = stale_reason()
    if why or not compiled_files():
        print(f"the build did not produce a current compiled engine: {why}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
