"""Issue 25: quick play (快速開始) in four browsers.  Each presses quick play for 台灣16張 on the 初級 room
card; the waiting panel shows the elapsed time and cancel works; when the fourth queues, every browser
enters the same table by itself (with the matched sound) and the four play a hand to its result."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import api_get, play_until_result, registered_players

VARIANT = "taiwan"
_COUNT_MATCHED = """() => { window.__matchedToasts = 0;
  new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes) {
    if (n.classList?.contains('toast') && /配桌成功|Table found|配桌成功/.test(n.textContent)) window.__matchedToasts += 1;
  } }).observe(document.getElementById('toasts'), {childList: true}); }"""


def quick_play(page: Page, *, waits: bool = True) -> None:
    # 東風戰, the first of the two lengths (docs/rules/rooms.md#quick-play F-8)
    page.locator(f".room[data-room=beginner] button.quick[data-variant={VARIANT}][data-rounds='1']").click()
    if waits:  # the last player needed is matched at once: no time to wait
        expect(page.locator(".queue-panel")).to_be_visible()


def test_four_browsers_quick_play_land_at_one_table_and_play_a_hand(
    browser: Browser, base_url: str, artifacts: Path
) -> None:
    with registered_players(browser, base_url, 4, "q") as pages:
        first = pages[0]
        quick_play(first)
        # The waiting panel counts up, and the room card shows one player waiting in the pool (lobby push).
        elapsed = first.locator("#queue-elapsed")
        expect(elapsed).to_contain_text("00:0")
        expect(elapsed).not_to_have_text(elapsed.inner_text(), timeout=5_000)
        counts = pages[1].locator(f".room[data-room=beginner] .quick-variant[data-quick={VARIANT}] .quick-counts")
        expect(counts).to_have_attribute("data-queued", "1", timeout=10_000)
        first.screenshot(path=str(artifacts / "quickplay-waiting.png"))
        # Cancel: the panel goes, the server agrees, and the pool is empty again.
        first.locator(".queue-cancel").click()
        expect(first.locator(".queue-panel")).to_have_count(0)
        assert api_get(first, "/api/me/queue")["queued"] is False
        expect(counts).to_have_attribute("data-queued", "0", timeout=10_000)

        for page in pages:  # every 配桌成功 toast shown from here on (issue 33 item 5: once, not twice)
            page.evaluate(_COUNT_MATCHED)
        for i, page in enumerate(pages):
            quick_play(page, waits=i < 3)
        for page in pages:  # every browser is taken to the table by itself
            expect(page.locator("#table-view")).to_be_visible(timeout=30_000)
            expect(page.locator(".table")).to_have_attribute("data-variant", VARIANT)
        table_ids = {api_get(page, "/api/me/queue")["table_id"] for page in pages}
        assert len(table_ids) == 1 and None not in table_ids
        table = api_get(pages[0], f"/api/tables/{table_ids.pop()}")
        assert table["room"] == "beginner" and table["status"] == "playing"
        assert sorted(s["user_id"] for s in table["seats"]) == sorted(
            api_get(page, "/api/me")["id"] for page in pages)
        for page in pages:
            assert "matched" in page.evaluate("() => window.__mj.sounds()")
        pages[0].wait_for_timeout(1500)  # a second announcement (the lobby's table update) would be here by now
        for page in pages:
            assert page.evaluate("() => window.__matchedToasts") == 1, "the 配桌成功 toast did not show exactly once"
            assert page.evaluate("() => window.__mj.sounds()").count("matched") == 1

        play_until_result(pages)
        pages[0].screenshot(path=str(artifacts / "quickplay-result.png"))
