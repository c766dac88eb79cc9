"""Issue 35 in Chromium: the console passes axe-core with no serious or critical violation on any tab, its
tabs work as ARIA tabs from the keyboard, an account shows its title ladder, notes and sessions, the collusion
report renders, and an operator schedules a recurring tournament with the form, pauses and deletes it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import api_get, give_reason, register, token, unique_name

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
FAILING = ("serious", "critical")


async def _grant(database_url: str, user_id: int, role: str) -> None:
    from app.core.db import make_engine, make_sessionmaker
    from app.services.roles import Role, set_role

    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            await set_role(session, user_id=user_id, role=Role(role), actor_id=None, reason="e2e set-up")
    finally:
        await engine.dispose()


def _console_as(page: Page, database_url: str, role: str) -> dict:
    """Register, get ``role`` (from another thread: Playwright's sync API owns this one's loop), open the console."""
    register(page, unique_name(role[:4]))
    me = api_get(page, "/api/me")
    assert isinstance(me, dict)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _grant(database_url, me["id"], role)).result()
    page.goto("/admin.html")
    expect(page.locator("#adm-me")).to_contain_text(role)
    return me


def _axe_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (every rule axe runs by default)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))  # the context bypasses the page's CSP for this test script only
    results = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in results if v["impact"] in FAILING]


def test_the_console_passes_axe_and_its_tabs_work_from_the_keyboard(browser: Browser, live_server: str,
                                                                     live_database_url: str, artifacts: Path) -> None:
    assert AXE.exists(), "axe-core is missing: run npm ci (package.json)"
    context = browser.new_context(base_url=live_server, locale="zh-TW", bypass_csp=True,
                                  viewport={"width": 1280, "height": 720})
    try:
        boss = context.new_page()
        me = _console_as(boss, live_database_url, "admin")
        # An account open in the players tab: its ladder, notes and sessions beside it.
        boss.locator("#adm-prefix").fill(me["username"])
        boss.locator("#adm-find button[type=submit]").click()
        boss.locator("#adm-results button").first.click()
        expect(boss.locator("#adm-ladder-steps li")).to_have_count(16)
        expect(boss.locator("#adm-ladder-steps li.held")).to_have_attribute("data-at", "0")
        boss.locator("#adm-asset").select_option("rank_points")
        boss.locator("#adm-delta").fill("1200")
        expect(boss.locator("#adm-ladder-after")).to_contain_text("1,200")
        expect(boss.locator("#adm-ladder-after")).to_contain_text("四萬")  # 1,000 ≤ 1,200 < 2,000
        boss.locator("#adm-note-text").fill("e2e: checked the account")
        boss.locator("#adm-note-form button[type=submit]").click()
        expect(boss.locator("#adm-notes li").first).to_contain_text("e2e: checked the account")
        expect(boss.locator("#adm-sessions tr[data-session]")).to_have_count(1)
        # The collusion report renders (pairs, or the words for none: other tests may have played coin hands).
        boss.locator("#adm-coll-form button[type=submit]").click()
        expect(boss.locator('#adm-collusion tr[data-pair], #adm-collusion tr[data-empty="admin.coll.none"]')
               .first).to_be_visible()

        # The tabs: role=tab with aria-controls, one in the Tab order; arrows move focus, Enter opens.
        tabs = boss.locator('.admin-tabs [role="tab"]')
        names = [tabs.nth(i).get_attribute("data-tab") for i in range(tabs.count())]
        for i, name in enumerate(names):
            expect(tabs.nth(i)).to_have_attribute("aria-controls", f"tab-{name}")
        expect(boss.locator('.admin-tabs [role="tab"][tabindex="0"]')).to_have_count(1)
        boss.locator('[data-tab="players"]').focus()
        boss.keyboard.press("ArrowRight")
        expect(boss.locator('[data-tab="tables"]')).to_be_focused()
        boss.keyboard.press("End")
        expect(boss.locator(f'[data-tab="{names[-1]}"]')).to_be_focused()
        boss.keyboard.press("ArrowRight")
        expect(boss.locator('[data-tab="players"]')).to_be_focused()
        boss.keyboard.press("ArrowLeft")
        boss.keyboard.press("Enter")
        expect(boss.locator(f'[data-tab="{names[-1]}"]')).to_have_attribute("aria-selected", "true")
        expect(boss.locator(f"#tab-{names[-1]}")).to_be_visible()
        expect(boss.locator("#tab-players")).to_be_hidden()

        # axe-core on every tab as an admin sees it.
        found = {}
        for name in names:
            boss.locator(f'[data-tab="{name}"]').click()
            expect(boss.locator(f"#tab-{name}")).to_be_visible()
            boss.wait_for_load_state("networkidle")
            found[name] = _axe_violations(boss)
        boss.screenshot(path=artifacts / "console-schedules-1280x720.png")
        assert found == {name: [] for name in names}, found
    finally:
        context.close()


def test_an_operator_schedules_a_recurring_tournament(browser: Browser, live_server: str,
                                                      live_database_url: str) -> None:
    context = browser.new_context(base_url=live_server, locale="zh-TW", viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        _console_as(page, live_database_url, "operator")
        expect(page.locator('[data-tab="players"]')).to_be_hidden()  # an admin's tab
        page.locator('[data-tab="schedules"]').click()
        expect(page.locator('#adm-schedules tr[data-empty="admin.s.none"]')).to_be_visible()
        name = unique_name("週五夜")[:20]
        page.locator("#adm-s-name").fill(name)
        expect(page.locator('#adm-s-days input[value="MO"]')).to_be_disabled()  # daily: no days to choose
        page.locator("#adm-s-frequency").select_option("weekly")
        page.locator('#adm-s-days input[value="MO"]').check()
        page.locator('#adm-s-days input[value="FR"]').check()
        page.locator("#adm-s-time").fill("20:30")
        page.locator("#adm-s-zone").fill("Asia/Taipei")
        page.locator("#adm-sched-form button[type=submit]").click()
        expect(page.locator("#adm-s-done")).to_contain_text("#")
        row = page.locator("#adm-schedules tr[data-schedule]")
        expect(row).to_have_count(1)
        expect(row).to_contain_text(name)
        expect(row).to_contain_text("20:30 (Asia/Taipei)")
        [schedule] = api_get(page, "/api/operator/tournament-schedules")
        assert schedule["recurrence"] == {"frequency": "weekly", "weekdays": ["MO", "FR"], "time": "20:30",
                                          "timezone": "Asia/Taipei", "lead_minutes": 60}
        assert schedule["tournament"]["prize_split"] == [50, 30, 20] and schedule["next_starts_at"].endswith("Z")

        # A bad zone is refused in words and adds nothing.
        page.locator("#adm-s-zone").fill("Mars/Olympus")
        page.locator("#adm-sched-form button[type=submit]").click()
        expect(page.locator("#adm-error")).not_to_be_empty()
        expect(row).to_have_count(1)

        row.locator("button.pause").click()
        give_reason(page, name, "holiday e2e")
        expect(row).to_contain_text("已暫停")
        row.locator("button.delete").click()
        give_reason(page, name, "season over e2e")
        expect(page.locator("#adm-schedules tr[data-schedule]")).to_have_count(0)
        assert api_get(page, "/api/operator/tournament-schedules") == []
        assert token(page)
    finally:
        context.close()
