"""Issue 13, at a coin table with three browsers: presence is right for everyone (defect 1), and a hand's
result gives way to the next hand and reopens from the top bar (defect 2, as issue 33 item 5 amends it)."""

from __future__ import annotations

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
        for taken, page in enumerate(pages[1:], start=1):
            row_here = page.locator(f".lobby-table[data-table-id='{table_id}']")
            expect(row_here.locator("span.seat")).to_have_count(taken)  # its first empty seat is really empty
            seat = row_here.locator("button.seat.empty").first
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


def test_the_result_gives_way_to_the_next_hand_and_reopens(trio: list[Page], artifacts: Path) -> None:
    # Issue 33 item 5 replaces an earlier rule (issue 13's defect 2, "the result stays open over the next hand"):
    # the open result blocked the next hand's tiles, so it closes when the next hand starts, on every page,
    # and the 結果 button in the top bar still brings the same hand's result back (defect 2's other half).
    play_until_result(trio, timeout=180)
    first = trio[0]
    title = first.locator("#result-title").inner_text()
    hand = first.evaluate("() => window.__mj.state().hand_no")
    first.wait_for_function(f"() => window.__mj.state().hand_no > {hand}", timeout=30_000)
    for page in trio:
        expect(page.locator("#result-dialog")).to_be_hidden()  # the table, its tiles and "your turn" show
    first.screenshot(path=artifacts / "next-hand-after-result-1280x720.png")
    first.locator("#show-results").click()
    expect(first.locator("#result-dialog")).to_be_visible()
    expect(first.locator("#result-title")).to_have_text(title)
