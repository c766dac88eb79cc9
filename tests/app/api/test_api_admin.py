"""Admin endpoints: who is an admin, adjustments as audited ledger entries, reading a user's ledger."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.__main__ import main as cli_main
from app.core.config import Settings, get_settings
from app.main import create_app
from app.services.ledger import ADJUSTMENT_MAX
from tests.app.conftest import PASSWORD


async def test_squatting_a_reserved_name_gives_no_admin(database_url, tmp_path, monkeypatch, no_env_settings):
    """Issue 9 item 6: with ADMIN_USERNAMES=boss, whoever registered "boss" first became an admin."""
    monkeypatch.setenv("ADMIN_USERNAMES", "boss")
    settings = Settings(_env_file=None, secret_key="s" * 40, database_url=database_url,
                        web_dir=tmp_path / "no-web")
    for _restart in range(2):  # neither registration nor a later startup grants anything
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                if _restart == 0:
                    response = await client.post("/api/auth/register",
                                                 json={"username": "Boss", "password": PASSWORD})
                    assert response.status_code == 201
                    assert response.json()["user"]["role"] == "player"
                login = await client.post("/api/auth/login", json={"username": "boss", "password": PASSWORD})
                me = login.json()["user"]
                assert (me["role"], me["is_admin"]) == ("player", False)
                headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
                assert (await client.get("/api/admin/audit", headers=headers)).status_code == 403


async def test_admin_endpoints_refuse_others(client, player):
    alice = await player("alice")
    for method, url in [
        ("GET", f"/api/admin/users/{alice.id}"),
        ("GET", "/api/admin/users?prefix=alice"),
        ("GET", f"/api/admin/users/{alice.id}/ledger"),
        ("POST", f"/api/admin/users/{alice.id}/adjustments"),
    ]:
        body = {"asset": "coins", "delta": 1, "reason": "x"} if method == "POST" else None
        assert (await client.request(method, url, json=body)).status_code == 401
        response = await client.request(method, url, json=body, headers=alice.headers)
        assert response.status_code == 403 and response.json()["detail"] == "admins only"
        assert response.json()["code"] == "admin_only"


async def test_adjust_coins_is_a_delta_with_who_and_why(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
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
    boss, alice = await player("boss", role="admin"), await player("alice")
    response = await client.post(
        f"/api/admin/users/{alice.id}/adjustments",
        json={"asset": "rank_points", "delta": 1_000, "reason": "tournament prize"},
        headers=boss.headers,
    )
    assert response.status_code == 201
    me = (await client.get("/api/me", headers=alice.headers)).json()
    assert (me["rank_points"], me["title"], me["coins"]) == (1_000, "四萬", 50_000)
    found = (await client.get("/api/admin/users", params={"prefix": "ALI"}, headers=boss.headers)).json()
    assert [f["id"] for f in found] == [alice.id] and found[0]["title"] == "四萬" and "created_at" in found[0]
    ledger = await client.get(
        f"/api/admin/users/{alice.id}/ledger", params={"asset": "rank_points"}, headers=boss.headers
    )
    assert [e["delta"] for e in ledger.json()] == [1_000]


async def test_adjustment_can_not_go_below_zero(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
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
        {"asset": "coins", "delta": ADJUSTMENT_MAX + 1, "reason": "x"},
        {"asset": "coins", "delta": -ADJUSTMENT_MAX - 1, "reason": "x"},
        # issue 9 item 6: only a JSON integer is a delta
        {"asset": "coins", "delta": "100", "reason": "x"},
        {"asset": "coins", "delta": True, "reason": "x"},
        {"asset": "coins", "delta": 1000.0, "reason": "x"},
    ],
)
async def test_bad_adjustment_is_422(client, player, body):
    boss, alice = await player("boss", role="admin"), await player("alice")
    response = await client.post(f"/api/admin/users/{alice.id}/adjustments", json=body, headers=boss.headers)
    assert response.status_code == 422
    assert (await client.get("/api/me", headers=alice.headers)).json()["coins"] == 50_000


async def test_adjustment_idempotency_key(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
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
    boss = await player("boss", role="admin")
    for method, url in [
        ("GET", "/api/admin/users/99999"),
        ("GET", "/api/admin/users/99999/ledger"),
        ("POST", "/api/admin/users/99999/adjustments"),
    ]:
        body = {"asset": "coins", "delta": 1, "reason": "x"} if method == "POST" else None
        assert (await client.request(method, url, json=body, headers=boss.headers)).status_code == 404


async def test_make_admin_cli(client, player, settings, monkeypatch, capsys, no_env_settings):
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
    me = (await client.get("/api/me", headers=alice.headers)).json()
    assert (me["is_admin"], me["role"]) == (True, "admin")
    # The grant is audited, from the command line (no actor).
    assert (await client.get("/api/admin/audit", headers=alice.headers, params={"action": "role.set"})).json()[0][
        "after"] == {"role": "admin"}
