"""Issue 35 in Chromium: the console's Processes tab lists this process with the table it owns and asks a
reason before a drain; an admin's notice, posted from the console's Notices tab, shows as a banner in the
player's language in the lobby and at a table, on a page loaded later too, and comes down when the admin
ends it; the house is funded from the Tournaments tab.

The shared e2e server is never actually drained (every later test would find it opening no table): the drain
itself is tested through the API (tests/app/test_process_list_single.py, test_process_drain_cluster.py)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.helpers import give_reason, register, token, unique_name


async def _make_admin(database_url: str, user_id: int) -> None:
    from app.core.db import make_engine, make_sessionmaker
    from app.services.roles import Role, set_role

    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            await set_role(session, user_id=user_id, role=Role.ADMIN, actor_id=None, reason="e2e set-up")
    finally:
        await engine.dispose()


def _auth(page: Page) -> dict[str, str]:
    return {"Authorization": f"Bearer {token(page)}"}


def _admin(browser: Browser, live_server: str, live_database_url: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(base_url=live_server, locale="zh-TW", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    register(page, unique_name("ops"))
    me = page.request.get("/api/me", headers=_auth(page)).json()
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread's event loop
        pool.submit(asyncio.run, _make_admin(live_database_url, me["id"])).result()
    page.goto("/admin.html")
    return context, page


def test_the_processes_tab_and_the_house(browser: Browser, live_server: str, live_database_url: str) -> None:
    context, boss = _admin(browser, live_server, live_database_url)
    try:
        table = boss.request.post("/api/practice", headers=_auth(boss), data={"variant": "tiantai"}).json()
        boss.locator('[data-tab="processes"]').click()
        expect(boss.locator("#tab-processes thead th")).to_have_text(
            ["進程", "位址", "PID", "版本", "啟動時間", "最後心跳", "牌桌", "連線", "狀態", "操作"])
        row = boss.locator("#adm-procs tr[data-process]")
        expect(row).to_have_count(1)  # one process, no Redis: itself
        expect(row.locator(f'[data-table="{table["id"]}"]')).to_be_visible()
        expect(row.locator("[data-state]")).to_have_text("運作中")
        # Drain asks for the reason first; going back drains nothing.
        row.locator("[data-drain]").click()
        expect(boss.locator("#adm-ask-title")).to_contain_text("排空進程")
        boss.locator("#adm-ask-back").click()
        boss.locator("#adm-procs-refresh").click()
        expect(row.locator("[data-state]")).to_have_text("運作中")

        # The house that pays tournament guarantees is funded from the Tournaments tab, with a reason.
        boss.locator('[data-tab="tournaments"]').click()
        boss.locator("#adm-house-delta").fill("5000")
        boss.locator("#adm-house-form button[type=submit]").click()
        give_reason(boss, "5,000", "guarantee float e2e")
        expect(boss.locator("#adm-house-done")).to_contain_text("#")
        house = boss.request.get("/api/operator/tournaments/house", headers=_auth(boss)).json()
        assert house["coins"] >= 5000
        expect(boss.locator("#adm-error")).to_be_empty()
    finally:
        context.close()


def test_a_notice_shows_as_a_banner_in_the_players_language(browser: Browser, live_server: str,
                                                            live_database_url: str) -> None:
    context, boss = _admin(browser, live_server, live_database_url)
    player_ctx = browser.new_context(base_url=live_server, locale="zh-TW", viewport={"width": 1280, "height": 720})
    seated_ctx = browser.new_context(base_url=live_server, locale="zh-TW", viewport={"width": 1280, "height": 720})
    notice_id = None
    try:
        player, seated = player_ctx.new_page(), seated_ctx.new_page()
        register(player, unique_name("np"))
        register(seated, unique_name("ns"))
        practice = seated.request.post("/api/practice", headers=_auth(seated), data={"variant": "tiantai"}).json()
        seated.goto(f"/#/table/{practice['id']}")
        expect(seated.locator("#table-view")).to_be_visible()
        expect(player.locator("#notice-banner")).to_be_hidden()

        boss.locator('[data-tab="notices"]').click()
        boss.locator("#adm-n-zh_hant").fill("凌晨3點維護十分鐘")
        boss.locator("#adm-n-zh_hans").fill("凌晨3点维护十分钟")
        boss.locator("#adm-n-en").fill("Ten minutes of maintenance at 03:00")
        boss.locator("#adm-n-ends").fill((datetime.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"))
        boss.locator("#adm-notice-form button[type=submit]").click()
        give_reason(boss, "凌晨3點維護", "maintenance e2e")
        listed = boss.locator("#adm-notices tr[data-notice]", has_text="凌晨3點維護十分鐘")
        expect(listed).to_be_visible()
        notice_id = listed.get_attribute("data-notice")

        # Pushed on the lobby socket and on the table socket, in each player's language.
        for page in (player, seated):
            expect(page.locator(f'#notice-banner [data-notice="{notice_id}"]')).to_have_text("凌晨3點維護十分鐘×")
        player.locator('[data-lang="en"]').click()
        expect(player.locator(f'#notice-banner [data-notice="{notice_id}"] span')).to_have_text(
            "Ten minutes of maintenance at 03:00")
        # A page loaded later reads it from GET /api/notices.
        late_ctx = browser.new_context(base_url=live_server, locale="zh-CN")
        late = late_ctx.new_page()
        late.goto("/")
        expect(late.locator(f'#notice-banner [data-notice="{notice_id}"] span')).to_have_text("凌晨3点维护十分钟")
        late_ctx.close()

        # Ended early from the console: the banners come down.
        listed.locator("[data-end-notice]").click()
        give_reason(boss, "凌晨3點維護", "done e2e")
        expect(boss.locator("#adm-notices tr[data-notice]", has_text="凌晨3點維護十分鐘")).to_have_count(0)
        for page in (player, seated):
            expect(page.locator("#notice-banner")).to_be_hidden()
        notice_id = None
    finally:
        if notice_id is not None:  # never leave a banner over the other browser tests' pages
            boss.request.delete(f"/api/admin/notices/{notice_id}?reason=e2e+cleanup", headers=_auth(boss))
        for ctx in (player_ctx, seated_ctx):
            ctx.close()
        context.close()
