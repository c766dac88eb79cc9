"""Issue 13 "history and replays" at every listed screen size: the hands list and a replay at its end (all
hands face up), measured by element boxes (no sideways scrolling, the replay's controls inside the screen and
not overlapping, the board's tiles on screen).  Screenshots hands-WxH.png and replay-WxH.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import play_until_result, register, unique_name
from tests.e2e.test_e2e_layout import SIZES, _overlap
from tests.e2e.test_e2e_sizes import _resize

_REPLAY = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  return {sw: document.documentElement.scrollWidth,
          controls: [...document.querySelectorAll('.replay-bar > *')].filter(shown).map((el) => ({what: el.className, ...box(el)})),
          tiles: [...document.querySelectorAll('#replay-view .replay-board .tile')].filter(shown).map(box)};
}"""


@pytest.fixture(scope="module")
def finished(browser: Browser, base_url: str):  # noqa: ANN201
    """A player with one finished practice hand (fast bots), and that hand's id."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
    page = context.new_page()
    register(page, unique_name("sz"))
    page.locator("#bot-speed").select_option("fast")
    page.locator("[data-practice=tiantai]").click()
    expect(page.locator(".table")).to_have_attribute("data-variant", "tiantai")
    play_until_result([page], timeout=180, claim=False)
    page.goto("/#/hands")
    rows = page.locator(".hands-list tbody tr")
    expect(rows.first).to_be_visible()
    yield page, rows.first.get_attribute("data-hand-id")
    context.close()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_hands_list_and_a_replay_fit_every_size(finished, artifacts: Path, size: tuple[int, int]) -> None:  # noqa: ANN001
    page, hand_id = finished
    _resize(page, size)
    page.goto("/#/hands")
    expect(page.locator(".hands-list tbody tr").first).to_be_visible()
    page.screenshot(path=artifacts / f"hands-{size[0]}x{size[1]}.png")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0] + 1, f"{size}: the list scrolls sideways"

    page.goto(f"/#/hand/{hand_id}")
    expect(page.locator(".replay-bar .verified")).to_have_attribute("data-verified", "true")
    page.locator(".replay-bar button.last").click()
    expect(page.locator(".replay-bar button.next")).to_be_disabled()
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.screenshot(path=artifacts / f"replay-{size[0]}x{size[1]}.png")
    m = page.evaluate(_REPLAY)
    assert m["sw"] <= size[0] + 1, f"{size}: the replay scrolls sideways"
    controls = m["controls"]
    for i, a in enumerate(controls):
        assert a["x"] >= -1 and a["x"] + a["w"] <= size[0] + 1, f"{size}: {a['what']} is off screen: {a}"
        for b in controls[i + 1:]:
            assert not _overlap(a, b), f"{size}: {a['what']} overlaps {b['what']}"
    assert m["tiles"], "the replay shows no tiles"
    for tile in m["tiles"]:
        assert tile["x"] >= -1 and tile["x"] + tile["w"] <= size[0] + 1, f"{size}: a replay tile is off screen: {tile}"
