"""Issue 13 features: the hands list, a replay stepped through to the end with the wall commitment verified
in the browser, the shareable link opened by another player, and the lobby's progress panel."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, Route, expect

from tests.e2e.helpers import play_until_result, register, token, unique_name


def test_a_finished_hand_is_listed_and_replays_to_the_end(page: Page, browser: Browser, base_url: str,
                                                           artifacts: Path) -> None:
    register(page, unique_name("hist"))
    page.locator("[data-practice=tiantai]").click()
    expect(page.locator(".table")).to_have_attribute("data-variant", "tiantai")
    play_until_result([page], timeout=150)
    # Leave the practice table now: its bots (and this seat on 托管 once the page leaves) would otherwise play
    # on, and a second hand finished while the test reads the list would change every count below.
    table_id = page.evaluate("() => window.__mj.state().table.id")
    left = page.request.post(f"/api/tables/{table_id}/stand", headers={"Authorization": f"Bearer {token(page)}"})
    assert left.ok, left.text()

    # The hands list (top bar link from the lobby): the hand, with its result and a replay link.
    page.goto("/#/lobby")
    page.locator("#hands-link").click()
    rows = page.locator(".hands-list tbody tr")
    expect(rows).to_have_count(1)
    hand_id = rows.first.get_attribute("data-hand-id")
    rows.first.locator("a.replay-link").click()
    expect(page).to_have_url(f"{base_url}/#/hand/{hand_id}")

    # The replay: verified in this browser, stepped forward and back, then to the end with every hand face up.
    expect(page.locator(".replay-bar .verified")).to_have_attribute("data-verified", "true")
    step = page.locator(".replay-bar .step")
    expect(step).to_have_attribute("data-step", "0")
    expect(page.locator(".replay-action")).to_contain_text("開局")
    expect(page.locator("#replay-view .plate.me")).to_have_count(1)  # its player sees their own seat as "you"
    page.locator(".replay-bar button.next").click()
    expect(step).to_have_attribute("data-step", "1")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_attribute("data-step", "1")
    jump = page.locator(".replay-bar select.jump")
    first_discard = jump.locator("option").nth(1).get_attribute("value")
    jump.select_option(first_discard)
    expect(step).to_have_attribute("data-step", first_discard)
    board = page.locator("#replay-view")
    expect(board.locator(".river-area .tile")).to_have_count(1)
    page.locator(".replay-bar button.last").click()
    expect(page.locator(".replay-bar button.next")).to_be_disabled()
    expect(board.locator(".table")).to_have_class("table n3 phase-ended")
    hidden = page.evaluate("() => [...document.querySelectorAll('#replay-view .hand-area .tile.back')]"
                           ".filter((t) => !t.closest('.meld')).length")
    assert hidden == 0  # all hands face up (a 暗槓 keeps its two backs at the ends, as at the table)
    page.screenshot(path=artifacts / "replay-end-1280x720.png")

    # The shareable link follows the hand-record rule: another player (not of this hand) is refused in words.
    other = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
    try:
        viewer = other.new_page()
        register(viewer, unique_name("view"))
        viewer.goto(f"/#/hand/{hand_id}")
        expect(viewer.locator(".toast.error")).to_be_visible()
        expect(viewer.locator(".replay-bar")).to_have_count(0)
    finally:
        other.close()
    page.reload()  # the link itself, opened afresh by its player
    page.goto("/#/lobby")
    page.goto(f"/#/hand/{hand_id}")
    expect(page.locator(".replay-bar .step")).to_have_attribute("data-step", "0")

    # The lobby's progress panel counts the hand and shows the title ladder and the boards.
    page.goto("/#/lobby")
    panel = page.locator(".card.progress")
    expect(panel.locator(".stats dd").first).to_have_text("1")
    expect(panel.locator(".ladder .title-now")).to_have_text("白板")
    panel.locator(".tab-all").click()
    expect(panel.locator(".tab-all")).to_have_attribute("aria-selected", "true")



def test_a_navigation_made_while_the_client_boots_is_not_overridden_by_the_live_table(page: Page) -> None:
    """Reloading beside a running table looks the table up to return to it; the hands list (or a replay link)
    opened while that lookup is in flight wins.  CI once showed the live table instead of the replay."""
    register(page, unique_name("boot"))
    page.locator("[data-practice=tiantai]").click()
    expect(page.locator(".table")).to_have_attribute("data-variant", "tiantai")
    held: list[Route] = []

    def hold(route: Route) -> None:  # the lookup waits until the test lets it through
        held.append(route)

    page.route("**/api/tables/*", hold)

    page.reload()
    _wait_for(page, lambda: held)
    page.goto("/#/hands")
    expect(page.locator("body")).to_have_attribute("data-view", "hands")
    held[0].continue_()  # the server's answer (seated, playing) arrives late
    page.unroute("**/api/tables/*")
    page.wait_for_load_state("networkidle")
    expect(page.locator("body")).to_have_attribute("data-view", "hands")
    assert page.url.endswith("#/hands")


def _wait_for(page: Page, condition) -> None:  # type: ignore[no-untyped-def]
    for _ in range(100):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the client never looked the live table up")
