"""A new player registers, plays a practice hand of every variant by clicking, and sees the result."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import (
    api_get,
    close_result,
    play_step,
    play_until_result,
    register,
    table_look,
    unique_name,
)

VARIANT_NAMES = ["tiantai", "taipao", "taiwan"]
SEATS = {"tiantai": 3, "taipao": 4, "taiwan": 4}


def start_practice(page: Page, variant: str) -> None:
    page.locator(f"[data-practice={variant}]").click()
    expect(page.locator("#table-view")).to_be_visible()
    expect(page.locator(".table")).to_have_attribute("data-variant", variant)
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "open")


def play_some_turns(page: Page, turns: int) -> None:
    """Discard a few times (passing on claims) so that the rivers have tiles for the screenshot."""
    done = 0
    for _ in range(600):
        if done >= turns or page.locator("#result-dialog[open]").count():
            return
        if play_step(page, claim=False) == "discard":
            done += 1
        page.wait_for_timeout(20)


def wait_for_own_turn(page: Page) -> bool:
    """Pass on claims until this seat has drawn and the table waits on its discard (so nothing moves while
    the layout is checked: a claim prompt times out in a few seconds and the bots may end the hand behind
    the check).  False if the hand ended first."""
    for _ in range(600):
        look = table_look(page)
        if look["result"]:
            return False
        if look["drawn"]:
            return True
        if "pass" in look["buttons"]:
            play_step(page, claim=False)
        page.wait_for_timeout(20)
    return False


def check_table_layout(page: Page, variant: str) -> None:
    n = SEATS[variant]
    expect(page.locator(f".table.n{n}")).to_have_count(1)
    expect(page.locator(".hand-area")).to_have_count(n - 1)  # the others; you are the bottom row
    expect(page.locator(".river-area")).to_have_count(n)
    expect(page.locator(".plate")).to_have_count(n)
    expect(page.locator(".plate.me.side-bottom")).to_have_count(1)
    # Every tile has a label in words such as "五萬" (never the engine's code); others' concealed tiles are backs.
    labels = page.locator(".my-hand .tile").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(x and not re.search(r"[1-9][mpszf]", x) for x in labels), labels
    if page.evaluate("() => window.__mj.state().view?.phase") != "ended":
        assert page.locator(".hand-area .tile.back").count() > 0
    expect(page.locator(".core .wall")).to_be_visible()
    # The wall commitment sits behind an info button that explains fairness in one sentence.
    expect(page.locator(".core .commitment")).to_have_count(0)
    page.locator(".core .fairness-button").click()
    note = page.locator(".fairness-note")
    expect(note.locator(".commitment code")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    expect(note).to_contain_text("承諾")
    note.locator("button.close").click()
    expect(note).to_have_count(0)
    if variant == "taipao":
        expect(page.locator(".core .wildcards .tile")).not_to_have_count(0)  # 財神 faces


def check_result(page: Page, variant: str) -> None:
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_contain_text("本局結果")
    expect(dialog.locator(".summary tbody tr")).to_have_count(SEATS[variant])
    expect(dialog.locator(".fairness .seed")).to_have_text(re.compile(r"^[0-9a-f]{32,}$"))
    winners = dialog.locator(".winning-hand")
    if winners.count():
        # Scoring items carry their Chinese names and their 台 / 胡 (a 台灣 hand may score 0 台: 底 only).
        expect(dialog.locator(".scores .score-seat").first).to_be_visible()
        for value in dialog.locator(".scores tbody td.num").all_inner_texts():
            assert value.endswith(("台", "胡")), value
        expect(dialog.locator(".payments tbody tr").first).to_be_visible()
    else:
        expect(dialog.locator(".headline")).to_contain_text("流局")


def test_new_player_plays_a_practice_hand_of_each_variant(page: Page, artifacts: Path) -> None:
    register(page, unique_name("pr"))
    # The lobby: three rooms with stakes and entry; a room you cannot afford says so (50,000 coins).
    expect(page.locator(".room")).to_have_count(3)
    expect(page.locator(".room[data-room=beginner] .stake")).to_contain_text("100")
    expect(page.locator(".room[data-room=beginner] .cannot-afford")).to_have_count(0)
    expect(page.locator(".room[data-room=advanced] .cannot-afford")).to_contain_text("120,000")
    expect(page.locator(".room[data-room=advanced] button[type=submit]")).to_be_disabled()
    expect(page.locator("#me-coins")).to_have_text("50,000")
    expect(page.locator("#me-title")).to_have_text("白板")

    checked = []
    for variant in VARIANT_NAMES:
        start_practice(page, variant)
        play_some_turns(page, 4)
        if wait_for_own_turn(page):
            check_table_layout(page, variant)
            checked.append(variant)
        page.screenshot(path=artifacts / f"table-{variant}-1280x720.png")
        play_until_result([page], claim=True)
        check_result(page, variant)
        page.locator("#result-dialog").screenshot(path=artifacts / f"result-{variant}-1280x720.png")
        page.screenshot(path=artifacts / f"result-page-{variant}-1280x720.png")
        # Practice moves no coins; leave for the lobby and the next variant.
        close_result(page)
        page.locator("#leave-table").click()
        expect(page.locator("#lobby-view")).to_be_visible()
        expect(page.locator("#me-coins")).to_have_text("50,000")
    me = api_get(page, "/api/me")
    assert me["coins"] == 50_000
    assert checked, "no hand came back to this seat's turn, so no table layout was checked"


def test_phone_sized_table_and_result(browser: Browser, base_url: str, artifacts: Path) -> None:
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844}, locale="en-US",
                                  has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    try:
        register(page, unique_name("ph"))
        # English from the browser's language (locale en-US)
        expect(page.locator("#lang-switch [data-lang=en]")).to_have_attribute("aria-pressed", "true")
        start_practice(page, "taiwan")
        play_some_turns(page, 6)
        page.screenshot(path=artifacts / "table-taiwan-phone.png")
        # The whole table fits the screen: nothing of the own hand is cut off.
        box = page.locator(".my-hand").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, box
        play_until_result([page])
        expect(page.locator("#result-dialog h2")).to_contain_text("Hand result")
        page.screenshot(path=artifacts / "result-taiwan-phone.png")
    finally:
        context.close()


def test_reconnects_after_a_dropped_connection_and_shows_errors(page: Page) -> None:
    register(page, unique_name("rc"))
    start_practice(page, "taiwan")
    play_some_turns(page, 2)
    before = page.evaluate("() => window.__mj.state().view?.players[window.__mj.state().table.seat].concealed")
    v_before = page.evaluate("() => window.__mj.state().v")
    page.evaluate("() => window.__mj.drop()")
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "reconnecting")
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "open", timeout=10_000)
    # The snapshot after the reconnect shows the table as it is (same hand, same or later events).
    page.wait_for_function(f"() => window.__mj.state().synced && window.__mj.state().v >= {v_before}")
    after = page.evaluate("() => window.__mj.state().view?.players[window.__mj.state().table.seat].concealed")
    assert before is None or after is not None
    # A refused message is shown in words, not swallowed.
    page.evaluate("() => window.__mj.send({type: 'action', v: 0, action: {kind: 'pass'}})")
    expect(page.locator(".toast.error").last).to_contain_text("錯誤")
    # And the game goes on by clicking.
    play_until_result([page])


def test_stays_logged_in_across_reloads_and_switches_language(page: Page) -> None:
    name = unique_name("lg")
    register(page, name)
    page.locator("#lang-switch [data-lang=en]").click()
    expect(page.locator(".practice h3")).to_contain_text("Practice")
    page.reload()
    expect(page.locator("#me-name")).to_have_text(name)  # the token is in localStorage
    expect(page.locator(".practice h3")).to_contain_text("Practice")  # and so is the language
    page.locator("#lang-switch [data-lang=zh-Hant]").click()
    expect(page.locator(".practice h3")).to_contain_text("練習")
    # Wrong password: said in the player's language (not the server's English).
    page.locator("#logout").click()
    page.locator("#auth-username").fill(name)
    page.locator("#auth-password").fill("wrong password")
    page.locator("#auth-submit").click()
    expect(page.locator("#auth-error")).to_contain_text("帳號或密碼錯誤")


@pytest.mark.parametrize("variant", ["taiwan"])
def test_reload_mid_hand_returns_to_the_table(page: Page, variant: str) -> None:
    register(page, unique_name("rl"))
    start_practice(page, variant)
    play_some_turns(page, 1)
    page.reload()
    expect(page.locator("#table-view")).to_be_visible()
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "open")
    play_until_result([page])


def test_keyboard_discard_and_claim_shortcuts(page: Page) -> None:
    sent: list[dict] = []

    def watch(ws) -> None:  # noqa: ANN001 - playwright WebSocket
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)) if isinstance(payload, str) else None)

    page.on("websocket", watch)
    register(page, unique_name("kb"))
    start_practice(page, "tiantai")
    discards = 0
    for _ in range(600):
        if discards >= 3 or page.locator("#result-dialog[open]").count():
            break
        if page.locator(".actions .act-pass").count():
            page.keyboard.press(" ")  # the space bar passes a claim
        elif page.locator(".my-hand .tile:not([disabled])").count():
            # ← picks the right-most tile (the drawn one), ↑ discards it.
            page.keyboard.press("ArrowLeft")
            if page.locator(".my-hand .tile.selected").count():
                page.keyboard.press("ArrowUp")
                discards += 1
        page.wait_for_timeout(25)
    actions = [m["action"] for m in sent if m.get("type") == "action"]
    assert sum(a["kind"] == "discard" for a in actions) == discards, actions
    assert all(a["kind"] in ("discard", "pass") for a in actions), actions


def test_lobby_create_a_table_live_and_stand_up(browser: Browser, base_url: str) -> None:
    host_ctx = browser.new_context(base_url=base_url, locale="zh-TW")
    guest_ctx = browser.new_context(base_url=base_url, locale="zh-TW")
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        register(host, unique_name("ho"))
        register(guest, unique_name("gu"))
        room = host.locator(".room[data-room=beginner]")
        room.locator("select").select_option("taipao")
        room.locator("button[type=submit]").click()
        mine = room.locator(".lobby-table.mine")
        expect(mine.locator(".variant")).to_have_text("台炮")
        expect(mine.locator("button.seat.empty")).to_have_count(3)
        table_id = mine.get_attribute("data-table-id")
        # The guest's lobby shows it without a reload (lobby WebSocket), with the variant and the seats.
        row = guest.locator(f".lobby-table[data-table-id='{table_id}']")
        expect(row.locator(".status")).to_contain_text("1/4")
        # While seated, the host cannot open another table or practise.
        expect(host.locator("[data-practice=taiwan]")).to_be_disabled()
        mine.locator("button.stand").click()
        expect(row).to_have_count(0)  # nobody left: the table closed, live
        expect(host.locator("[data-practice=taiwan]")).to_be_enabled()
    finally:
        host_ctx.close()
        guest_ctx.close()
