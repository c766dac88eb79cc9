"""Which tests start server processes: the harness entry points that do are tagged with ``starts_servers``, and
tests/app/conftest.py gives every test that reaches one the ``multiprocess`` marker, so ``make test-fast`` leaves
it out.  A new test that starts servers through the harness is caught without a list of paths."""

from __future__ import annotations

import functools
import inspect
import sys
import types
from pathlib import Path
from typing import Any, TypeVar

Thing = TypeVar("Thing")

TESTS = Path(__file__).resolve().parents[2]

# By identity, not an attribute: some globals (sqlalchemy's ``func``, mocks) answer any attribute
_ENTRY_POINTS: list[object] = []


def starts_servers(thing: Thing) -> Thing:
    """Tag a harness class or function that starts server processes (``python -m app``, a cluster of them)."""
    _ENTRY_POINTS.append(thing)
    return thing


def _names(code: types.CodeType) -> set[str]:
    """Every global or attribute name a code object uses, its nested functions and comprehensions included."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names(constant)
    return names


@functools.cache
def _under_tests(filename: str) -> bool:
    return Path(filename).resolve().is_relative_to(TESTS)


def _ours(value: Any) -> bool:
    """Defined in a file under tests/ (a test module's helper, a harness), not in a library."""
    if isinstance(value, types.FunctionType):
        filename = value.__code__.co_filename
    else:
        filename = getattr(sys.modules.get(getattr(value, "__module__", "")), "__file__", None)
    return filename is not None and _under_tests(filename)


@functools.cache
def reaches_servers(function: Any) -> bool:
    """Whether ``function`` calls a ``starts_servers`` entry point, itself or through helper functions and
    classes defined under tests/ (followed by name, so a call through a variable's method is not seen)."""
    return _reaches(function, set())


def _reaches(function: Any, seen: set[int]) -> bool:
    function = inspect.unwrap(function)
    if id(function) in seen or not isinstance(function, types.FunctionType):
        return False
    seen.add(id(function))
    for name in _names(function.__code__):
        value = function.__globals__.get(name)
        if any(value is entry for entry in _ENTRY_POINTS):
            return True
        if inspect.isclass(value) and _ours(value):
            members = [inspect.unwrap(m) for m in vars(value).values() if isinstance(m, types.FunctionType)]
            if any(_reaches(member, seen) for member in members):
                return True
        elif isinstance(value, types.FunctionType) and _ours(value) and _reaches(value, seen):
            return True
    return False
