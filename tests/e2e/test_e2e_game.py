"""Issue 26, the table as a game: a whole (short) practice game of each variant played in the browser to its
final standings; the standings come back after a reload and "play again" opens a new table of the same kind;
the plates keep each seat's running total; and no visible string of a played hand, its result or its replay
shows an engine tile code (``1z``, ``5m``) in any of the three languages.

The games are short practice games (``hands``, two hands each) at the fast practice pace, so the three
take about a minute together on a quiet machine.  Screenshots: test-artifacts/game-*.png.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import api_get, close_result, play_step, register, token, unique_name

SEATS = {"tiantai": 3, "taipao": 4, "taiwan": 4}
LANGS = ["zh-Hans", "zh-Hant", "en"]
# A tile code as the engine writes it: a digit and a suit letter, standing alone ("1z", "5m"), or a run of
# them ("1m2m3m").  Not "5s" of a countdown: the table's timer shows bare numbers.
CODE = re.compile(r"(?<![0-9A-Za-z])(?:[1-9][mpszf])+(?![0-9A-Za-z])")

# Every string a player can read on the page now: visible text, and the names and tooltips of visible
# elements (what a screen reader says, what a hover shows).
_STRINGS = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
      && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden]'); };
  const out = [document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], option')) {
    if (!shown(el) && el.tagName !== 'OPTION') continue;
    for (const a of ['aria-label', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    if (el.tagName === 'OPTION') out.push(el.textContent);
  }
  return out;
}"""


def code_tokens(page: Page) -> list[str]:
    """Every code-shaped tile token a player could read on the page now, each with the words around it."""
    found = set()
    for text in page.evaluate(_STRINGS):
        for m in CODE.finditer(text or ""):
            found.add(f"{m.group()} in {text[max(0, m.start() - 30):m.end() + 30]!r}")
    return sorted(found)


def set_lang(page: Page, lang: str) -> None:
    page.locator(f"#lang-switch [data-lang={lang}]").click()
    expect(page.locator(f"#lang-switch [data-lang={lang}]")).to_have_attribute("aria-pressed", "true")


def open_short_practice(page: Page, variant: str, hands: int = 2) -> str:
    """A short practice game at the fast pace (POST /api/practice with ``hands``), opened in the page."""
    made = page.request.post("/api/practice", headers={"Authorization": f"Bearer {token(page)}"},
                             data={"variant": variant, "hands": hands, "bot_speed": "fast"})
    assert made.status == 201, made.text()
    table_id = str(made.json()["id"])
    page.evaluate("(id) => { location.hash = '#/table/' + id; }", table_id)
    expect(page.locator(".table")).to_have_attribute("data-variant", variant)
    return table_id


def play_to_standings(page: Page, artifacts: Path, tag: str, timeout_steps: int = 6000) -> list[str]:
    """Click through the game until the final standings show; returns the code tokens seen on the way."""
    seen: set[str] = set()
    results = 0
    for step in range(timeout_steps):
        if page.locator("#result-dialog[open] .standings").count():
            return sorted(seen)
        what = play_step(page, claim=True)
        if what == "result":
            seen.update(code_tokens(page))
            if results == 0:
                page.screenshot(path=artifacts / f"game-{tag}-result.png")
            results += 1
            close_result(page)
            page.wait_for_timeout(30)
        elif step % 25 == 0:
            seen.update(code_tokens(page))
            if step == 50:
                page.screenshot(path=artifacts / f"game-{tag}-table.png")
        if what is None:
            page.wait_for_timeout(15)
    raise AssertionError("the game did not reach its final standings")


GAMES = [("tiantai", "zh-Hans", (390, 844)), ("taipao", "zh-Hant", (360, 640)), ("taiwan", "en", (1280, 720))]


@pytest.mark.parametrize(("variant", "lang", "size"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_practice_game_ends_in_final_standings(browser: Browser, base_url: str, artifacts: Path,
                                                       variant: str, lang: str, size: tuple[int, int]) -> None:
    context = browser.new_context(base_url=base_url, viewport={"width": size[0], "height": size[1]}, locale="zh-TW")
    page = context.new_page()
    try:
        register(page, unique_name("game"))
        set_lang(page, lang)
        table_id = open_short_practice(page, variant)
        tag = f"{variant}-{lang}-{size[0]}x{size[1]}"
        tokens = play_to_standings(page, artifacts, tag)
        assert tokens == [], f"tile codes shown to the player: {tokens}"

        standings = page.locator("#result-dialog[open] .standings")
        rows = standings.locator(".standing")
        expect(rows).to_have_count(SEATS[variant])
        page.screenshot(path=artifacts / f"game-{tag}-standings.png")
        places = [int(p or 0) for p in rows.evaluate_all("els => els.map(e => e.dataset.place)")]
        assert places == sorted(places) and places[0] == 1, places
        # The plates' running totals are the game's totals the standings show.
        totals = page.evaluate("() => window.__mj.state().game_over.points")
        plates = page.evaluate("() => window.__mj.state().table.game_points")
        assert plates == totals
        shown = {int(s): int(p) for s, p in rows.evaluate_all(
            "els => els.map(e => [e.dataset.seat, e.dataset.place])")}
        for seat, place in shown.items():  # place = 1 + how many seats scored more
            assert place == 1 + sum(t > totals[seat] for t in totals)
        expect(page.locator(".plate .plate-score")).to_have_count(SEATS[variant])

        # A reload brings the same standings back; play again opens a new practice table of the variant.
        page.reload()
        expect(page.locator("#result-dialog[open] .standings")).to_be_visible()
        expect(page.locator("#result-dialog .standing")).to_have_count(SEATS[variant])
        page.locator("#result-dialog button.again").click()
        expect(page.locator(".table")).to_have_attribute("data-variant", variant)
        new_id = page.evaluate("() => window.__mj.state().table?.id")
        expect(page.locator(".my-hand .tile").first).to_be_visible()
        new_id = page.evaluate("() => window.__mj.state().table.id")
        assert new_id and new_id != table_id
        page.reload()  # dismissed by "play again": not shown again
        expect(page.locator(".table")).to_have_attribute("data-variant", variant)
        expect(page.locator("#result-dialog .standings")).to_have_count(0)
    finally:
        context.close()


def test_no_tile_codes_in_a_replay_in_any_language(page: Page, artifacts: Path) -> None:
    register(page, unique_name("replay"))
    open_short_practice(page, "taiwan", hands=1)
    play_to_standings(page, artifacts, "replay-source")
    hands = api_get(page, "/api/me/hands")
    hand_id = (hands["items"] if isinstance(hands, dict) else hands)[0]["id"]
    page.locator("#result-dialog button.lobby").click()
    page.evaluate("(id) => { location.hash = '#/hand/' + id; }", hand_id)
    expect(page.locator(".replay-bar")).to_be_visible()
    total = int(page.locator(".replay-bar .scrub").get_attribute("max") or 0)
    for lang in LANGS:
        set_lang(page, lang)
        for step in sorted({1, total // 3, (2 * total) // 3, total}):
            page.locator(".replay-bar .scrub").fill(str(step))
            expect(page.locator(".replay-bar .step")).to_have_attribute("data-step", str(step))
            assert code_tokens(page) == [], f"{lang}, step {step}: {code_tokens(page)}"
        page.screenshot(path=artifacts / f"game-replay-{lang}.png")
