"""The operator / admin console (web/admin.html) in Chromium: find a player, adjust with a reason and see
the ledger entry, watch a live table as a spectator, open a finished hand in the players' replay board and
step through it (an operator too), void the hand once, freeze / unfreeze and set a role, read the audit log,
create a tournament; a player sees no console link and registers on the tournament page."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import PASSWORD, register, token, unique_name


async def _grant(database_url: str, user_id: int, role: str = "admin") -> None:
    from app.core.db import make_engine, make_sessionmaker
    from app.services.roles import Role, set_role

    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            await set_role(session, user_id=user_id, role=Role(role), actor_id=None, reason="e2e set-up")
    finally:
        await engine.dispose()


def _step_through_the_board(page: Page, artifacts: Path) -> None:
    """The console's replay is the players' board (index.html#/hand/ID embedded): the wall commitment checked
    in the browser, forward / back / jump to a discard, and at the end every hand face up."""
    board = page.frame_locator("#adm-board")
    step = board.locator(".replay-bar .step")
    expect(step).to_have_attribute("data-step", "0")
    expect(board.locator(".replay-bar .verified")).to_have_attribute("data-verified", "true")
    expect(board.locator(".topbar")).to_be_hidden()  # embedded: the board only
    expect(board.locator("#replay-view .plate")).to_have_count(3)
    expect(board.locator("#replay-view .plate.me")).to_have_count(0)  # the admin did not play it: no "(你)"
    board.locator(".replay-bar button.next").click()
    board.locator(".replay-bar button.next").click()
    expect(step).to_have_attribute("data-step", "2")
    board.locator(".replay-bar button.prev").click()
    expect(step).to_have_attribute("data-step", "1")
    jump = board.locator(".replay-bar select.jump")
    first_discard = jump.locator("option").nth(1).get_attribute("value")
    assert first_discard is not None
    jump.select_option(first_discard)
    expect(step).to_have_attribute("data-step", first_discard)
    expect(board.locator("#replay-view .river-area .tile")).to_have_count(1)
    board.locator(".replay-bar button.last").click()
    expect(board.locator(".replay-bar button.next")).to_be_disabled()
    expect(board.locator("#replay-view .table")).to_have_class(re.compile(r"\bphase-ended\b"))
    hidden = board.locator("#replay-view .hand-area .tile.back").evaluate_all(
        "(tiles) => tiles.filter((t) => !t.closest('.meld')).length")
    assert hidden == 0  # all hands face up (a 暗槓 keeps its backs, as at the table)
    page.screenshot(path=artifacts / "console-replay-1280x720.png")


def test_the_console(browser: Browser, live_server: str, live_database_url: str, artifacts: Path) -> None:
    boss_ctx = browser.new_context(base_url=live_server, locale="zh-TW", viewport={"width": 1280, "height": 720})
    player_ctx = browser.new_context(base_url=live_server, locale="zh-TW")
    oper_ctx = browser.new_context(base_url=live_server, locale="zh-TW")
    try:
        boss, player = boss_ctx.new_page(), player_ctx.new_page()
        boss_name, player_name = unique_name("boss"), unique_name("pl")
        register(boss, boss_name)
        register(player, player_name)
        expect(player.locator("#admin-link")).to_be_hidden()
        me = boss.request.get("/api/me", headers={"Authorization": f"Bearer {token(boss)}"}).json()
        # Playwright's sync API owns this thread's event loop: grant from another thread.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _grant(live_database_url, me["id"])).result()
        # The player opens a practice table (no socket: after the join wait the seat is played on 托管).
        table = player.request.post("/api/practice", headers={"Authorization": f"Bearer {token(player)}"},
                                    data={"variant": "tiantai"}).json()

        boss.reload()
        expect(boss.locator("#admin-link")).to_be_visible()
        boss.locator("#admin-link").click()
        expect(boss).to_have_url(re.compile(r"/admin\.html$"))

        # Find the player, adjust with a reason, see the ledger entry.
        boss.locator("#adm-prefix").fill(player_name)
        boss.locator("#adm-find button[type=submit]").click()
        boss.locator("#adm-results button").first.click()
        expect(boss.locator("#adm-coins")).to_have_text("50,000")
        expect(boss.locator("#adm-table")).to_have_text(table["id"])
        boss.locator("#adm-delta").fill("1234")
        boss.locator("#adm-reason").fill("goodwill e2e")
        boss.locator("#adm-adjust button[type=submit]").click()
        expect(boss.locator("#adm-adjusted")).not_to_be_empty()
        expect(boss.locator("#adm-coins")).to_have_text("51,234")
        first = boss.locator("#adm-ledger tr").first
        expect(first).to_contain_text("goodwill e2e")
        expect(first).to_contain_text("1,234")

        # Watch the practice table: a public snapshot (seat -1), then public events; then replay its hand.
        boss.locator('[data-tab="tables"]').click()
        expect(boss.locator(f'tr[data-table="{table["id"]}"]')).to_be_visible()
        boss.locator(f'[data-watch="{table["id"]}"]').click()
        expect(boss.locator("#adm-watch-seats li")).to_have_count(3)
        expect(boss.locator("#adm-watch-log li[data-event]").first).to_be_visible(timeout=60_000)
        replay_button = boss.locator("#adm-watch-log [data-replay]").first
        expect(replay_button).to_be_visible(timeout=90_000)
        replay_button.click()
        expect(boss.locator("#adm-replay")).to_be_visible()
        hand_id = boss.locator("#adm-hand-id").input_value()
        expect(boss.locator("#adm-replay-meta")).to_contain_text(f"#{hand_id}")
        _step_through_the_board(boss, artifacts)

        # Void the hand (an admin's button): once; a second try is refused in words.
        boss.once("dialog", lambda dialog: dialog.accept("broken wall e2e"))
        boss.locator("#adm-void").click()
        expect(boss.locator("#adm-voided")).to_contain_text(f"#{hand_id}")
        boss.once("dialog", lambda dialog: dialog.accept("double click"))
        boss.locator("#adm-void").click()
        expect(boss.locator("#adm-error")).to_have_text("這局已經作廢")

        # Freeze and unfreeze the player, make them an operator and a player again, from their detail.
        boss.locator('[data-tab="players"]').click()
        boss.locator("#adm-freeze").click()
        expect(boss.locator("#adm-frozen")).to_have_text("是")
        boss.locator("#adm-unfreeze").click()
        expect(boss.locator("#adm-frozen")).to_have_text("否")
        for role in ("operator", "player"):
            boss.locator("#adm-new-role").select_option(role)
            boss.locator("#adm-set-role").click()
            expect(boss.locator("#adm-role")).to_have_text(role)

        # An operator (not an admin, and not a player of the hand) opens the same hand from the console.
        oper = oper_ctx.new_page()
        register(oper, unique_name("oper"))
        oper_me = oper.request.get("/api/me", headers={"Authorization": f"Bearer {token(oper)}"}).json()
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _grant(live_database_url, oper_me["id"], "operator")).result()
        oper.goto("/admin.html")
        expect(oper.locator('[data-tab="players"]')).to_be_hidden()  # accounts are the admins' business
        expect(oper.locator("#adm-void")).to_be_hidden()  # so is voiding a hand
        oper.locator('[data-tab="replay"]').click()
        oper.locator("#adm-hand-id").fill(hand_id)
        oper.locator("#adm-replay-form button[type=submit]").click()
        board = oper.frame_locator("#adm-board")
        expect(board.locator(".replay-bar .step")).to_have_attribute("data-step", "0")
        board.locator(".replay-bar button.next").click()
        expect(board.locator(".replay-bar .step")).to_have_attribute("data-step", "1")
        expect(oper.locator("#adm-error")).to_be_empty()

        # The audit log shows the adjustment.
        boss.locator('[data-tab="audit"]').click()
        for action in ("balance.adjust", "hand.void", "account.freeze", "account.unfreeze", "role.set"):
            expect(boss.locator("#adm-audit")).to_contain_text(action)
        expect(boss.locator("#adm-audit")).to_contain_text("goodwill e2e")
        expect(boss.locator("#adm-audit")).to_contain_text("broken wall e2e")

        # Tournaments: create one from the form.
        boss.locator('[data-tab="tournaments"]').click()
        boss.locator("#adm-t-name").fill("E2E cup")
        boss.locator("#adm-tourney-form button[type=submit]").click()
        expect(boss.locator("#adm-tourneys")).to_contain_text("E2E cup")
        expect(boss.locator("#adm-tourneys")).to_contain_text("registering")

        # The freeze ended the player's sessions (issue 24): the reloaded page asks them to log in again.
        player.reload()
        expect(player.locator("#auth-form")).to_be_visible()
        player.locator("#auth-username").fill(player_name)
        player.locator("#auth-password").fill(PASSWORD)
        player.locator("#auth-submit").click()
        # The player finds it on the tournament page, registers, and is in the standings.
        player.locator("#tournaments-link").click()
        row = player.locator("#tp-list tr", has_text="E2E cup")
        row.click()
        player.locator("#tp-register").click()
        expect(player.locator("#tp-standings")).to_contain_text(player_name)
        expect(row).to_contain_text("1/6")
        expect(player.locator("#tp-unregister")).to_be_visible()
    finally:
        boss_ctx.close()
        player_ctx.close()
        oper_ctx.close()
