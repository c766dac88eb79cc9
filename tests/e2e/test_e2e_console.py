"""The operator / admin console (web/admin.html) in Chromium: find a player, adjust with a reason and see
the ledger entry, watch a live table as a spectator, replay a finished hand step by step, read the audit
log, create a tournament; a player sees no console link and registers on the tournament page."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from tests.e2e.helpers import register, token, unique_name


async def _make_admin(database_url: str, user_id: int) -> None:
    from app.core.db import make_engine, make_sessionmaker
    from app.services.roles import Role, set_role

    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            await set_role(session, user_id=user_id, role=Role.ADMIN, actor_id=None, reason="e2e set-up")
    finally:
        await engine.dispose()


def test_the_console(browser: Browser, live_server: str, live_database_url: str) -> None:
    boss_ctx = browser.new_context(base_url=live_server, locale="zh-TW")
    player_ctx = browser.new_context(base_url=live_server, locale="zh-TW")
    try:
        boss, player = boss_ctx.new_page(), player_ctx.new_page()
        boss_name, player_name = unique_name("boss"), unique_name("pl")
        register(boss, boss_name)
        register(player, player_name)
        expect(player.locator("#admin-link")).to_be_hidden()
        me = boss.request.get("/api/me", headers={"Authorization": f"Bearer {token(boss)}"}).json()
        # Playwright's sync API owns this thread's event loop: grant from another thread.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _make_admin(live_database_url, me["id"])).result()
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
        expect(boss.locator("#adm-step")).to_have_text(re.compile(r"^0 / \d+$"))
        boss.locator("#adm-next").click()
        boss.locator("#adm-next").click()
        expect(boss.locator("#adm-step")).to_have_text(re.compile(r"^2 / \d+$"))
        expect(boss.locator("#adm-actions li")).to_have_count(2)
        expect(boss.locator("#adm-actions li.current")).to_have_count(1)

        # The audit log shows the adjustment.
        boss.locator('[data-tab="audit"]').click()
        expect(boss.locator("#adm-audit")).to_contain_text("balance.adjust")
        expect(boss.locator("#adm-audit")).to_contain_text("goodwill e2e")

        # Tournaments: create one from the form.
        boss.locator('[data-tab="tournaments"]').click()
        boss.locator("#adm-t-name").fill("E2E cup")
        boss.locator("#adm-tourney-form button[type=submit]").click()
        expect(boss.locator("#adm-tourneys")).to_contain_text("E2E cup")
        expect(boss.locator("#adm-tourneys")).to_contain_text("registering")

        # The player finds it on the tournament page, registers, and is in the standings.
        player.reload()
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
