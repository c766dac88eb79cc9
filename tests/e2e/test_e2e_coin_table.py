"""Players in separate browsers sit at one coin table, play a hand against each other by clicking, and
the coins the page shows afterwards match the settlement (the dialog, GET /api/me and the ledger)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import (
    api_get,
    check_payment_steps,
    close_result,
    play_until_result,
    registered_players,
)

WELCOME = 50_000


def check_settlement(page: Page, before: int) -> int:
    """The dialog's coin change for this player agrees with GET /api/me, the header and the ledger."""
    me = page.evaluate("() => window.__mj.state().table.seat")
    dialog = page.locator("#result-dialog")
    delta = int(dialog.locator(f".summary tr[data-seat='{me}'] .coin-delta").get_attribute("data-coins"))
    balance = WELCOME + before + delta
    assert api_get(page, "/api/me")["coins"] == balance
    expect(page.locator("#me-coins")).to_have_attribute("data-coins", str(balance))  # the header
    if delta:
        assert dialog.locator(f".summary tr[data-seat='{me}'] .coins-after").inner_text().replace(",", "") == str(balance)
    ledger = api_get(page, "/api/me/ledger?asset=coins")
    assert sum(e["delta"] for e in ledger if e["hand_id"] is not None) == before + delta
    if delta:
        assert ledger[0]["balance_after"] == balance
    # Payments are shown in points and in coins: points × the room's 100 coins per point.
    for row in dialog.locator(".payments tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        assert int(cells[3].replace(",", "")) == int(cells[2].replace(",", "")) * 100
    check_payment_steps(page)  # defect 7: each payment worked out, ending at these numbers
    return delta


@pytest.mark.parametrize(("variant", "players"), [("taipao", 4), ("tiantai", 3)])
def test_players_play_a_coin_hand_and_the_coins_match_the_settlement(
    browser: Browser, base_url: str, artifacts: Path, variant: str, players: int
) -> None:
    with registered_players(browser, base_url, players, "c") as pages:
        host = pages[0]
        room = host.locator(".room[data-room=beginner]")
        room.locator("select").select_option(variant)
        room.locator("button[type=submit]").click()
        row = room.locator(".lobby-table.mine")
        expect(row).to_have_attribute("data-variant", variant)
        table_id = row.get_attribute("data-table-id")

        # The others see the new table live (lobby WebSocket) and take the free seats.
        for taken, page in enumerate(pages[1:], start=1):
            row_here = page.locator(f".lobby-table[data-table-id='{table_id}']")
            # This page's lobby shows every seat taken so far: its first empty seat is really empty (clicking
            # a seat the previous player just took was refused, and the table never filled).
            expect(row_here.locator("span.seat")).to_have_count(taken)
            seat = row_here.locator("button.seat.empty").first
            expect(seat).to_be_enabled()
            seat.click()

        # The last seat fills the table: every browser is taken to it.
        for page in pages:
            expect(page.locator("#table-view")).to_be_visible(timeout=30_000)  # a loaded 2-core CI box
            expect(page.locator(".table")).to_have_attribute("data-variant", variant)

        # Play hands until coins move (a drawn hand moves none), at most three.
        totals = [0] * players
        for hand in range(3):
            play_until_result(pages, timeout=180)
            deltas = [check_settlement(page, totals[i]) for i, page in enumerate(pages)]
            assert sum(deltas) == 0
            totals = [a + b for a, b in zip(totals, deltas, strict=True)]
            if any(deltas) or hand == 2:
                break
            for page in pages:
                close_result(page)
        pages[0].screenshot(path=artifacts / f"coin-{variant}-result-1280x720.png")
        check_progress_after_settlement(pages, hand + 1)


def shown_board(page: Page, period: str, looks: int = 5) -> list[dict]:
    """The lobby panel's leaderboard, once it matches the server's.  The board is global and the e2e server's
    other tables (earlier tests' coin tables on 托管) settle hands meanwhile, so a panel loaded a moment before
    the API call may differ by those hands: look again a few times.  (The hands list and back reloads the panel;
    a page reload would not: it returns the player to their live table.)"""
    panel = page.locator(".card.progress")
    for _ in range(looks):
        panel.locator(f".tab-{period}").click()
        rows = panel.locator(f".leaderboard[data-period={period}] tbody tr")
        board = api_get(page, f"/api/leaderboard?period={period}")
        if board:  # a board is empty until someone finishes a coin game or moves 積分 (a drawn hand moves none)
            expect(rows.first).to_be_visible()
        shown = rows.locator(".who").all_inner_texts()
        if shown == [x["username"] for x in board]:
            return board
        page.goto("/#/hands")
        page.goto("/#/lobby")
    raise AssertionError(f"the {period} leaderboard shown {shown} is not the server's {board}")


def check_progress_after_settlement(pages: list[Page], hands: int) -> None:
    """Issue 13 "progress": after the settled hands, each player's lobby panel counts them, shows their title
    and the 積分 to the next, and both leaderboards are the server's, with every winner of 積分 on them."""
    for page in pages:
        page.goto("/#/lobby")  # the brand link: the game goes on, the seat is kept
        me = api_get(page, "/api/me")
        stats = api_get(page, "/api/me/stats")
        panel = page.locator(".card.progress")
        expect(panel.locator(".stats dd").first).to_have_text(str(hands))
        assert stats["hands"] == hands
        ladder = stats["ladder"]
        assert ladder["rank_points"] == me["rank_points"]
        if ladder["next_title"]:
            assert ladder["needed"] == ladder["next_at"] - me["rank_points"] > 0
            expect(panel.locator(".ladder .needed")).to_contain_text(f"{ladder['needed']:,}")
        for period in ("week", "all"):
            board = shown_board(page, period)
            mine = next((x for x in board if x["user_id"] == me["id"]), None)
            if me["rank_points"] > 0 and period == "all" and len(board) < 20:
                assert mine is not None and mine["rank_points"] == me["rank_points"]
            if mine is not None:
                expect(panel.locator(f".leaderboard[data-period={period}] tr.me .pts")).to_have_text(
                    f"{mine['rank_points']:,}")

