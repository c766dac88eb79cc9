"""What a player does in the browser: register, and play a hand by clicking what the table offers."""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Iterator, Sequence
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

PASSWORD = "correct horse battery"
_names = itertools.count(1)


def unique_name(prefix: str) -> str:
    return f"{prefix}{int(time.time() * 1000) % 10**7}{next(_names)}"


def register(page: Page, username: str) -> None:
    """Open the app, register through the form, land in the lobby."""
    page.goto("/")
    page.locator("#auth-switch").click()
    page.locator("#auth-username").fill(username)
    page.locator("#auth-password").fill(PASSWORD)
    page.locator("#auth-submit").click()
    expect(page.locator("#lobby-view")).to_be_visible()
    expect(page.locator("#me-name")).to_have_text(username)


@contextlib.contextmanager
def registered_players(browser: Browser, base_url: str, n: int, prefix: str) -> Iterator[list[Page]]:
    """``n`` players, each in a browser context of its own (its own session) on a 1280×720 desktop in zh-TW,
    registered and in the lobby; the contexts close afterwards."""
    contexts: list[BrowserContext] = []
    try:
        pages = []
        for i in range(n):
            contexts.append(browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720},
                                                locale="zh-TW"))
            pages.append(contexts[-1].new_page())
            register(pages[-1], unique_name(f"{prefix}{i}"))
        yield pages
    finally:
        for context in contexts:
            context.close()


SESSION_COOKIES = ("__Host-mj_session", "mj_session")  # app.api.cookie_session


def token(page: Page) -> str:
    """The page's session token: its login cookie's value (HttpOnly: the page's script cannot read it, the test
    can), the same token a bearer client sends."""
    value = next((c["value"] for c in page.context.cookies() if c["name"] in SESSION_COOKIES), None)
    assert value, "not logged in"
    return str(value)


def api_get(page: Page, path: str) -> dict | list:
    """GET an API path with this page's account (the browser's own request context)."""
    response = page.request.get(path, headers={"Authorization": f"Bearer {token(page)}"})
    assert response.ok, f"{path}: {response.status} {response.text()}"
    return response.json()


def result_open(page: Page) -> bool:
    return page.locator("#result-dialog[open]").count() > 0


# What the table offers right now, read in one round trip.
_LOOK = """() => ({
    result: !!document.querySelector('#result-dialog[open]'),
    buttons: [...document.querySelectorAll('.actions .act[data-action]')].map((b) => b.dataset.action),
    tiles: document.querySelectorAll('.my-hand .tile:not([disabled])').length,
    drawn: !!document.querySelector('.my-hand .tile.drawn:not([disabled])'),
})"""


def table_look(page: Page) -> dict[str, Any]:
    """What the table offers this page now: ``result`` (the result dialog is open), ``buttons`` (the actions
    offered), ``tiles`` (own tiles that may be clicked) and ``drawn`` (this seat has drawn: its turn)."""
    return page.evaluate(_LOOK)


def _click(page: Page, selector: str) -> bool:
    try:
        page.locator(selector).first.click(timeout=1500)
    except PlaywrightError:
        return False  # the table moved on under the pointer; look again
    return True


def play_step(page: Page, *, claim: bool = True) -> str | None:
    """Do the one thing the table offers now, by clicking as a player would.  Returns what was done."""
    look = table_look(page)
    if look["result"]:
        return "result"
    wanted = ["win", "kill_pig"] + (["pong", "kong", "chow"] if claim else []) + ["pass"]
    for action in wanted:
        if action in look["buttons"]:
            if not _click(page, f".actions .act-{action}"):
                return None
            if action in ("chow", "kong") and page.locator(".actions .choice").count():
                _click(page, ".actions .choice")  # several chows / kongs: the second click picks one
            return action
    if look["tiles"]:
        # Double-click a tile: the first click lifts it, the second discards it.
        selector = ".my-hand .tile.drawn:not([disabled])" if look["drawn"] else ".my-hand .tile:not([disabled]) >> nth=-1"
        try:
            page.locator(selector).first.dblclick(timeout=1500)
        except PlaywrightError:
            return None
        return "discard"
    return None


def play_until_result(pages: Sequence[Page], timeout: float = 150.0, claim: bool = True) -> dict[str, int]:
    """Click through a hand at every page until each has shown the result dialog.

    A page that has shown it plays no further: its dialog may close by itself when the next hand's first
    prompt arrives (the table must not be hidden while a decision is due), and that is not this hand.
    """
    done: dict[str, int] = {}
    finished: set[int] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        acted = False
        for i, page in enumerate(pages):
            if i in finished:
                continue
            what = play_step(page, claim=claim)
            if what == "result":
                finished.add(i)
            elif what:
                done[what] = done.get(what, 0) + 1
                acted = True
        if len(finished) == len(pages):
            return done
        if not acted:
            pages[0].wait_for_timeout(15)
    raise AssertionError(f"no result dialog within {timeout} s (actions so far: {done})")


def close_result(page: Page) -> None:
    """Press 下一局 / Next hand if the dialog is still open."""
    button = page.locator("#result-dialog[open] button.next")
    if button.count():
        with contextlib.suppress(PlaywrightError):  # closed by itself meanwhile (the next hand's prompt)
            button.click(timeout=2000)


def check_payment_steps(page: Page, coins_per_point: int = 100) -> int:
    """Issue 13 defect 7, on a real settled hand: each payment's worked steps end at the server's points for
    it, and (at a coin table) at its coins, points × the room's rate.  Returns how many payments were checked."""
    dialog = page.locator("#result-dialog")
    rows = dialog.locator(".payments tbody tr").all()
    steps = dialog.locator(".pay-steps li").all()
    assert len(steps) == len(rows)
    for li, row in zip(steps, rows, strict=True):
        cells = row.locator("td").all_inner_texts()
        points = int(cells[2].replace(",", ""))
        assert li.get_attribute("data-server-points") == str(points)
        assert li.get_attribute("data-points") == str(points), li.inner_text()  # the steps reach the server's number
        text = li.inner_text()
        if row.get_attribute("data-bot"):
            assert "電腦：不結算" in text
        else:
            assert f"× {coins_per_point} = {cells[3]} 金幣" in text, text
    return len(rows)


def give_reason(page: Page, title: str, reason: str) -> None:
    """The console's reason dialog (web/admin.html): it names the act, refuses a blank reason, then sends it."""
    dialog = page.locator("#adm-ask")
    expect(dialog).to_be_visible()
    expect(page.locator("#adm-ask-title")).to_contain_text(title)
    page.locator("#adm-ask-ok").click()
    expect(page.locator("#adm-ask-error")).not_to_be_empty()
    expect(dialog).to_be_visible()
    page.locator("#adm-ask-reason").fill(reason)
    page.locator("#adm-ask-ok").click()
    expect(dialog).to_be_hidden()
