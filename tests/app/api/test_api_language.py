"""The account's client language (issue 14): PATCH /api/me remembers it, /api/me and login return it; and the
names the server owns (rooms, rank titles) come in 简体, 繁體 and English."""

from __future__ import annotations

import pytest

from app.game.titles import TITLES, title_for, title_names_for
from tests.app.conftest import PASSWORD


async def test_a_new_account_has_no_language_until_the_player_picks_one(client, player):
    alice = await player("alice")
    me = (await client.get("/api/me", headers=alice.headers)).json()
    assert me["language"] is None  # the browser's own choice stands
    for language in ("zh-Hans", "en", "zh-Hant"):
        response = await client.patch("/api/me", json={"language": language}, headers=alice.headers)
        assert response.status_code == 200, response.text
        assert response.json()["language"] == language
        assert (await client.get("/api/me", headers=alice.headers)).json()["language"] == language
    # Another browser logs in and gets the account's choice.
    login = await client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
    assert login.json()["user"]["language"] == "zh-Hant"


async def test_null_forgets_the_choice_and_an_empty_patch_changes_nothing(client, player):
    bob = await player("bob")
    await client.patch("/api/me", json={"language": "en"}, headers=bob.headers)
    assert (await client.patch("/api/me", json={}, headers=bob.headers)).json()["language"] == "en"
    assert (await client.patch("/api/me", json={"language": None}, headers=bob.headers)).json()["language"] is None


@pytest.mark.parametrize("body", [{"language": "zh"}, {"language": "fr"}, {"language": 1}, {"lang": "en"}])
async def test_a_bad_language_is_refused_and_changes_nothing(client, player, body):
    carol = await player("carol")
    await client.patch("/api/me", json={"language": "zh-Hans"}, headers=carol.headers)
    response = await client.patch("/api/me", json=body, headers=carol.headers)
    assert response.status_code == 422, response.text
    me = (await client.get("/api/me", headers=carol.headers)).json()
    assert me["language"] == "zh-Hans" and me["coins"] > 0


async def test_patching_needs_a_login(client):
    assert (await client.patch("/api/me", json={"language": "en"})).status_code == 401


async def test_me_carries_the_title_in_three_languages(client, player):
    dave = await player("dave")
    me = (await client.get("/api/me", headers=dave.headers)).json()
    assert me["title"] == "白板"
    assert me["title_names"] == {"zh_hans": "白板", "zh_hant": "白板", "en": "White Dragon"}


@pytest.mark.parametrize(
    ("points", "hans", "hant"),
    [(0, "白板", "白板"), (100, "一万", "一萬"), (20_000, "东风", "東風"), (30_000, "西风", "西風"),
     (119_999, "北风", "北風"), (120_000, "中", "中"), (10**9, "麻将王", "麻將王")],
)
def test_titles_follow_rules_section_7_in_both_scripts(points, hans, hant):
    # docs/rules/rooms.md#titles: the seed writes them in 简体 and orders the winds 东 < 西 < 南 < 北 (B-21).
    assert title_names_for(points).zh_hans == hans
    assert title_for(points) == hant
    assert len({names.en for _, names in TITLES}) == len(TITLES)  # no two titles read alike in English


async def test_rooms_carry_their_names_in_three_languages(client):
    rooms = {r["key"]: r for r in (await client.get("/api/rooms")).json()}
    assert rooms["beginner"]["names"] == {"zh_hans": "初级", "zh_hant": "初級", "en": "Beginner"}
    assert rooms["advanced"]["name"] == "高級"  # the 繁體 name stays for older clients
