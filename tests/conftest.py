"""For the whole suite: refuse a stale compiled build (the engine and the table's hot path), and say which engine
the run tests.

``tools/compile_engine.py`` compiles the engine's and the table's hot modules beside their sources; Python then
imports the compiled ones.  A build older than an edited source would test old code, so the run stops and says so.
"""

from __future__ import annotations

import pytest

from tools.compile_engine import stale_reason


def pytest_configure(config: pytest.Config) -> None:
    why = stale_reason()
    if why:
        raise pytest.UsageError(f"stale compiled engine: {why}. Run `make compiled` to rebuild it, or "
                                "`make clean-compiled` to test the pure-Python engine.")


def pytest_report_header(config: pytest.Config) -> str:
    import engine.state

    compiled = not engine.state.__file__ or not engine.state.__file__.endswith(".py")
    return f"engine: {'compiled (mypyc, tools/compile_engine.py)' if compiled else 'pure Python'}"
