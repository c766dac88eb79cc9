"""Issue 13 "pace" and defect 2's second half: the practice bots' speed is a setting the browser remembers and
the table is opened with, and every finished hand of the visit stays reachable from the result (‹ ›)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import api_get, close_result, play_until_result, register, unique_name


def test_fast_bots_are_remembered_and_every_result_of_the_visit_stays_reachable(page: Page) -> None:
    register(page, unique_name("pace"))
    speed = page.locator("#bot-speed")
    expect(speed).to_have_value("normal")
    speed.select_option("fast")
    page.reload()
    expect(page.locator("#bot-speed")).to_have_value("fast")  # remembered by this browser
    page.locator("[data-practice=taiwan]").click()
    expect(page.locator(".table")).to_have_attribute("data-variant", "taiwan")
    table_id = page.evaluate("() => window.__mj.state().table.id")
    assert api_get(page, f"/api/tables/{table_id}")["bot_speed"] == "fast"  # the table was opened with it

    titles = []
    for _ in range(2):
        play_until_result([page], timeout=240, claim=False)
        titles.append(page.locator("#result-title").inner_text())
        close_result(page)
    assert titles[0] != titles[1]
    # The second result is open; the first is one step back, and the top bar's 結果 reopens the last.
    dialog = page.locator("#result-dialog")
    if not page.locator("#result-dialog[open]").count():
        page.locator("#show-results").click()
    # Counted by hand number, like the result's title (issue 26 item 11).
    expect(dialog.locator(".pager span")).to_have_attribute("data-index", "2")
    pager = dialog.locator(".pager span").inner_text()
    assert re.fullmatch(r"第 (\d+) / \1 局", pager) and pager.split()[1] in titles[1], (pager, titles)
    dialog.locator(".pager button.prev").click()
    expect(page.locator("#result-title")).to_have_text(titles[0])
    expect(dialog.locator(".pager button.prev")).to_be_disabled()
    dialog.locator(".pager button.next-result").click()
    expect(page.locator("#result-title")).to_have_text(titles[1])
    # A reload keeps this tab's earlier results of the table (the server re-sends only the last).
    page.reload()
    expect(page.locator(".table")).to_have_attribute("data-variant", "taiwan")
    if not page.locator("#result-dialog[open]").count():
        page.locator("#show-results").click()
    expect(page.locator("#result-dialog .pager span")).to_have_attribute("data-index", "2")
