"""Browser tests: the real app in a thread (uvicorn on 127.0.0.1, port 0, a temp SQLite file) and Debian's
Chromium driven by Playwright's sync API (client-and-style note §5e).

Every test here is marked ``e2e``.  Without /usr/bin/chromium (or the playwright package) they are
skipped with the reason; CI (.ci/run) installs chromium and fonts-wqy-microhei so they really run.
Screenshots go to test-artifacts/ (gitignored).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
LIVE: dict[str, str] = {}  # the live server's database_url, for tests that set up roles (test_e2e_console)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing: apt-get install chromium fonts-wqy-microhei (.ci/run does)"
    try:
        import playwright.sync_api  # noqa: F401
        import pytest_playwright  # noqa: F401
    except ImportError:
        return "playwright / pytest-playwright are not installed: pip install -e '.[dev]'"
    return None


@pytest.hookimpl(trylast=True)  # after pytest's own reordering by fixture scope
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the browser tests and runs them last: Playwright's sync API keeps an event loop running in the main
    thread until the session ends, and an asyncio test or ``asyncio.run`` after it would fail."""
    here = Path(__file__).parent
    reason = _skip_reason()
    browser, others = [], []
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))
            browser.append(item)
        else:
            others.append(item)
    items[:] = others + browser


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 720}, "locale": "zh-TW"}


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def live_database_url(live_server: str) -> str:
    """The live server's database (tests that set up roles write to it directly)."""
    return LIVE["database_url"]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole app (API, sockets, table actors, web/) on a free loopback port, with fast bots."""
    import uvicorn
    from argon2 import PasswordHasher

    from app.core import security
    from app.core.config import Settings
    from app.main import create_app
    from app.tables.hosting.runtime import ProcessRuntime
    from app.tables.settings import TableSettings

    # Still argon2id, at minimal cost: the suite registers a dozen accounts.
    security._hasher = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)  # type: ignore[attr-defined]
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        environment="development",
        secret_key="e2e-secret-" + "x" * 40,
        database_url=f"sqlite+aiosqlite:///{db}",
        redis_url=None,  # explicit: CI exports REDIS_URL
        welcome_grant=50_000,
        web_dir=ROOT / "web",
        register_per_ip=10_000,  # every browser test registers from 127.0.0.1
        login_per_ip=10_000,
    )
    # The test/bench settings: bots answer at once, no claim hold, rule timers shortened.
    table_settings = TableSettings(
        _env_file=None,  # type: ignore[call-arg]
        bot_delay_seconds=0.01,
        auto_play_delay_seconds=0.05,
        claim_hold_seconds=0.0,
        hand_pause_seconds=3.0,
        join_seconds=15.0,
        time_scale=0.5,
    )
    app = create_app(settings, table_runtime=ProcessRuntime(table_settings))
    LIVE["database_url"] = settings.database_url
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=64 * 1024)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="e2e-server")
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the app server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    """pytest-playwright resolves page.goto("/") against this."""
    return live_server


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Playwright's own artifact folder (traces on failure) lives beside ours.
    out = ROOT / "test-results"
    if out.exists() and not any(out.iterdir()):
        shutil.rmtree(out, ignore_errors=True)
