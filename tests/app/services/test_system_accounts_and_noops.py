"""Issue 34: an admin could freeze or log out the house account (200).  A system account (the house, the
director, a prize pool) now refuses every admin act on an account (403 ``system_account``) and nothing is
audited.  And every change is audited while a no-op says so: freezing a frozen account still ends its
sessions, so it writes a row ``{frozen: true} → {frozen: true}``; the role an account already has, or an
unfreeze of an account that is not frozen, writes none and answers ``changed: false``."""

from __future__ import annotations

import pytest

from app.tournaments import service
from app.tournaments.accounts import director_id, house_account
from tests.app.conftest import PASSWORD
from tests.app.tournaments.test_tournaments import _create

ACTS = [
    ("freeze", {"frozen": True, "reason": "test"}),
    ("freeze", {"frozen": False, "reason": "test"}),
    ("logout-everywhere", {"reason": "test"}),
    ("role", {"role": "admin", "reason": "test"}),
    ("role", {"role": "player", "reason": "test"}),
    ("adjustments", {"asset": "coins", "delta": 10, "reason": "test"}),
]


async def _audit(client, boss) -> list[dict]:  # noqa: ANN001 - the test client and an admin Player
    response = await client.get("/api/admin/audit", headers=boss.headers, params={"limit": 200})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize(("act", "body"), ACTS)
@pytest.mark.parametrize("account", ["house", "director", "pool"])
async def test_system_accounts_refuse_every_admin_act(client, player, app, account, act, body):
    boss, op = await player("boss", role="admin"), await player("oper", role="operator")
    tournament = await _create(client, op)
    async with app.state.services.sessionmaker() as session:
        ids = {"house": (await house_account(session)).id, "director": await director_id(session),
               "pool": (await service.get(session, tournament["id"])).pool_user_id}
        await session.commit()
    before = await _audit(client, boss)
    response = await client.post(f"/api/admin/users/{ids[account]}/{act}", headers=boss.headers, json=body)
    assert response.status_code == 403, response.text
    assert response.json()["code"] == "system_account" and response.json()["params"]["user_id"] == ids[account]
    assert await _audit(client, boss) == before


async def test_freezing_a_frozen_account_ends_its_sessions_and_is_audited(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
    url = f"/api/admin/users/{alice.id}/freeze"
    first = await client.post(url, headers=boss.headers, json={"frozen": True, "reason": "chargeback"})
    assert first.status_code == 200 and first.json()["changed"] is True
    await alice.log_in_again(client)  # a frozen account may log in, not sit
    again = await client.post(url, headers=boss.headers, json={"frozen": True, "reason": "second look"})
    assert again.status_code == 200 and again.json()["changed"] is False and again.json()["frozen"] is True
    assert (await client.get("/api/me", headers=alice.headers)).status_code == 401  # the new session ended
    rows = [r for r in await _audit(client, boss) if r["target_id"] == str(alice.id)]
    assert [(r["action"], r["before"], r["after"], r["reason"]) for r in rows] == [
        ("account.freeze", {"frozen": True}, {"frozen": True}, "second look"),
        ("account.freeze", {"frozen": False}, {"frozen": True}, "chargeback"),
    ]


@pytest.mark.parametrize(("act", "body"), [
    ("freeze", {"frozen": False, "reason": "not frozen anyway"}),
    ("role", {"role": "player", "reason": "already a player"}),
])
async def test_a_no_op_says_so_and_writes_no_row(client, player, act, body):
    boss, alice = await player("boss", role="admin"), await player("alice")
    before = await _audit(client, boss)
    response = await client.post(f"/api/admin/users/{alice.id}/{act}", headers=boss.headers, json=body)
    assert response.status_code == 200 and response.json()["changed"] is False, response.text
    assert await _audit(client, boss) == before
    assert (await client.get("/api/me", headers=alice.headers)).status_code == 200  # nothing ended either


async def test_a_change_says_so(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
    response = await client.post(f"/api/admin/users/{alice.id}/role", headers=boss.headers,
                                 json={"role": "operator", "reason": "new staff"})
    assert response.status_code == 200 and response.json()["changed"] is True
    assert response.json()["role"] == "operator"


async def test_a_log_out_everywhere_with_nothing_to_end_is_audited_as_such(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
    url = f"/api/admin/users/{alice.id}/logout-everywhere"
    assert (await client.post(url, headers=boss.headers, json={"reason": "lost phone"})).json() == {"ended": 1}
    assert (await client.post(url, headers=boss.headers, json={"reason": "again"})).json() == {"ended": 0}
    rows = [r for r in await _audit(client, boss) if r["action"] == "account.logout_everywhere"]
    assert [(r["before"], r["after"]) for r in rows] == [({"sessions": 0}, {"sessions": 0}),
                                                         ({"sessions": 1}, {"sessions": 0})]
    assert (await client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
            ).status_code == 200
