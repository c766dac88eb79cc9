"""Admin endpoints: who is an admin, adjustments as audited ledger entries, reading a user's ledger."""

from __future__ import annotations

import asyncio

import pytest

from app.__main__ import main as cli_main
from app.core.config import get_settings


async def test_admin_usernames_setting_makes_admins(client, player):
    boss = await player("Boss")  # ADMIN_USERNAMES=boss in the test settings; matched case-insensitively
    assert (await client.get("/api/me", headers=boss.headers)).json()["is_admin"] is True


async def test_admin_endpoints_refuse_others(client, player):
    alice = await player("alice")
    for method, url in [
        ("GET", f"/api/admin/users/{alice.id}"),
        ("GET", "/api/admin/users?username=alice"),
        ("GET", f"/api/admin/users/{alice.id}/ledger"),
        ("POST", f"/api/admin/users/{alice.id}/adjustments"),
    ]:
        body = {"asset": "coins", "delta": 1, "reason": "x"} if method == "POST" else None
        assert (await client.request(method, url, json=body)).status_code == 401
        response = await client.request(method, url, json=body, headers=alice.headers)
        assert response.status_code == 403 and response.json()["detail"] == "admins only"
        assert response.json()["code"] == "admin_only"


async def test_adjust_coins_is_a_delta_with_who_and_why(client, player):
    boss, alice = await player("boss"), await player("alice")
    response = await client.post(
        f"/api/admin/users/{alice.id}/adjustments",
        json={"asset": "coins", "delta": -20_000, "reason": "refund reversal #12"},
        headers=boss.headers,
    )
    assert response.status_code == 201, response.text
    entry = response.json()
    assert (entry["delta"], entry["balance_after"], entry["actor_id"], entry["note"], entry["reason"]) == (
        -20_000, 30_000, boss.id, "refund reversal #12", "admin_adjustment",
    )
    assert (await client.get("/api/me", headers=alice.headers)).json()["coins"] == 30_000
    ledger = (await client.get(f"/api/admin/users/{alice.id}/ledger", headers=boss.headers)).json()
    assert [e["delta"] for e in ledger] == [-20_000, 50_000]  # newest first; nothing overwritten


async def test_adjust_rank_points_changes_the_title(client, player):
    boss, alice = await player("boss"), await player("alice")
    response = await client.post(
        f"/api/admin/users/{alice.id}/adjustments",
        json={"asset": "rank_points", "delta": 1_000, "reason": "tournament prize"},
        headers=boss.headers,
    )
    assert response.status_code == 201
    me = (await client.get("/api/me", headers=alice.headers)).json()
    assert (me["rank_points"], me["title"], me["coins"]) == (1_000, "四萬", 50_000)
    found = (await client.get("/api/admin/users", params={"username": "ALICE"}, headers=boss.headers)).json()
    assert found["id"] == alice.id and found["title"] == "四萬" and "created_at" in found
    ledger = await client.get(
        f"/api/admin/users/{alice.id}/ledger", params={"asset": "rank_points"}, headers=boss.headers
    )
    assert [e["delta"] for e in ledger.json()] == [1_000]


async def test_adjustment_can_not_go_below_zero(client, player):
    boss, alice = await player("boss"), await player("alice")
    url = f"/api/admin/users/{alice.id}/adjustments"
    response = await client.post(url, json={"asset": "coins", "delta": -50_001, "reason": "x"}, headers=boss.headers)
    assert response.status_code == 409 and "below 0" in response.json()["detail"]
    response = await client.post(url, json={"asset": "rank_points", "delta": -1, "reason": "x"}, headers=boss.headers)
    assert response.status_code == 409
    # Exactly to zero is fine.
    response = await client.post(url, json={"asset": "coins", "delta": -50_000, "reason": "x"}, headers=boss.headers)
    assert response.status_code == 201 and response.json()["balance_after"] == 0


@pytest.mark.parametrize(
    "body",
    [
        {"asset": "coins", "delta": 0, "reason": "x"},
        {"asset": "coins", "delta": 5, "reason": ""},
        {"asset": "coins", "delta": 5, "reason": "   "},
        {"asset": "coins", "delta": 5},
        {"asset": "gold", "delta": 5, "reason": "x"},
        {"asset": "coins", "delta": "lots", "reason": "x"},
        {"asset": "coins", "delta": 10**13, "reason": "x"},
    ],
)
async def test_bad_adjustment_is_422(client, player, body):
    boss, alice = await player("boss"), await player("alice")
    response = await client.post(f"/api/admin/users/{alice.id}/adjustments", json=body, headers=boss.headers)
    assert response.status_code == 422
    assert (await client.get("/api/me", headers=alice.headers)).json()["coins"] == 50_000


async def test_adjustment_idempotency_key(client, player):
    boss, alice = await player("boss"), await player("alice")
    url = f"/api/admin/users/{alice.id}/adjustments"
    body = {"asset": "coins", "delta": 700, "reason": "compensation", "idempotency_key": "ticket-7"}
    first = await client.post(url, json=body, headers=boss.headers)
    again = await client.post(url, json=body, headers=boss.headers)
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert (await client.get("/api/me", headers=alice.headers)).json()["coins"] == 50_700
    response = await client.post(url, json=body | {"delta": 800}, headers=boss.headers)
    assert response.status_code == 409 and "idempotency key" in response.json()["detail"]


async def test_unknown_user_is_404(client, player):
    boss = await player("boss")
    for method, url in [
        ("GET", "/api/admin/users/99999"),
        ("GET", "/api/admin/users?username=nobody"),
        ("GET", "/api/admin/users/99999/ledger"),
        ("POST", "/api/admin/users/99999/adjustments"),
    ]:
        body = {"asset": "coins", "delta": 1, "reason": "x"} if method == "POST" else None
        assert (await client.request(method, url, json=body, headers=boss.headers)).status_code == 404


async def test_make_admin_cli(client, player, settings, monkeypatch, capsys):
    alice = await player("alice")
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    get_settings.cache_clear()
    try:
        # The CLI runs its own event loop, as it does from a shell.
        assert await asyncio.to_thread(cli_main, ["make-admin", "ALICE"]) == 0
        assert await asyncio.to_thread(cli_main, ["make-admin", "nobody"]) == 1
    finally:
        get_settings.cache_clear()
    assert "alice is an admin" in capsys.readouterr().out
    assert (await client.get("/api/me", headers=alice.headers)).json()["is_admin"] is True
