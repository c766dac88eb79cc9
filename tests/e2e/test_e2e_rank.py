"""Issue 33 item 4, rank you can feel, at 390×844, 360×740, 844×390 and 1280×720 in each language: the final
standings show every player's 積分 change and title from the server's record of the game (GET /api/games/{id}),
and the lobby's leaderboard numbers its rows and says what its period and its points are."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.helpers import api_get, register, unique_name
from tests.e2e.test_e2e_game import open_short_practice, play_to_standings
from tests.e2e.test_e2e_phone_table import LANGS, SIZES, _resize, set_language

TITLE_KEY = {"zh-Hans": "zh_hans", "zh-Hant": "zh_hant", "en": "en"}
RANK_WORD = {"zh-Hans": "积分", "zh-Hant": "積分", "en": "Rank points"}


def test_standings_show_each_players_rank_change_and_title(page: Page, artifacts: Path) -> None:
    register(page, unique_name("rank"))
    open_short_practice(page, "tiantai", hands=1)
    play_to_standings(page, artifacts, "rank")
    [record] = api_get(page, "/api/me/games?limit=1")
    assert isinstance(record, dict)
    humans = [s for s in record["seats"] if not s["bot"]]
    assert humans, record
    for size in SIZES:
        _resize(page, size)
        for lang in LANGS:
            set_language(page, lang)
            standings = page.locator("#result-dialog[open] .standings")
            expect(standings).to_be_visible()
            for seat in humans:
                row = standings.locator(f".standing[data-seat='{seat['seat']}']")
                change = seat["rank_points_after"] - seat["rank_points_before"]
                expect(row.locator(".rank-change")).to_have_attribute("data-rank-change", str(change))
                expect(row.locator(".rank-change")).to_contain_text(RANK_WORD[lang])
                expect(row.locator(".seat-title")).to_contain_text(seat["title_after"]["title_names"][TITLE_KEY[lang]])
            for seat in record["seats"]:
                if seat["bot"]:  # a bot has no 積分 and no title
                    row = standings.locator(f".standing[data-seat='{seat['seat']}']")
                    expect(row.locator(".rank-change")).to_have_count(0)
        page.screenshot(path=artifacts / f"standings-rank-{size[0]}x{size[1]}.png")


# A board as the server sends it (GET /api/leaderboard): a player at 0 is listed like the others.
BOARD = [{"rank": 1, "user_id": 900001, "username": "winner", "rank_points": 40},
         {"rank": 2, "user_id": 900002, "username": "second", "rank_points": 0},
         {"rank": 3, "user_id": 900003, "username": "third", "rank_points": 0}]
ABOUT = {"zh-Hans": ("周一", "积分"), "zh-Hant": ("週一", "積分"), "en": ("Monday", "rank points")}


def test_the_leaderboard_numbers_its_rows_and_says_its_period_and_points(page: Page, artifacts: Path) -> None:
    page.route("**/api/leaderboard?period=*", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(BOARD)))
    register(page, unique_name("board"))
    panel = page.locator(".card.progress")
    for size in SIZES:
        _resize(page, size)
        for lang in LANGS:
            set_language(page, lang)
            panel.locator(".tab-week").click()
            board = panel.locator(".leaderboard[data-period=week]")
            expect(board.locator("tbody tr")).to_have_count(3)
            assert board.locator("tbody .rank").all_inner_texts() == ["1", "2", "3"]
            assert board.locator("tbody .who").all_inner_texts() == ["winner", "second", "third"]
            assert all(text.strip() for text in board.locator("thead th").all_inner_texts()), "an empty header"
            since, points = ABOUT[lang]
            expect(panel.locator(".board-about")).to_contain_text(since)
            expect(panel.locator(".board-about")).to_contain_text(points)
            panel.locator(".tab-all").click()
            expect(panel.locator(".leaderboard[data-period=all] tbody tr")).to_have_count(3)
            expect(panel.locator(".board-about")).not_to_contain_text(since)
        page.screenshot(path=artifacts / f"leaderboard-{size[0]}x{size[1]}.png", full_page=True)
