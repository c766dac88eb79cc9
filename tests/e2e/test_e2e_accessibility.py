"""Issue 33 item 5, accessibility measured with axe-core (npm, node_modules/axe-core, installed by npm ci): every
player screen (sign-in, lobby, table, hand result, final standings, hands list, replay, rules) at phone (390×844)
and desktop (1280×720) size in each language has no serious or critical violation, and every screen has an <h1>.
The hand result is drawn anew in each language and audited at all four sizes of the phone-table tests.

axe-core is injected into the page (the context bypasses the app's CSP for that one script); the app itself
loads nothing new."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import register, unique_name
from tests.e2e.test_e2e_game import open_short_practice, play_to_standings
from tests.e2e.test_e2e_phone import _SHOW
from tests.e2e.test_e2e_phone_table import LANGS, _resize, set_language
from tests.e2e.test_e2e_phone_table import SIZES as ALL_SIZES
from tests.test_i18n_tables import load_strings

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(390, 844), (1280, 720)]

_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').split('\\n').slice(0, 2).join(' ')),
  }));
}"""


def _audit(page: Page, screen: str, render: Callable[[str], None] | None = None,
           sizes: list[tuple[int, int]] = SIZES) -> list[str]:
    """axe's serious and critical findings on the page now, at each size and language, with where they are.
    ``render(lang)``, when given, draws the screen again after each switch of language (a screen the test drew
    itself, which the language switch does not redraw)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = []
    for size in sizes:
        _resize(page, size)
        for lang in LANGS:
            set_language(page, lang)
            if render:
                render(lang)
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            expect(page.locator(".view:not([hidden]) h1"), f"{screen} {size} {lang}: one <h1>").to_have_count(1)
            page.wait_for_function("() => !document.querySelector('.view:not([hidden]) .loading')")
            for v in page.evaluate(_RUN):
                found.append(f"{screen} {size[0]}x{size[1]} {lang}: {v['id']} ({v['impact']}) {v['help']}: "
                             + json.dumps(v["nodes"], ensure_ascii=False))
    return found


@pytest.fixture
def axe_page(browser: Browser, base_url: str):  # noqa: ANN201
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run npm ci (make test and .ci/run do)")
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW",
                                  bypass_csp=True)
    yield context.new_page()
    context.close()


def test_no_player_screen_has_a_serious_accessibility_violation(axe_page: Page, artifacts: Path) -> None:
    page = axe_page
    found: list[str] = []
    page.goto("/")
    expect(page.locator("#auth-view")).to_be_visible()
    found += _audit(page, "sign-in")
    register(page, unique_name("axe"))
    expect(page.locator(".card.progress")).to_be_visible()
    found += _audit(page, "lobby")
    page.goto("/#/rules/taiwan")
    expect(page.locator("#rules-view h1")).to_be_visible()
    found += _audit(page, "rules")
    page.goto("/#/lobby")
    open_short_practice(page, "tiantai", hands=2)
    expect(page.locator(".my-hand .tile").first).to_be_visible()
    found += _audit(page, "table")
    play_to_standings(page, artifacts, "axe")
    expect(page.locator("#result-dialog[open] .standings")).to_be_visible()
    found += _audit(page, "standings")
    page.locator("#result-dialog button.lobby").click()
    expect(page.locator("#lobby-view")).to_be_visible()
    page.goto("/#/hands")
    expect(page.locator(".hands-list tbody tr").first).to_be_visible()
    found += _audit(page, "hands")
    page.locator("a.replay-link").first.click()
    expect(page.locator(".replay-bar")).to_be_visible()
    found += _audit(page, "replay")
    page.locator(".replay-bar button.last").click()
    found += _audit(page, "replay-end")
    assert found == [], "\n".join(found)


def test_the_hand_result_has_no_serious_accessibility_violation_in_any_language(axe_page: Page) -> None:
    """A hand's result as the table shows it (a 16-tile win, items, payments worked out: render/result.js), drawn
    anew in each language (a switch does not redraw a result the test drew) and audited in each, at the four
    sizes (390×844, 360×740, 844×390, 1280×720)."""
    page = axe_page
    register(page, unique_name("axeres"))
    points = load_strings()["result.points"]

    def show(lang: str) -> None:
        page.evaluate(_SHOW)
        expect(page.locator("#result-dialog[open] .payments thead")).to_contain_text(points[lang])

    found = _audit(page, "result", render=show, sizes=ALL_SIZES)
    page.keyboard.press("Escape")
    expect(page.locator("#result-dialog")).to_be_hidden()
    assert found == [], "\n".join(found)
