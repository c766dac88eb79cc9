"""Every page of the client under its Content-Security-Policy in Chromium, with zero violations (issue 24).

The policy (app/api/headers.py) allows only this origin's files: no inline script or style, no framing
except the console's replay board.  A violation shows as a ``securitypolicyviolation`` event and a console
error; the test listens for both on the sign-in page, the lobby, a table, the sessions dialog, the
tournament page and the console (with its embedded replay board and a spectator socket), and checks that
the socket URLs carry a ticket, never the session token.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.server
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import register, token, unique_name
from tests.e2e.test_e2e_console import _grant

LISTEN = """() => {
  window.__violations = [];
  document.addEventListener("securitypolicyviolation",
    (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
}"""


def _watch(page: Page) -> tuple[list[str], list[str]]:
    """Console errors that mention the policy, and the URLs of every socket the page opens."""
    errors: list[str] = []
    sockets: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and (
        "Content Security Policy" in m.text or "Refused to" in m.text) else None)
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.add_init_script(f"({LISTEN})()")
    return errors, sockets


def _violations(page: Page) -> list[str]:
    found = list(page.evaluate("() => window.__violations || []"))
    for frame in page.frames[1:]:
        found += frame.evaluate("() => window.__violations || []")
    return found


def test_every_page_runs_under_the_csp_without_a_violation(browser: Browser, live_server: str,
                                                          live_database_url: str) -> None:
    context = browser.new_context(base_url=live_server, locale="zh-TW", viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        errors, sockets = _watch(page)
        response = page.goto("/")
        assert response is not None and "frame-ancestors 'none'" in response.headers["content-security-policy"]
        expect(page.locator("#auth-form")).to_be_visible()
        name = unique_name("csp")
        register(page, name)  # the lobby, its socket
        page.locator("#sessions-open").click()  # the sessions dialog
        expect(page.locator("#sessions-list li")).to_have_count(1)
        expect(page.locator("#sessions-list li strong")).to_be_visible()  # (this one)
        page.locator("#sessions-close").click()
        page.locator("[data-practice=tiantai]").click()  # a table and its socket
        expect(page.locator("#table-view")).to_be_visible()
        expect(page.locator("#conn-status")).to_have_attribute("data-status", "open", timeout=30_000)

        me = page.request.get("/api/me", headers={"Authorization": f"Bearer {token(page)}"}).json()
        with ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread's event loop
            pool.submit(asyncio.run, _grant(live_database_url, me["id"])).result()
        table_id = me["table"]["table_id"] if me.get("table") else None
        page.goto("/tournaments.html")
        expect(page.locator("#tp-me")).to_have_text(name)
        page.goto("/admin.html")
        page.locator('[data-tab="tables"]').click()
        if table_id is not None:
            page.locator(f'[data-watch="{table_id}"]').click()  # the spectator socket
            expect(page.locator("#adm-watch-seats li")).to_have_count(3)
        page.evaluate("() => { const f = document.getElementById('adm-board'); f.hidden = false; "
                      "f.src = './?embed=replay#/hands'; }")  # the one page that may be framed (same origin)
        expect(page.frame_locator("#adm-board").locator("#replay-view")).to_be_attached()  # it loaded, framed
        assert _violations(page) == []
        assert errors == []
        assert len(sockets) >= 3 and all(re.search(r"[?&]ticket=", url) for url in sockets), sockets
        assert all(token(page) not in url and "token=" not in url for url in sockets)
    finally:
        context.close()


@contextlib.contextmanager
def _framer_site(tmp_path: Path) -> Iterator[str]:
    """Another origin (a second port on this host) serving framer pages: a real server, since Chromium's
    private-network checks refuse a page Playwright makes up from framing a loopback address."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _frame(browser: Browser, framer: str, src: str) -> str | None:
    """Open ``framer``, which frames ``src``: how the frame's request ended (None: it loaded; else
    Chromium's failure, net::ERR_BLOCKED_BY_RESPONSE for a refused frame-ancestor)."""
    context = browser.new_context(locale="zh-TW")
    try:
        page = context.new_page()
        ended: list[str | None] = []
        page.on("requestfailed", lambda r: ended.append(r.failure) if r.url == src else None)
        page.on("requestfinished", lambda r: ended.append(None) if r.url == src else None)
        page.goto(framer)  # its load event waits for the frame to load or fail
        page.wait_for_function("() => document.readyState === 'complete'")
        assert len(ended) == 1, ended
        return ended[0]
    finally:
        context.close()


def test_no_other_site_can_frame_a_page(browser: Browser, live_server: str, tmp_path: Path) -> None:
    """A page of another origin (another port) frames the console or the replay board: Chromium refuses
    both; the console's own origin may frame the replay board, and only that page."""
    blocked = "net::ERR_BLOCKED_BY_RESPONSE"
    for name, src in (("console", "/admin.html"), ("board", "/?embed=replay"), ("lobby", "/")):
        (tmp_path / f"{name}.html").write_text(f'<iframe src="{live_server}{src}"></iframe>')
    with _framer_site(tmp_path) as elsewhere:
        assert _frame(browser, f"{elsewhere}/console.html", f"{live_server}/admin.html") == blocked
        assert _frame(browser, f"{elsewhere}/board.html", f"{live_server}/?embed=replay") == blocked
    # Same origin (as the operator console does): the board may be framed; any other page still refuses.
    context = browser.new_context(base_url=live_server, locale="zh-TW")
    try:
        page = context.new_page()
        for src, expected in (("/?embed=replay", None), ("/", blocked), ("/tournaments.html", blocked)):
            ended: list[str | None] = []
            page.on("requestfailed", lambda r, ended=ended, src=src: ended.append(r.failure)
                    if r.url == live_server + src else None)
            page.on("requestfinished", lambda r, ended=ended, src=src: ended.append(None)
                    if r.url == live_server + src else None)
            page.goto("/healthz")  # a document of this origin that navigates nowhere by itself
            page.evaluate("(src) => { const f = document.createElement('iframe'); f.src = src; "
                          "document.body.append(f); return new Promise((ok) => { f.onload = ok; }); }", src)
            assert ended == [expected], (src, ended)
    finally:
        context.close()
