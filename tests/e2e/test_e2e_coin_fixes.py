"""Issue 13, at a coin table with three browsers: presence is right for everyone (defect 1), and a hand's
result stays open until dismissed while the next hand's countdown shows in it (defect 2)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import play_until_result, registered_players


@pytest.fixture(scope="module")
def trio(browser: Browser, base_url: str) -> Iterator[list[Page]]:
    """A creates a 初級 天台 table, then B sits, then C: the table fills and all three are taken to it."""
    with registered_players(browser, base_url, 3, "p") as pages:
        room = pages[0].locator(".room[data-room=beginner]")
        room.locator("select").select_option("tiantai")
        room.locator("button[type=submit]").click()
        table_id = room.locator(".lobby-table.mine").get_attribute("data-table-id")
        for page in pages[1:]:
            seat = page.locator(f".lobby-table[data-table-id='{table_id}'] button.seat.empty").first
            expect(seat).to_be_enabled()
            seat.click()
        for page in pages:
            expect(page.locator(".table")).to_have_attribute("data-variant", "tiantai", timeout=10_000)
        yield pages


def test_everyone_at_a_coin_table_sees_the_others_online(trio: list[Page]) -> None:
    # Defect 1: players who connected before the game started were never announced, so they showed 離線.
    for page in trio:
        expect(page.locator(".plate")).to_have_count(3)
        expect(page.locator(".plate[data-presence=offline]")).to_have_count(0, timeout=5000)
        expect(page.locator(".plate .badge.status")).to_have_count(0)
        # Defect 5: standing up from a coin game that is on is refused, so 離開 is not offered.
        expect(page.locator("#leave-table")).to_be_hidden()


def test_the_result_stays_open_with_the_next_hands_countdown(trio: list[Page], artifacts: Path) -> None:
    # Defect 2: the dialog closed itself when the next hand's first prompt arrived and could not be reopened.
    play_until_result(trio, timeout=180)
    hand = trio[0].evaluate("() => window.__mj.state().hand_no")
    # The next hand is dealt behind the dialog; whoever is asked first sees the countdown in the dialog.
    trio[0].wait_for_function(f"() => window.__mj.state().hand_no > {hand}", timeout=30_000)
    asked = None
    for _ in range(200):
        asked = next((p for p in trio if p.locator("#result-dialog[open] .waiting .timer").count()), None)
        if asked:
            break
        trio[0].wait_for_timeout(100)
    assert asked is not None, "no page showed the next hand's countdown in the result"
    for page in trio:
        expect(page.locator("#result-dialog")).to_be_visible()  # still open on every page
    secs = asked.locator("#result-dialog .waiting .timer .secs")
    expect(secs).to_have_text(re.compile(r"^\d+$"))
    asked.screenshot(path=artifacts / "result-waiting-1280x720.png")
    # Dismissed, it can be reopened from the top bar: the same hand's result.
    title = asked.locator("#result-title").inner_text()
    asked.locator("#result-dialog .to-table").click()
    expect(asked.locator("#result-dialog")).to_be_hidden()
    asked.locator("#show-results").click()
    expect(asked.locator("#result-title")).to_have_text(title)
