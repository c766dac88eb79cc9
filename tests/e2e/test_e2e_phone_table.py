"""Issue 33 item 3: the table reads as a table on a phone (portrait 390×844 and 360×740, landscape 844×390) and on
the 1280×720 desktop, in each of the three languages: every seat's plate carries ``data-seat-pos`` (self / right /
across / left; 三人 tables have no across) and sits at its own edge beside its hand, discards are at least 18 px tall,
your hand is one row (or a row that scrolls), the top bar's 登出 and 我的登入 are reachable (a menu holds what the bar
cannot fit), and the result dialog's sticky 下一局 never covers a row of the balance table.

One browser context, one practice table per variant; sizes and languages are looped inside each test.  Its
screenshots (test-artifacts/phone-table-WxH.png) of the portrait and landscape table are the ones kept, reduced to
a small palette, in docs/screens/ (linked from the README)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import play_step, register, unique_name
from tests.e2e.test_e2e_layout import _inside, _overlap, start_practice
from tests.e2e.test_e2e_phone import _SHOW

SIZES = [(390, 844), (360, 740), (844, 390), (1280, 720)]
LANGS = ["zh-Hant", "zh-Hans", "en"]

# Each seat's plate, hand and river, the centre box and your hand, measured in one round trip.
_SEATS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const plates = [...document.querySelectorAll('.plate[data-seat-pos]')].filter(shown).map((el) => ({
    pos: el.dataset.seatPos, seat: el.dataset.seat, box: box(el),
    area: (() => { const a = document.querySelector(el.dataset.seatPos === 'self' ? '.my-area'
        : `.hand-area[data-seat="${el.dataset.seat}"]`); return a ? box(a) : null; })(),
  }));
  const hand = document.querySelector('.my-hand');
  return {
    vw: innerWidth, vh: innerHeight, sw: document.documentElement.scrollWidth,
    plates, core: box(document.querySelector('.core')),
    riverTiles: [...document.querySelectorAll('.river-area .tile')].filter(shown).map((el) => el.offsetHeight),
    handRows: [...new Set([...document.querySelectorAll('.my-hand .tile')].map((el) => el.offsetTop))],
    handScrolls: hand.scrollWidth > hand.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(hand).overflowX),
    handBox: box(hand),
  };
}"""


def _gap(a: dict, b: dict) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]), 0)
    dy = max(b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]), 0)
    return max(dx, dy)


def _resize(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=list(size))
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def set_language(page: Page, lang: str) -> None:
    """Pick the language as the switch does (it may sit in the top bar's menu on a phone)."""
    page.evaluate("(l) => document.querySelector(`#lang-switch [data-lang='${l}']`).click()", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)


def _close_result(page: Page) -> None:
    if page.locator("#result-dialog[open]").count():  # the hand may have ended meanwhile (timeouts)
        page.keyboard.press("Escape")


def check_seats(m: dict, size: tuple[int, int], n: int) -> None:
    """Every seat's plate at its own edge, beside its hand; readable discards; the hand on one row."""
    positions = sorted(p["pos"] for p in m["plates"])
    wanted = ["across", "left", "right", "self"] if n == 4 else ["left", "right", "self"]
    assert positions == wanted, f"{size}: the plates' data-seat-pos: {positions}"
    core = m["core"]
    cx, cy = core["x"] + core["w"] / 2, core["y"] + core["h"] / 2
    for p in m["plates"]:
        b, pos = p["box"], p["pos"]
        px, py = b["x"] + b["w"] / 2, b["y"] + b["h"] / 2
        if pos == "right":
            assert px > cx, f"{size}: the right plate is not right of the centre: {b} vs {core}"
        if pos == "left":
            assert px < cx, f"{size}: the left plate is not left of the centre: {b} vs {core}"
        if pos == "across":
            assert py < cy, f"{size}: the across plate is not above the centre: {b} vs {core}"
        if pos == "self":
            assert py > cy, f"{size}: your plate is not below the centre: {b} vs {core}"
        assert p["area"] and _gap(b, p["area"]) <= 24, f"{size}: the {pos} plate is not beside its hand: {b} {p['area']}"
        assert _inside(b, {"x": 0, "y": 0, "w": m["vw"], "h": m["vh"]}), f"{size}: the {pos} plate is off screen: {b}"
    for i, a in enumerate(m["plates"]):
        for other in m["plates"][i + 1:]:
            assert not _overlap(a["box"], other["box"]), f"{size}: plates overlap: {a} {other}"
    assert m["riverTiles"], "no discards to measure"
    assert min(m["riverTiles"]) >= 18, f"{size}: discards are {min(m['riverTiles'])} px tall"
    # Layout offsets, not boxes: a lifted (selected) tile is still on its row.
    assert len(m["handRows"]) == 1 or m["handScrolls"], f"{size}: the hand wraps to rows {m['handRows']}"
    assert m["sw"] <= m["vw"] + 1, f"{size}: the page scrolls sideways"


def _play_until_discards(page: Page, count: int) -> None:
    for _ in range(400):
        if page.locator(".river-area .tile").count() >= count or page.locator("#result-dialog[open]").count():
            break
        play_step(page, claim=False)
        page.wait_for_timeout(20)
    _close_result(page)


@pytest.fixture(scope="module")
def phone_page(browser: Browser, base_url: str):  # noqa: ANN201
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
    page = context.new_page()
    register(page, unique_name("ptab"))
    yield page
    context.close()


def test_each_seat_sits_at_its_own_edge_at_every_size_and_language(phone_page: Page, artifacts: Path) -> None:
    page = phone_page
    start_practice(page, "taipao")
    _play_until_discards(page, 8)
    for size in SIZES:
        _resize(page, size)
        for lang in LANGS:
            set_language(page, lang)
            _close_result(page)
            check_seats(page.evaluate(_SEATS), size, 4)
        page.screenshot(path=artifacts / f"phone-table-{size[0]}x{size[1]}.png")
    _resize(page, (1280, 720))
    set_language(page, "zh-Hant")
    _close_result(page)
    page.locator("#leave-table").click()
    expect(page.locator("#lobby-view")).to_be_visible()


def test_three_player_tables_have_no_across_seat(phone_page: Page) -> None:
    page = phone_page
    start_practice(page, "tiantai")
    _play_until_discards(page, 6)
    for size in SIZES:
        _resize(page, size)
        _close_result(page)
        check_seats(page.evaluate(_SEATS), size, 3)
    _resize(page, (1280, 720))
    _close_result(page)
    page.locator("#leave-table").click()
    expect(page.locator("#lobby-view")).to_be_visible()


# The top bar's controls: each shown one inside the screen, none over another; 登出 and 我的登入 either shown
# or in the open menu.
_BAR = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
      && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden]'); };
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  return {vw: innerWidth, vh: innerHeight,
          controls: [...document.querySelectorAll('.topbar button, .topbar a')].filter(shown)
              .filter((el) => !el.closest('.topbar-menu.open'))
              .map((el) => ({id: el.id || el.className, ...box(el)})),
          logout: shown(document.getElementById('logout')), sessions: shown(document.getElementById('sessions-open'))};
}"""


def _reach(page: Page, control: str, size: tuple[int, int]) -> None:
    """The control is on the bar, or one press of the menu button shows it; it is inside the screen."""
    locator = page.locator(control)
    if not locator.is_visible():
        toggle = page.locator("#topbar-menu-toggle")
        expect(toggle).to_be_visible()
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(locator).to_be_visible()
    b = locator.bounding_box()
    assert b and b["x"] >= 0 and b["x"] + b["width"] <= size[0] + 1 and b["y"] + b["height"] <= size[1], f"{size}: {control} {b}"
    if page.locator("#topbar-menu-toggle[aria-expanded=true]").count():
        page.keyboard.press("Escape")
        expect(page.locator("#topbar-menu-toggle")).to_have_attribute("aria-expanded", "false")


def test_the_top_bar_keeps_logout_and_sessions_within_reach(phone_page: Page) -> None:
    page = phone_page
    start_practice(page, "taipao")
    for view in ("table", "lobby"):
        for size in SIZES:
            _resize(page, size)
            for lang in LANGS:
                set_language(page, lang)
                _close_result(page)
                m = page.evaluate(_BAR)
                for i, a in enumerate(m["controls"]):
                    assert a["x"] >= -1 and a["x"] + a["w"] <= m["vw"] + 1, f"{view} {size} {lang}: {a['id']} off screen"
                    for b in m["controls"][i + 1:]:
                        assert not _overlap(a, b), f"{view} {size} {lang}: {a['id']} overlaps {b['id']}"
                _reach(page, "#logout", size)
                _reach(page, "#sessions-open", size)
        if view == "table":
            _resize(page, (1280, 720))
            set_language(page, "zh-Hant")
            _close_result(page)
            page.locator("#leave-table").click()
            expect(page.locator("#lobby-view")).to_be_visible()


_ROWS_CLEAR = """() => {
  const d = document.getElementById('result-dialog');
  const bar = d.querySelector('.buttons');
  const covered = [];
  for (const row of d.querySelectorAll('.summary tbody tr, .payments tbody tr')) {
    row.scrollIntoView({block: 'end'});
    const r = row.getBoundingClientRect(), b = bar.getBoundingClientRect();
    if (r.bottom > b.top + 1 && r.top < b.bottom - 1) covered.push(row.textContent.slice(0, 30));
  }
  return covered;
}"""


def test_next_hand_never_covers_the_balance_rows(phone_page: Page) -> None:
    page = phone_page
    for size in SIZES:
        _resize(page, size)
        for lang in LANGS:
            set_language(page, lang)
            page.evaluate(_SHOW)
            assert page.evaluate(_ROWS_CLEAR) == [], f"{size} {lang}: 下一局 covers rows of the balance table"
            page.keyboard.press("Escape")
            expect(page.locator("#result-dialog")).to_be_hidden()
    _resize(page, (1280, 720))
    set_language(page, "zh-Hant")
