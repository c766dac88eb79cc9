"""Registration, login, tokens and /api/me."""

from __future__ import annotations

import pytest

from app.api.routes.auth import BAD_LOGIN
from tests.app.conftest import end_session_in


async def test_register_grants_welcome_coins_and_logs_in(client):
    response = await client.post("/api/auth/register", json={"username": "alice", "password": "password1"})
    assert response.status_code == 201
    body = response.json()
    assert body["token_type"] == "bearer" and body["access_token"]
    assert body["user"] == {
        "id": body["user"]["id"], "username": "alice", "coins": 50_000, "rank_points": 0,
        "title": "白板", "title_names": {"zh_hans": "白板", "zh_hant": "白板", "en": "White Dragon"},
        "is_admin": False, "role": "player", "frozen": False, "language": None, "table": None,
    }
    me = await client.get("/api/me", headers={"Authorization": f"Bearer {body['access_token']}"})
    assert me.status_code == 200 and me.json() == body["user"]


async def test_welcome_grant_is_a_ledger_entry(client, player):
    alice = await player("alice")
    entries = (await client.get("/api/me/ledger", headers=alice.headers)).json()
    assert [(e["asset"], e["delta"], e["balance_after"], e["reason"]) for e in entries] == [
        ("coins", 50_000, 50_000, "welcome_grant")
    ]


async def test_chinese_username(client):
    response = await client.post("/api/auth/register", json={"username": "麻將王_88", "password": "password1"})
    assert response.status_code == 201
    assert response.json()["user"]["username"] == "麻將王_88"


@pytest.mark.parametrize("taken", ["alice", "ALICE", "Ａｌｉｃｅ"])
async def test_duplicate_username_is_409(client, player, taken):
    await player("alice")
    response = await client.post("/api/auth/register", json={"username": taken, "password": "password1"})
    assert response.status_code == 409
    assert response.json()["detail"] == "that username is taken"
    assert response.json()["code"] == "username_taken"


@pytest.mark.parametrize(
    "username",
    ["ab", "a" * 21, "has space", "dash-name", "émile", "аlice", "emoji😀x", "", "tab\tname"],
)
async def test_bad_username_is_422(client, username):
    response = await client.post("/api/auth/register", json={"username": username, "password": "password1"})
    assert response.status_code == 422
    assert "username" in response.text


@pytest.mark.parametrize("password", ["", "short", "seven77"])
async def test_short_password_is_422(client, password):
    response = await client.post("/api/auth/register", json={"username": "alice", "password": password})
    assert response.status_code == 422
    assert "at least 8" in response.text


@pytest.mark.parametrize("body", [{}, {"username": "alice"}, {"password": "password1"}, {"username": 5}])
async def test_malformed_register_is_422(client, body):
    assert (await client.post("/api/auth/register", json=body)).status_code == 422


async def test_login(client, player):
    await player("alice")
    response = await client.post("/api/auth/login", json={"username": "Alice", "password": "correct horse"})
    assert response.status_code == 200
    assert response.json()["user"]["username"] == "alice"


@pytest.mark.parametrize(
    ("username", "password"),
    [("alice", "wrong password"), ("nobody", "correct horse"), ("x", "correct horse"), ("alice", "")],
)
async def test_bad_login_is_one_generic_401(client, player, username, password):
    await player("alice")
    response = await client.post("/api/auth/login", json={"username": username, "password": password})
    assert response.status_code == 401
    assert response.json() == {"detail": BAD_LOGIN, "code": "bad_credentials", "params": {}}


async def test_me_requires_a_valid_token(client, player, app):
    alice = await player("alice")
    assert (await client.get("/api/me")).status_code == 401
    for token in ("garbage", alice.token + "x", alice.token[:-1]):
        response = await client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
    assert (await client.get("/api/me", headers=alice.headers)).status_code == 200


async def test_expired_token_is_401(client, player, app):
    alice = await player("alice")
    await end_session_in(app, alice.token, -1)
    response = await client.get("/api/me", headers=alice.headers)
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


async def test_ledger_paging_and_filter(client, player):
    alice = await player("alice")
    response = await client.get("/api/me/ledger", params={"asset": "rank_points"}, headers=alice.headers)
    assert response.status_code == 200 and response.json() == []
    for params in ({"limit": 0}, {"limit": 1000}, {"asset": "gold"}):
        assert (await client.get("/api/me/ledger", params=params, headers=alice.headers)).status_code == 422
