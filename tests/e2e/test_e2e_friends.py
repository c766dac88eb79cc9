"""Issue 13, coin tables with friends: the invite link seats a friend at the table (logged in, or after logging
in), and the creator fills the empty seats with bots; bots hold no coins, so only payments between the players
move coins (docs/server.md), and the coins are conserved."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import (
    PASSWORD,
    api_get,
    check_payment_steps,
    close_result,
    play_until_result,
    register,
    token,
    unique_name,
)

WELCOME = 50_000


def _open_table(page: Page, variant: str) -> str:
    room = page.locator(".room[data-room=beginner]")
    room.locator("select").select_option(variant)
    room.locator("button[type=submit]").click()
    row = room.locator(".lobby-table.mine")
    expect(row).to_have_attribute("data-variant", variant)
    return str(row.get_attribute("data-table-id"))


def test_an_invite_link_and_bots_make_a_coin_table_that_settles_between_players_only(
    browser: Browser, base_url: str, artifacts: Path
) -> None:
    contexts = [browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
                for _ in range(2)]
    try:
        contexts[0].grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
        host, friend = (c.new_page() for c in contexts)
        register(host, unique_name("host"))
        register(friend, unique_name("friend"))
        table_id = _open_table(host, "tiantai")
        row = host.locator(".lobby-table.mine")
        link = row.locator(".invite-url").input_value()
        assert link.endswith(f"#/join/{table_id}")
        row.locator("button.copy-invite").click()
        expect(row.locator("button.copy-invite")).to_have_attribute("data-copied", "1")
        assert host.evaluate("() => navigator.clipboard.readText()") == link
        host.screenshot(path=artifacts / "invite-1280x720.png")

        # The friend, logged in, opens the link: they sit at that table.
        friend.goto(link)
        expect(friend.locator(f".lobby-table.mine[data-table-id='{table_id}']")).to_be_visible()
        seats = api_get(friend, f"/api/tables/{table_id}")["seats"]
        assert [s["username"] is not None for s in seats].count(True) == 2
        # Only the creator is offered the bots; the host sees the friend in the row (lobby socket).
        expect(friend.locator(".lobby-table.mine button.fill-bots")).to_have_count(0)
        expect(row.locator(".seat:not(.empty)")).to_have_count(2)
        expect(row.locator(".bots-note")).to_contain_text("電腦不持金幣")
        row.locator("button.fill-bots").click()
        for page in (host, friend):
            expect(page.locator(".table")).to_have_attribute("data-variant", "tiantai", timeout=30_000)
        bot_seat = next(s["seat"] for s in api_get(host, f"/api/tables/{table_id}")["seats"] if s["bot"])
        expect(host.locator(".plate[data-presence=offline]")).to_have_count(0, timeout=5000)

        # Hands until one has a payment to or from the bot (most do; at most six): each settles between the
        # players only.
        pages, totals, saw_bot_payment = [host, friend], [0, 0], False
        for _hand in range(6):
            play_until_result(pages, timeout=180)
            dialog = host.locator("#result-dialog")
            deltas = {int(str(r.get_attribute("data-seat"))): int(str(r.locator(".coin-delta").get_attribute("data-coins")))
                      for r in dialog.locator(".summary tbody tr").all()}
            # What the payments say should move: only rows between two players, points × 100 each.
            expected = dict.fromkeys(deltas, 0)
            for r in dialog.locator(".payments tbody tr").all():
                payer, payee = int(str(r.get_attribute("data-payer"))), int(str(r.get_attribute("data-payee")))
                cells = r.locator("td").all_inner_texts()
                if r.get_attribute("data-bot"):
                    assert bot_seat in (payer, payee) and cells[3].startswith("0 ")
                    saw_bot_payment = True
                    expect(dialog.locator(".bots-note")).to_contain_text("電腦不持金幣")  # the rule, said where it applies
                    continue
                coins = int(cells[3].replace(",", ""))
                assert bot_seat not in (payer, payee) and coins == int(cells[2].replace(",", "")) * 100
                expected[payer] -= coins
                expected[payee] += coins
            assert deltas == expected  # no forfeits at 50,000 coins and 初級 stakes
            check_payment_steps(host)  # defect 7: each payment worked out, bot payments marked as not made
            assert deltas[bot_seat] == 0 and sum(deltas.values()) == 0  # no coin created or lost
            for i, page in enumerate(pages):
                totals[i] += deltas[page.evaluate("() => window.__mj.state().table.seat")]
                assert api_get(page, "/api/me")["coins"] == WELCOME + totals[i]
            if saw_bot_payment:
                host.screenshot(path=artifacts / "friends-bot-result-1280x720.png")
                break
            for page in pages:
                close_result(page)
        assert sum(totals) == 0
        assert saw_bot_payment, "six hands without a payment to or from the bot"
    finally:
        for c in contexts:
            c.close()


def test_an_invite_link_opened_before_logging_in_seats_after_it(browser: Browser, base_url: str) -> None:
    contexts = [browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844}, locale="zh-TW")
                for _ in range(2)]
    try:
        host, guest = (c.new_page() for c in contexts)
        register(host, unique_name("inv"))
        table_id = _open_table(host, "taiwan")
        link = host.locator(".lobby-table.mine .invite-url").input_value()
        guest.goto(link)
        expect(guest.locator("#auth-view")).to_be_visible()
        guest.locator("#auth-switch").click()
        name = unique_name("late")
        guest.locator("#auth-username").fill(name)
        guest.locator("#auth-password").fill(PASSWORD)
        guest.locator("#auth-submit").click()
        expect(guest.locator(f".lobby-table.mine[data-table-id='{table_id}']")).to_be_visible()
        expect(host.locator(".lobby-table.mine .seat:not(.empty)")).to_have_count(2)
        # A friend who is not the creator gets no bot button, and the server refuses them too.
        expect(guest.locator(".lobby-table.mine button.fill-bots")).to_have_count(0)
        refused = guest.request.post(f"/api/tables/{table_id}/bots", headers={"Authorization": f"Bearer {token(guest)}"})
        assert refused.status == 403 and refused.json()["code"] == "not_table_creator"
        # Links that cannot seat you say why, in the player's language: a table that is gone, and another
        # table while you already sit at this one.
        guest.goto("/#/join/nosuchtable")
        expect(guest.locator(".toast.error")).to_contain_text("牌桌")
        guest.locator(".toast.error").first.click()  # dismissed
        # A third player in a context of their own: registering sets the session cookie of the context it runs in.
        elsewhere = browser.new_context(base_url=base_url)
        contexts.append(elsewhere)
        third = elsewhere.request.post("/api/auth/register",
                                       data={"username": unique_name("third"), "password": PASSWORD})
        assert third.ok, third.text()
        other = elsewhere.request.post("/api/rooms/beginner/tables", data={"variant": "tiantai"},
                                       headers={"Authorization": f"Bearer {third.json()['access_token']}"})
        assert other.ok, other.text()
        guest.goto(f"/#/join/{other.json()['id']}")
        expect(guest.locator(".toast.error")).to_contain_text("你已坐在另一張牌桌")  # one table per account
        expect(guest.locator(f".lobby-table.mine[data-table-id='{table_id}']")).to_be_visible()  # still seated here
    finally:
        for c in contexts:
            c.close()
