"""Issue 33 item 5: a two-character Chinese name (阿明) is allowed: 2–20 when the name holds a Chinese character,
3–20 otherwise; a refused name's error names the rule it broke (too_short, too_long, characters) and the bounds
that apply to it.  The account form's rules (GET /api/auth/rules) carry the same declarations."""

from __future__ import annotations

import pytest

from app.services import accounts


async def test_two_chinese_characters_make_a_name(client) -> None:
    made = await client.post("/api/auth/register", json={"username": "阿明", "password": "password1"})
    assert made.status_code == 201, made.text
    assert made.json()["user"]["username"] == "阿明"
    mixed = await client.post("/api/auth/register", json={"username": "明a", "password": "password1"})
    assert mixed.status_code == 201, mixed.text


@pytest.mark.parametrize(("username", "rule", "minimum"), [
    ("ab", "too_short", 3),          # letters only: three at least
    ("明", "too_short", 2),           # one Chinese character is too few
    ("", "too_short", 3),
    ("阿" * 21, "too_long", 2),
    ("a" * 21, "too_long", 3),
    ("阿-明", "characters", 2),
    ("émile", "characters", 3),
])
async def test_a_refused_name_says_which_rule_it_broke(client, username: str, rule: str, minimum: int) -> None:
    response = await client.post("/api/auth/register", json={"username": username, "password": "password1"})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_username"
    assert (body["params"]["rule"], body["params"]["minimum"], body["params"]["maximum"]) == (
        rule, minimum, accounts.USERNAME_MAX)


async def test_the_form_rules_carry_the_chinese_minimum(client) -> None:
    rules = (await client.get("/api/auth/rules")).json()
    assert (rules["username_min"], rules["username_min_cjk"], rules["username_max"]) == (
        accounts.USERNAME_MIN, accounts.USERNAME_MIN_CJK, accounts.USERNAME_MAX) == (3, 2, 20)
