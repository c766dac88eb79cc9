"""One login across tabs, and a second tab or device handled (issue 33 items 1 and 2), in each language.

Before: the token lived in the tab's sessionStorage, so a second tab and the table's 規則 tab showed the login
form; and a table opened in a second tab froze the first one silently (its socket closed with 4001, no word,
a stale board).  Each flow runs once per language and checks the phones (390×844 and 360×740 portrait, 844×390
landscape) and the desktop (1280×720) within it, switching the viewport, to keep the suite short.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.e2e.helpers import PASSWORD, register, token, unique_name
from tests.test_i18n_tables import load_strings

LOCALES = {"zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "en": "en-US"}
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 720}
SMALL_PHONE, LANDSCAPE = {"width": 360, "height": 740}, {"width": 844, "height": 390}
SIZES = [PHONE, SMALL_PHONE, LANDSCAPE, DESKTOP]
STRINGS = load_strings()


def words(key: str, language: str) -> str:
    return STRINGS[key][language]


def new_context(browser: Browser, base_url: str, language: str, viewport: dict) -> BrowserContext:
    return browser.new_context(base_url=base_url, viewport=viewport, locale=LOCALES[language])  # type: ignore[arg-type]


def log_in(page: Page, name: str) -> None:
    """Log in through the form (switched to logging in, if it was left on registering)."""
    expect(page.locator("#auth-view")).to_be_visible()
    if page.locator("#auth-heading").get_attribute("data-i18n") == "auth.register":
        page.locator("#auth-switch").click()
    page.locator("#auth-username").fill(name)
    page.locator("#auth-password").fill(PASSWORD)
    page.locator("#auth-submit").click()
    expect(page.locator("#lobby-view")).to_be_visible()
    expect(page.locator("#me-name")).to_have_text(name)


def open_practice(page: Page) -> str:
    """A practice table for the page's account, opened in the page (its seat is the page's)."""
    made = page.request.post("/api/practice", headers={"Authorization": f"Bearer {token(page)}"},
                             data={"variant": "taiwan", "hands": 2})
    assert made.status == 201, made.text()
    table_id = str(made.json()["id"])
    page.evaluate("(id) => { location.hash = '#/table/' + id; }", table_id)
    expect(page.locator("#table-root .table")).to_be_visible()
    page.wait_for_function("(id) => window.__mj.state().table?.id === id", arg=table_id)  # its snapshot came
    return table_id


def in_view(page: Page, locator: Locator) -> None:
    """The element is shown whole inside the page's viewport (not off screen, not clipped at an edge)."""
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] + 1 and box["y"] + box["height"] <= size["height"] + 1, (box, size)


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_second_page_and_the_rules_tab_are_logged_in(browser: Browser, base_url: str, language: str) -> None:
    context = new_context(browser, base_url, language, PHONE)
    try:
        first = context.new_page()
        name = unique_name("tabs")
        register(first, name)
        expect(first.locator("html")).to_have_attribute("lang", language)
        # The page's script holds no token: the login is the HttpOnly cookie.
        assert first.evaluate("() => [...Object.keys(sessionStorage), ...Object.keys(localStorage)]"
                              ".filter((k) => k.includes('token'))") == []
        assert first.evaluate("() => document.cookie") == ""

        second = context.new_page()
        second.goto("/")
        expect(second.locator("#lobby-view")).to_be_visible()
        expect(second.locator("#me-name")).to_have_text(name)
        expect(second.locator("#auth-view")).to_be_hidden()
        for size in (SMALL_PHONE, LANDSCAPE, DESKTOP):  # logged in, and saying so, at each size
            second.set_viewport_size(size)
            expect(second.locator("#lobby-view")).to_be_visible()
            expect(second.locator("#auth-view")).to_be_hidden()
            in_view(second, second.locator("#me-name"))
        # A page opened first at a phone's landscape size lands logged in too.
        third = context.new_page()
        third.set_viewport_size(LANDSCAPE)
        third.goto("/")
        expect(third.locator("#lobby-view")).to_be_visible()
        expect(third.locator("#me-name")).to_have_text(name)
        expect(third.locator("#auth-view")).to_be_hidden()
        third.close()
        # 我的登入 names the device ("Chrome on Linux" in the page's language), not the raw User-Agent.
        second.locator("#sessions-open").click()
        device = second.locator("#sessions-dialog .session-device").first
        expect(device).to_contain_text("Linux")
        expect(second.locator("#sessions-dialog")).not_to_contain_text("Mozilla/5.0")
        expect(second.locator("#sessions-dialog .session-current")).to_have_text(words("sessions.current", language))
        second.locator("#sessions-close").click()

        # A logout in one tab is a logout in the other at once (no reload); a login there follows too.
        second.locator("#logout").click()
        expect(second.locator("#auth-view")).to_be_visible()
        expect(first.locator("#auth-view")).to_be_visible()
        expect(first.locator("#me-box")).to_be_hidden()
        log_in(first, name)
        expect(second.locator("#lobby-view")).to_be_visible()
        expect(second.locator("#me-name")).to_have_text(name)

        # The table's 規則 button opens a new tab, which is logged in and shows the rules (desktop: phones
        # reach the rules from the result dialog).
        first.set_viewport_size(DESKTOP)
        open_practice(first)
        with context.expect_page() as opened:
            first.locator("#rules-link").click()
        rules = opened.value
        expect(rules.locator("#rules-view")).to_be_visible()
        expect(rules.locator("#me-name")).to_have_text(name)
        expect(rules.locator("#auth-view")).to_be_hidden()
        for size in (PHONE, SMALL_PHONE, LANDSCAPE):
            rules.set_viewport_size(size)
            expect(rules.locator("#rules-view")).to_be_visible()
            expect(rules.locator("#auth-view")).to_be_hidden()
            in_view(rules, rules.locator("#rules-view h1"))
    finally:
        context.close()


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_table_opened_elsewhere_says_so_and_play_here_takes_the_seat_back(browser: Browser, base_url: str,
                                                                           language: str) -> None:
    phone = new_context(browser, base_url, language, PHONE)
    desk = new_context(browser, base_url, language, DESKTOP)
    try:
        first = phone.new_page()
        name = unique_name("twice")
        register(first, name)
        other = desk.new_page()  # the same account on another device
        other.goto("/")
        log_in(other, name)
        table_id = open_practice(first)
        seat = first.evaluate("() => window.__mj.state().table.seat")

        other.evaluate("(id) => { location.hash = '#/table/' + id; }", table_id)
        expect(other.locator("#table-root .table")).to_be_visible()
        alert = first.locator("#elsewhere-alert")
        expect(alert).to_have_attribute("role", "alert")
        expect(alert).to_contain_text(words("table.elsewhere", language))
        play_here = alert.get_by_role("button", name=words("table.elsewhere.play_here", language))
        expect(play_here).to_be_focused()
        # No stale board: it is hidden and its state forgotten (no countdown runs on it).
        expect(first.locator("#table-root")).to_be_hidden()
        assert first.evaluate("() => window.__mj.state().table") is None
        for size in SIZES:  # the whole alert and its button on screen at every size, ending on the phone
            first.set_viewport_size(size)
            in_view(first, alert)
            in_view(first, play_here)
        first.set_viewport_size(PHONE)

        play_here.click()
        expect(first.locator("#elsewhere-alert")).to_have_count(0)
        expect(first.locator("#table-root .table")).to_be_visible()
        expect(first.locator("#conn-status")).to_have_attribute("data-status", "open")
        first.wait_for_function("(id) => window.__mj.state().table?.id === id", arg=table_id)
        assert first.evaluate("() => window.__mj.state().table.seat") == seat
        # ...and now the other device is the one told, in its turn.
        other_alert = other.locator("#elsewhere-alert")
        expect(other_alert).to_contain_text(words("table.elsewhere", language))
        expect(other.locator("#table-root")).to_be_hidden()
        for size in reversed(SIZES):
            other.set_viewport_size(size)
            in_view(other, other_alert)
            in_view(other, other_alert.get_by_role("button", name=words("table.elsewhere.play_here", language)))
    finally:
        phone.close()
        desk.close()
