"""Waits hints in the browser (issue 12): selecting a discard shows the waits it leaves; a ready hand shows
its waits with the copies still unseen; a practice table shows the normal bot's suggestion."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.e2e.helpers import close_result, play_step, register, unique_name

_PROMPT = "() => { const s = window.__mj.state(); return s.prompt ? {kind: s.prompt.kind, hints: s.prompt.hints ?? null," \
          " actions: s.prompt.actions.map((a) => a.kind)} : null; }"


# After the discard: the result dialog ("over"), or the strip's 聽牌： label with exactly the expected waits,
# taken from the client's state and the strip in the same instant (a bot's next move cannot slip between).
_STRIP = "() => ({label: document.querySelector('.hints .hint-label')?.textContent ?? null," \
         " waits: (window.__mj.state().waits ?? []).map((w) => w.tile)," \
         " shown: [...document.querySelectorAll('.hints .hint-wait')].map((e) => e.dataset.tile)})"
_READY = "(expected) => { if (document.querySelector('#result-dialog[open]')) return 'over';" \
         f" const s = ({_STRIP})(); const same = (a) => JSON.stringify(a) === JSON.stringify(expected);" \
         " return s.label === '聽牌：' && same(s.waits) && same(s.shown) ? s : null; }"


def _suggested_discard(page: Page, prompt: dict) -> None:
    """Play the suggestion (or the last tile): click it twice, as a player lifts then discards."""
    suggestion = (prompt["hints"] or {}).get("suggestion") or {}
    if suggestion.get("kind") in ("win", "kill_pig", "kong"):
        page.locator(f".actions .act-{suggestion['kind']}").first.click(timeout=1500)
        if suggestion["kind"] == "kong" and page.locator(".actions .choice").count():
            page.locator(".actions .choice").first.click(timeout=1500)
        return
    tile = suggestion.get("tile")
    selector = f".my-hand .tile[data-tile='{tile}']:not([disabled])" if tile else ".my-hand .tile:not([disabled])"
    page.locator(selector).last.dblclick(timeout=1500)


def test_selecting_a_discard_shows_its_waits_and_a_ready_hand_shows_its_own(page: Page, artifacts: Path) -> None:
    register(page, unique_name("hint"))
    page.locator("[data-practice=taiwan]").click()
    expect(page.locator("#table-view")).to_be_visible()
    deadline = time.monotonic() + 240
    shown = False
    while time.monotonic() < deadline and not shown:
        if page.locator("#result-dialog[open]").count():
            close_result(page)
            continue
        prompt = page.evaluate(_PROMPT)
        if not prompt:
            page.wait_for_timeout(20)
            continue
        try:
            if prompt["kind"] != "turn":
                play_step(page)  # wins, claims or passes as any player would
                continue
            expect(page.locator(".hints .hint-suggest")).to_be_visible()  # practice: the normal bot's play
            ready = prompt["hints"]["discard_waits"]
            if not ready or "discard" not in prompt["actions"]:
                _suggested_discard(page, prompt)
                continue
            choice = ready[0]
            tile = page.locator(f".my-hand .tile[data-tile='{choice['tile']}']:not([disabled])").last
            tile.click(timeout=1500)  # lift: the hints strip shows what this discard would leave
            strip = page.locator(".hints")
            # The tile by its name (issue 26 item 4: never the engine's code).
            name = page.evaluate("async (c) => (await import('/js/tiles.js')).tileName(c)", choice["tile"])
            expect(strip).to_contain_text(name)
            expect(strip).not_to_contain_text(choice["tile"])
            expect(strip.locator(".hint-wait")).to_have_count(len(choice["waits"]))
            for w in choice["waits"]:
                expect(strip.locator(f".hint-wait[data-tile='{w['tile']}'] .hint-count")).to_have_text(f"×{w['unseen']}")
            page.screenshot(path=str(artifacts / "hints-selected-discard.png"))
            tile.click(timeout=1500)  # discard it: now the hand is ready and shows its own waits
            expected = [w["tile"] for w in choice["waits"]]
            try:  # one look at state and strip together: the hand may end on this very discard (a win)
                seen = page.wait_for_function(_READY, arg=expected, timeout=10_000).json_value()
            except PlaywrightError as exc:
                raise AssertionError(f"after discarding {choice['tile']} the strip never showed 聽牌： "
                                     f"{expected}: {page.evaluate(_STRIP)}") from exc
            if seen == "over":
                continue  # somebody won at once: try again next hand
            page.screenshot(path=str(artifacts / "hints-ready.png"))
            shown = True
        except PlaywrightError:
            continue  # the table moved on under the pointer (a bot's win, the hand's end): look again
    assert shown, "no turn offered a discard that leaves the hand ready within the time limit"
