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

from tests.e2e.helpers import PASSWORD, give_reason, register, token, unique_name


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
        player_id = player.request.get("/api/me", headers={"Authorization": f"Bearer {token(player)}"}).json()["id"]
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

        # Find the player, adjust with a reason (asked in the console's dialog), see the ledger entry.
        boss.locator("#adm-prefix").fill(player_name)
        boss.locator("#adm-find button[type=submit]").click()
        boss.locator("#adm-results button").first.click()
        expect(boss.locator("#adm-coins")).to_have_text("50,000")
        expect(boss.locator("#adm-table")).to_have_text(table["id"])
        boss.locator("#adm-delta").fill("1234")
        boss.locator("#adm-adjust button[type=submit]").click()
        boss.locator("#adm-ask-ok").click()
        expect(boss.locator("#adm-ask-error")).to_have_text("請寫下原因")  # a blank reason is refused
        give_reason(boss, player_name, "goodwill e2e")
        expect(boss.locator("#adm-adjusted")).not_to_be_empty()
        expect(boss.locator("#adm-coins")).to_have_text("51,234")
        first = boss.locator("#adm-ledger tr").first
        expect(first).to_contain_text("goodwill e2e")
        expect(first).to_contain_text("1,234")

        # Watch the practice table: a public snapshot (seat -1), then public events; then replay its hand.
        boss.locator('[data-tab="tables"]').click()
        expect(boss.locator("#tab-tables thead th")).to_have_text(["牌桌", "玩法", "狀態", "座位", "局", "操作"])
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
        boss.locator("#adm-void").click()
        give_reason(boss, f"#{hand_id}", "broken wall e2e")
        expect(boss.locator("#adm-voided")).to_contain_text(f"#{hand_id}")
        boss.locator("#adm-void").click()
        give_reason(boss, f"#{hand_id}", "double click")
        expect(boss.locator("#adm-error")).to_have_text("這局已經作廢")

        # Freeze and unfreeze the player, make them an operator and a player again, from their detail.
        # Only the possible one of freeze / unfreeze is offered; going back from the dialog changes nothing.
        boss.locator('[data-tab="players"]').click()
        expect(boss.locator("#adm-unfreeze")).to_be_hidden()
        boss.locator("#adm-freeze").click()
        boss.locator("#adm-ask-back").click()
        expect(boss.locator("#adm-ask")).to_be_hidden()
        expect(boss.locator("#adm-frozen")).to_have_text("否")
        boss.locator("#adm-freeze").click()
        give_reason(boss, player_name, "chargeback e2e")
        expect(boss.locator("#adm-frozen")).to_have_text("是")
        expect(boss.locator("#adm-freeze")).to_be_hidden()
        boss.locator("#adm-unfreeze").click()
        give_reason(boss, player_name, "cleared e2e")
        expect(boss.locator("#adm-frozen")).to_have_text("否")
        for role in ("operator", "player"):
            boss.locator("#adm-new-role").select_option(role)
            boss.locator("#adm-set-role").click()
            give_reason(boss, role, f"e2e {role}")
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

        # The audit log shows every act with who did it on whom, by name, and each reason.
        boss.locator('[data-tab="audit"]').click()
        expect(boss.locator("#tab-audit thead th")).to_have_text(
            ["時間", "動作", "對象", "操作者", "之前", "之後", "原因"])
        for action in ("balance.adjust", "hand.void", "account.freeze", "account.unfreeze", "role.set"):
            expect(boss.locator("#adm-audit")).to_contain_text(action)
        for reason in ("goodwill e2e", "broken wall e2e", "chargeback e2e", "cleared e2e", "e2e operator"):
            expect(boss.locator("#adm-audit")).to_contain_text(reason)
        freeze_row = boss.locator("#adm-audit tr", has_text="chargeback e2e")
        expect(freeze_row).to_contain_text(f"{player_name} (user {player_id})")  # the target, by name
        expect(freeze_row).to_contain_text(f"{boss_name} (#{me['id']})")  # the actor, by name
        grant_row = boss.locator("#adm-audit tr", has_text="e2e set-up").first
        expect(grant_row).to_contain_text("命令行")  # an act with no actor came from the command line
        # An empty list says so.
        boss.locator("#adm-audit-action").fill("no.such.action")
        boss.locator("#adm-audit-form button[type=submit]").click()
        expect(boss.locator("#adm-audit tr[data-empty]")).to_have_text("沒有記錄")

        # Tournaments: create one from the form, which has every field the API takes.
        boss.locator('[data-tab="tournaments"]').click()
        for field in ("name", "room", "variant", "fee", "players", "rounds", "hands", "split", "guarantee", "opens",
                      "start", "options"):
            expect(boss.locator(f"#adm-t-{field}")).to_be_visible()
        boss.locator("#adm-t-name").fill("E2E cup")
        boss.locator("#adm-t-options").fill("{not json")
        boss.locator("#adm-tourney-form button[type=submit]").click()
        expect(boss.locator("#adm-error")).to_have_text("牌桌設定不是有效的 JSON")
        boss.locator("#adm-t-options").fill('{"rounds": 1}')
        boss.locator("#adm-tourney-form button[type=submit]").click()
        cup = boss.locator("#adm-tourneys tr", has_text="E2E cup")
        expect(cup).to_contain_text("報名中")
        expect(cup.locator("[data-action]")).to_have_count(3)  # start, cancel, report
        # Registration opening later: scheduled, and it cannot be started before it opens.
        boss.locator("#adm-t-name").fill("E2E later")
        boss.locator("#adm-t-opens").fill("2099-01-01T12:00")
        boss.locator("#adm-t-start").fill("2099-01-02T12:00")
        boss.locator("#adm-tourney-form button[type=submit]").click()
        later = boss.locator("#adm-tourneys tr", has_text="E2E later")
        expect(later).to_contain_text("未開放報名")
        expect(later.locator('[data-action="start"]')).to_have_count(0)

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

        # The operator cancels it with a reason: it still lists its entrant and the refund, and offers only
        # the report now.
        boss.locator('[data-tab="tables"]').click()
        boss.locator('[data-tab="tournaments"]').click()
        cup.locator('[data-action="cancel"]').click()
        give_reason(boss, "E2E cup", "rained out e2e")
        expect(cup).to_contain_text("已取消")
        expect(cup).to_contain_text(f"已退款：{player_name} 1,000")
        expect(cup.locator("[data-action]")).to_have_count(1)
        boss.screenshot(path=artifacts / "console-tournaments-1280x720.png")
    finally:
        boss_ctx.close()
        player_ctx.close()
        oper_ctx.close()
