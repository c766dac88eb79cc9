"""Issue 11, "an operator can run a tournament from the console and players play it in the browser": a player
registers on the tournament page and sees the others arrive live (the lobby socket), the operator starts it
from the console, the player follows the page's link to their tournament table and plays the hand there by
clicking, and afterwards the page shows the final standings with the prizes, the console's report balances
and the player's coins moved only by the fee and the prize."""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Browser, expect

from tests.e2e.helpers import PASSWORD, give_reason, play_until_result, register, token, unique_name
from tests.e2e.test_e2e_console import _grant

FEE = 1_000


def test_a_tournament_run_from_the_console_and_played_in_the_browser(browser: Browser, live_server: str,
                                                                       live_database_url: str) -> None:
    player_ctx = browser.new_context(base_url=live_server, locale="zh-TW", viewport={"width": 1280, "height": 720})
    oper_ctx = browser.new_context(base_url=live_server, locale="zh-TW")
    try:
        player, oper = player_ctx.new_page(), oper_ctx.new_page()
        me_name = unique_name("tp")
        register(player, me_name)
        register(oper, unique_name("top"))
        oper_auth = {"Authorization": f"Bearer {token(oper)}"}
        oper_id = oper.request.get("/api/me", headers=oper_auth).json()["id"]
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _grant(live_database_url, oper_id, "operator")).result()
        starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        created = oper.request.post("/api/operator/tournaments", headers=oper_auth, data={
            "name": f"Browser cup {me_name}", "room": "beginner", "variant": "tiantai", "starts_at": starts,
            "entry_fee": FEE, "player_limit": 3, "rounds": 1, "hands_per_round": 1, "prize_split": [100],
            "options": {}})
        assert created.ok, created.text()
        tid = created.json()["id"]

        # The player registers on the tournament page.
        player.locator("#tournaments-link").click()
        row = player.locator(f'#tp-list tr[data-tournament="{tid}"]')
        row.click()
        player.locator("#tp-register").click()
        expect(player.locator("#tp-standings tr")).to_have_count(1)
        # Two more players register elsewhere (never connecting: their seats are played on 托管); the page
        # hears of each over the lobby socket, without a reload.
        # Their own browser context: a registration sets the session cookie, which in the player's context would
        # log the player's page in as the last of them (issue 33's cookie is shared by every page of a context).
        others = []
        elsewhere = browser.new_context(base_url=live_server)
        try:
            for i in range(2):
                name = unique_name(f"tq{i}")
                body = elsewhere.request.post("/api/auth/register",
                                              data={"username": name, "password": PASSWORD}).json()
                headers = {"Authorization": f"Bearer {body['access_token']}"}
                assert elsewhere.request.post(f"/api/tournaments/{tid}/register", headers=headers).ok
                others.append(name)
        finally:
            elsewhere.close()
        expect(player.locator("#tp-standings tr")).to_have_count(3)
        for name in others:
            expect(player.locator("#tp-standings")).to_contain_text(name)
        expect(row).to_contain_text("3/3")

        # The operator starts it from the console.
        oper.goto("/admin.html")
        oper.locator('[data-tab="tournaments"]').click()
        oper.locator(f'#adm-tourneys tr[data-tournament="{tid}"] [data-action="start"]').click()
        give_reason(oper, "Browser cup", "everyone is here e2e")
        expect(oper.locator(f'#adm-tourneys tr[data-tournament="{tid}"]')).to_have_attribute("data-state", "running")

        # The player's page offers the way to their table (pushed live); they play the hand by clicking.
        link = player.locator("#tp-my-table")
        expect(link).to_be_visible(timeout=15_000)
        link.click()
        expect(player).to_have_url(re.compile(r"#/table/\w+"))
        expect(player.locator(".table")).to_have_attribute("data-variant", "tiantai", timeout=30_000)
        play_until_result([player], timeout=150)

        # The round's one hand ends the tournament: final standings with the prizes, the books balance.
        player.goto("/tournaments.html")
        player.locator(f'#tp-list tr[data-tournament="{tid}"]').click()
        expect(player.locator("#tp-state")).to_contain_text("已結束", timeout=30_000)
        final = player.request.get(f"/api/tournaments/{tid}").json()
        assert final["state"] == "finished" and final["pool"] == 0 and final["paid_out"] == 3 * FEE
        expect(player.locator(f'#tp-list tr[data-tournament="{tid}"] td').nth(5)).to_have_text(f"{3 * FEE:,}")
        assert sum(s["prize"] for s in final["standings"]) == 3 * FEE
        mine = next(s for s in final["standings"] if s["username"] == me_name)
        coins = player.request.get("/api/me", headers={"Authorization": f"Bearer {token(player)}"}).json()["coins"]
        assert coins == 50_000 - FEE + mine["prize"]  # the tournament table moved no coins
        oper.locator('[data-tab="tournaments"]').click()
        oper.locator(f'#adm-tourneys tr[data-tournament="{tid}"] [data-action="report"]').click()
        expect(oper.locator("#adm-t-report")).to_contain_text('"balanced": true')
        report = json.loads(oper.locator("#adm-t-report").text_content() or "{}")
        assert (report["fees_in"], report["prizes_out"], report["pool"]) == (3 * FEE, 3 * FEE, 0)
    finally:
        player_ctx.close()
        oper_ctx.close()
