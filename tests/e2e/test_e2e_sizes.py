"""Issue 13: the lobby (with a waiting coin table's invite link and bot button) and the result dialog (a 16-tile
winning hand, items, payments worked out) at every listed screen size, checked by measuring element boxes:
nothing scrolls sideways, no two controls overlap, every tile is inside the dialog and the screen.  One
screenshot per size and screen in test-artifacts/ (lobby-WxH.png, result-WxH.png)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import register, unique_name
from tests.e2e.test_e2e_layout import _MEASURE, SIZES, _inside, _overlap, check_boxes, start_practice
from tests.e2e.test_e2e_phone import _SHOW

# Every visible control of the lobby and the top bar, measured in one round trip.
_CONTROLS = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
      && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden]'); };
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y + scrollY, w: r.width, h: r.height}; };
  const sel = 'header button, header a, header select, header input, #lobby-view button, #lobby-view select, #lobby-view input, #lobby-view a';
  return {vw: innerWidth, sw: document.documentElement.scrollWidth,
          controls: [...document.querySelectorAll(sel)].filter(shown).map((el) => ({
              what: (el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + [...el.classList].join('.')) + ' ' + (el.textContent || el.value || '').slice(0, 20),
              ...box(el)}))};
}"""


@pytest.fixture(scope="module")
def lobby_page(browser: Browser, base_url: str):  # noqa: ANN201
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
    page = context.new_page()
    register(page, unique_name("size"))
    room = page.locator(".room[data-room=beginner]")
    room.locator("select").select_option("taipao")
    room.locator("button[type=submit]").click()
    expect(room.locator(".lobby-table.mine .invite-url")).to_be_visible()
    yield page
    context.close()


def _resize(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=list(size))
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_lobby_fits_every_size(lobby_page: Page, artifacts: Path, size: tuple[int, int]) -> None:
    page = lobby_page
    _resize(page, size)
    page.screenshot(path=artifacts / f"lobby-{size[0]}x{size[1]}.png", full_page=True)
    m = page.evaluate(_CONTROLS)
    assert m["sw"] <= m["vw"] + 1, f"{size}: the lobby scrolls sideways ({m['sw']} > {m['vw']})"
    controls = m["controls"]
    assert any(".fill-bots" in c["what"] for c in controls) and any(".copy-invite" in c["what"] for c in controls)
    for i, a in enumerate(controls):
        assert a["x"] >= -1 and a["x"] + a["w"] <= m["vw"] + 1, f"{size}: {a['what']} is off screen: {a}"
        for b in controls[i + 1:]:
            assert not _overlap(a, b), f"{size}: {a['what']} overlaps {b['what']}: {a} {b}"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_result_fits_every_size(lobby_page: Page, artifacts: Path, size: tuple[int, int]) -> None:
    page = lobby_page
    _resize(page, size)
    m = page.evaluate(_SHOW)
    screen = {"x": 0, "y": 0, "w": m["vw"], "h": m["vh"]}
    assert _inside(m["dialog"], screen), f"{size}: the dialog is off screen: {m['dialog']}"
    assert m["scrollW"] <= m["clientW"] + 1, f"{size}: the result scrolls sideways"
    for tile in m["tiles"]:
        assert _inside(tile, m["dialog"]) and _inside(tile, screen), f"{size}: a tile is clipped: {tile}"
    button = page.locator("#result-dialog .buttons button.next").bounding_box()
    assert button and _inside({"x": button["x"], "y": button["y"], "w": button["width"], "h": button["height"]}, screen)
    page.screenshot(path=artifacts / f"result-{size[0]}x{size[1]}.png")
    page.keyboard.press("Escape")
    expect(page.locator("#result-dialog")).to_be_hidden()


@pytest.fixture(scope="module")
def english_table(browser: Browser, base_url: str):  # noqa: ANN201
    """A practice table in English, whose words are the longest of the three languages."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="en-US")
    page = context.new_page()
    register(page, unique_name("en"))
    start_practice(page, "taipao")
    yield page
    context.close()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_table_fits_every_size_in_english(english_table: Page, artifacts: Path, size: tuple[int, int]) -> None:
    page = english_table
    _resize(page, size)
    if page.locator("#result-dialog[open]").count():  # the hand may have ended meanwhile (timeouts)
        page.keyboard.press("Escape")
    page.screenshot(path=artifacts / f"table-taipao-en-{size[0]}x{size[1]}.png")
    m = page.evaluate(_MEASURE)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0] + 1, f"{size}: scrolls sideways"
    check_boxes(m, size)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_rules_page_fits_every_size(lobby_page: Page, artifacts: Path, size: tuple[int, int]) -> None:
    page = lobby_page
    _resize(page, size)
    page.goto("/#/rules/taipao")
    expect(page.locator(".rules-items tbody tr").first).to_be_visible()
    page.screenshot(path=artifacts / f"rules-{size[0]}x{size[1]}.png")
    wide = page.evaluate("""() => [...document.querySelectorAll('#rules-view *')]
        .filter((el) => el.getBoundingClientRect().right > innerWidth + 1).map((el) => el.tagName + '.' + el.className).slice(0, 5)""")
    assert wide == [], f"{size}: the rules page runs off the screen: {wide}"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0] + 1
    page.goto("/#/lobby")
