"""Roles, the audit log, freezing, voiding a hand, live tables (issue 11 stage 1)."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import func, select, text

from app.game.rooms import ROOMS, RoomKey
from app.models import LedgerEntry, User
from app.services.settlement import settle_hand
from tests.app.conftest import PASSWORD, grant_role
from tests.app.support.table_harness import PASSWORD as HARNESS_PASSWORD
from tests.app.support.table_harness import Closed, PlayLog, harness, is_type, play_to_the_end

RECORD = {"table_id": "t1", "seed": "ab" * 16, "commitment": "cd" * 32, "actions": [], "result": {}}


async def _audit(client, boss, **filters):
    response = await client.get("/api/admin/audit", headers=boss.headers, params=filters)
    assert response.status_code == 200, response.text
    return response.json()


async def test_roles_are_granted_and_revoked_by_an_admin_and_audited(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
    refused = await client.get("/api/operator/tables", headers=alice.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "operator_only"
    response = await client.post(f"/api/admin/users/{alice.id}/role", headers=boss.headers,
                                 json={"role": "operator", "reason": "runs the Sunday cup"})
    assert response.status_code == 200 and response.json()["role"] == "operator"
    assert (await client.get("/api/operator/tables", headers=alice.headers)).status_code == 200
    assert (await client.get("/api/admin/audit", headers=alice.headers)).status_code == 403  # not an admin
    # An operator cannot grant roles, not even to themself.
    response = await client.post(f"/api/admin/users/{alice.id}/role", headers=alice.headers,
                                 json={"role": "admin", "reason": "x"})
    assert response.status_code == 403
    await client.post(f"/api/admin/users/{alice.id}/role", headers=boss.headers,
                      json={"role": "player", "reason": "season over"})
    assert (await client.get("/api/operator/tables", headers=alice.headers)).status_code == 403
    trail = await _audit(client, boss, target_type="user", target_id=str(alice.id), action="role.set")
    assert [(e["before"], e["after"], e["reason"], e["actor_id"]) for e in trail] == [
        ({"role": "operator"}, {"role": "player"}, "season over", boss.id),
        ({"role": "player"}, {"role": "operator"}, "runs the Sunday cup", boss.id),
    ]


async def test_role_changes_need_a_reason_and_an_admin_keeps_their_own_role(client, player):
    boss, alice = await player("boss", role="admin"), await player("alice")
    for body in ({"role": "operator", "reason": ""}, {"role": "owner", "reason": "x"}, {"role": "operator"}):
        response = await client.post(f"/api/admin/users/{alice.id}/role", headers=boss.headers, json=body)
        assert response.status_code == 422
    response = await client.post(f"/api/admin/users/{boss.id}/role", headers=boss.headers,
                                 json={"role": "player", "reason": "oops"})
    assert response.status_code == 409 and response.json()["code"] == "own_admin_role"
    assert (await client.get("/api/me", headers=boss.headers)).json()["role"] == "admin"
    assert await _audit(client, boss, action="role.set", target_id=str(alice.id)) == []


async def test_the_audit_log_refuses_update_and_delete(client, player, app):
    boss, alice = await player("boss", role="admin"), await player("alice")
    await client.post(f"/api/admin/users/{alice.id}/adjustments", headers=boss.headers,
                      json={"asset": "coins", "delta": 5, "reason": "goodwill"})
    entry = (await _audit(client, boss, action="balance.adjust"))[0]
    assert (entry["before"], entry["after"]["coins"], entry["reason"]) == ({"coins": 50_000}, 50_005, "goodwill")
    for statement in ("UPDATE audit_log SET reason = 'nothing to see'", "DELETE FROM audit_log"):
        async with app.state.services.sessionmaker() as session:
            with pytest.raises(Exception, match="append-only"):
                await session.execute(text(statement))
            await session.rollback()
    assert (await _audit(client, boss, action="balance.adjust"))[0]["reason"] == "goodwill"


async def test_find_players_by_prefix_and_id_and_see_their_detail(client, player):
    boss = await player("boss", role="admin")
    alice, alan, _bob = await player("Alice"), await player("alan"), await player("bob")
    found = (await client.get("/api/admin/users", headers=boss.headers, params={"prefix": "AL"})).json()
    assert [f["username"] for f in found] == ["alan", "Alice"]
    found = (await client.get("/api/admin/users", headers=boss.headers, params={"id": alice.id})).json()
    assert [f["username"] for f in found] == ["Alice"]
    assert (await client.get("/api/admin/users", headers=boss.headers, params={"prefix": "%"})).json() == []
    assert (await client.get("/api/admin/users", headers=boss.headers, params={"prefix": "_"})).json() == []
    table = (await client.post("/api/rooms/beginner/tables", headers=alan.headers,
                               json={"variant": "tiantai"})).json()
    detail = (await client.get(f"/api/admin/users/{alan.id}", headers=boss.headers)).json()
    assert (detail["coins"], detail["title"], detail["current_table"], detail["frozen"]) == (
        50_000, "白板", table["id"], False)
    assert [e["reason"] for e in detail["ledger"]] == ["welcome_grant"] and detail["recent_hands"] == []


async def test_a_frozen_account_cannot_sit_until_unfrozen(client, player):
    boss, alice, bob = await player("boss", role="admin"), await player("alice"), await player("bob")
    table = (await client.post("/api/rooms/beginner/tables", headers=bob.headers,
                               json={"variant": "tiantai"})).json()
    response = await client.post(f"/api/admin/users/{alice.id}/freeze", headers=boss.headers,
                                 json={"frozen": True, "reason": "chargeback"})
    assert response.status_code == 200 and response.json()["frozen"] is True
    # The freeze ended alice's sessions (issue 24); a frozen account may log in again, not sit down.
    assert (await client.get("/api/me", headers=alice.headers)).status_code == 401
    again = await client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
    alice.headers = {"Authorization": f"Bearer {again.json()['access_token']}"}
    refused = [
        await client.post(f"/api/tables/{table['id']}/sit", headers=alice.headers),
        await client.post("/api/rooms/beginner/tables", headers=alice.headers, json={"variant": "tiantai"}),
        await client.post("/api/practice", headers=alice.headers, json={"variant": "tiantai"}),
    ]
    assert [(r.status_code, r.json()["code"]) for r in refused] == [(403, "account_frozen")] * 3
    assert (await client.get("/api/me", headers=alice.headers)).json()["frozen"] is True
    await client.post(f"/api/admin/users/{alice.id}/freeze", headers=boss.headers,
                      json={"frozen": False, "reason": "resolved"})
    assert (await client.post(f"/api/tables/{table['id']}/sit", headers=alice.headers)).status_code == 200
    actions = [e["action"] for e in await _audit(client, boss, target_id=str(alice.id))]
    assert actions == ["account.unfreeze", "account.freeze"]


async def test_freezing_a_waiting_player_stands_them_up(client, player):
    boss, alice, bob = await player("boss", role="admin"), await player("alice"), await player("bob")
    table = (await client.post("/api/rooms/beginner/tables", headers=alice.headers,
                               json={"variant": "tiantai"})).json()
    await client.post(f"/api/tables/{table['id']}/sit", headers=bob.headers)
    await client.post(f"/api/admin/users/{alice.id}/freeze", headers=boss.headers,
                      json={"frozen": True, "reason": "x"})
    seats = (await client.get(f"/api/tables/{table['id']}")).json()["seats"]
    assert [s["user_id"] for s in seats] == [None, bob.id, None]


async def test_a_frozen_players_seat_plays_on_auto_to_the_end_of_the_game(settings):
    """F-10 (docs/rules/rooms.md#frozen): freezing a player does not end the others' game; the frozen seat plays
    on under 托管 to the end of the game and settles as usual, and the account holds no seat afterwards."""
    async with harness(settings) as h:
        players = [await h.register(f"fz{i}") for i in range(3)]
        boss = await h.register("boss")
        await grant_role(h.app, boss["id"], "admin")
        table_id = await h.coin_table("tiantai", players, rounds=1)
        clients = [await h.connect(table_id, p) for p in players]
        await clients[0].recv_until(is_type("snapshot"))
        response = await h.client.post(f"/api/admin/users/{players[0]['id']}/freeze", headers=boss["headers"],
                                       json={"frozen": True, "reason": "collusion review"})
        assert response.status_code == 200
        with pytest.raises(Closed) as closed:
            await clients[0].recv_until(lambda m: False)
        # Closed at once, by whichever comes first: the freeze ends the account's sessions (4401, issue 24)
        # and the seat's (4003).
        assert closed.value.code in (4003, 4401)
        login = await h.client.post("/api/auth/login", json={"username": "fz0", "password": HARNESS_PASSWORD})
        again = await h.connect(table_id, {"token": login.json()["access_token"]})  # cannot come back to the seat
        with pytest.raises(Closed) as closed:
            await again.recv_until(lambda m: False)
        assert closed.value.code == 4003
        logs = [PlayLog() for _ in clients[1:]]
        await asyncio.wait_for(asyncio.gather(*(
            play_to_the_end(c, random.Random(i), log) for i, (c, log) in enumerate(zip(clients[1:], logs,
                                                                                      strict=True)))), 60)
        assert logs[0].game_over["reason"] == "rounds_complete" and logs[0].game_over["stood_up"] == []
        assert len(logs[0].results) >= 3  # a whole 圈: the deal went round the three seats
        assert all(r["coins_after"][0] is not None for r in logs[0].results)  # the frozen seat settled each hand
        auto = [m for m in clients[1].received if m["type"] == "event" and m["event"]["type"] == "auto_play"]
        assert auto and auto[0]["event"] == {"type": "auto_play", "seat": 0, "on": True, "reason": "frozen"}
        assert all(m["event"]["on"] for m in auto if m["event"]["seat"] == 0)  # 托管 to the end
        # at game over the table closes and every seat is released (issue 9 item 4)
        assert (await h.client.get(f"/api/tables/{table_id}")).status_code == 404
        assert h.app.state.services.registry.table_of(players[0]["id"]) is None


async def _settled_hand(app, seat_ids, payments, key="v:1"):
    async with app.state.services.sessionmaker() as session:
        return await settle_hand(session, hand_key=key, room=ROOMS[RoomKey.BEGINNER], seats=seat_ids,
                                 variant="tiantai", record=RECORD, payments=payments, winners=[0])


async def _books(app):
    async with app.state.services.sessionmaker() as session:
        total = await session.scalar(select(func.sum(User.coins)))
        entries = await session.scalar(select(func.sum(LedgerEntry.delta)).where(LedgerEntry.asset == "coins"))
        return total, entries


async def test_voiding_a_hand_reverses_it_once_naming_the_hand_and_the_admin(client, player, app):
    boss = await player("boss", role="admin")
    seats = [await player(f"void{i}") for i in range(3)]
    before = await _books(app)
    hand = await _settled_hand(app, [p.id for p in seats], [(1, 0, 10), (2, 0, 5)])
    assert hand.coin_deltas == [1_500, -1_000, -500]
    response = await client.post(f"/api/admin/hands/{hand.hand_id}/void", headers=boss.headers,
                                 json={"reason": "dealt from a broken wall"})
    assert response.status_code == 200, response.text
    entries = response.json()["entries"]
    assert {(e["user_id"], e["asset"], e["delta"]) for e in entries} == {
        (seats[0].id, "coins", -1_500), (seats[1].id, "coins", 1_000), (seats[2].id, "coins", 500),
        (seats[0].id, "rank_points", -15),
    }
    assert all(e["hand_id"] == hand.hand_id and e["actor_id"] == boss.id and e["reason"] == "hand_void"
               and "dealt from a broken wall" in e["note"] for e in entries)
    for p in seats:
        me = (await client.get("/api/me", headers=p.headers)).json()
        assert (me["coins"], me["rank_points"]) == (50_000, 0)
    again = await client.post(f"/api/admin/hands/{hand.hand_id}/void", headers=boss.headers,
                              json={"reason": "double click"})
    assert again.status_code == 409 and again.json()["code"] == "hand_already_void"
    total, entry_sum = await _books(app)
    assert total == entry_sum == before[0]
    trail = await _audit(client, boss, action="hand.void")
    assert len(trail) == 1 and trail[0]["target_id"] == str(hand.hand_id)
    assert (await client.post("/api/admin/hands/99999/void", headers=boss.headers,
                              json={"reason": "x"})).status_code == 404


async def test_a_void_that_would_make_coins_negative_is_refused_and_changes_nothing(client, player, app):
    boss = await player("boss", role="admin")
    seats = [await player(f"spent{i}") for i in range(3)]
    hand = await _settled_hand(app, [p.id for p in seats], [(1, 0, 10)])
    # The winner spends everything, so taking the winnings back would go below 0.
    await client.post(f"/api/admin/users/{seats[0].id}/adjustments", headers=boss.headers,
                      json={"asset": "coins", "delta": -51_000, "reason": "spent"})
    response = await client.post(f"/api/admin/hands/{hand.hand_id}/void", headers=boss.headers,
                                 json={"reason": "x"})
    assert response.status_code == 409 and "below 0" in response.json()["detail"]
    assert response.json()["code"] == "void_below_zero"
    assert response.json()["params"] == {"hand_id": hand.hand_id, "user_id": seats[0].id, "balance": 0,
                                         "delta": -1_000}
    assert (await client.get("/api/me", headers=seats[1].headers)).json()["coins"] == 49_000
    assert await _audit(client, boss, action="hand.void") == []


async def test_operators_list_and_close_tables(client, player):
    op, alice, bob = await player("oper", role="operator"), await player("alice"), await player("bob")
    waiting = (await client.post("/api/rooms/beginner/tables", headers=alice.headers,
                                 json={"variant": "tiantai"})).json()
    practice = (await client.post("/api/practice", headers=bob.headers, json={"variant": "tiantai"})).json()
    live = (await client.get("/api/operator/tables", headers=op.headers)).json()
    assert {t["id"]: t["status"] for t in live} == {waiting["id"]: "waiting", practice["id"]: "playing"}
    refused = await client.post(f"/api/operator/tables/{practice['id']}/close", headers=op.headers,
                                json={"reason": "x"})
    assert refused.status_code == 409 and refused.json()["code"] == "table_playing"
    for table, force in ((waiting, False), (practice, True)):
        response = await client.post(f"/api/operator/tables/{table['id']}/close", headers=op.headers,
                                     json={"reason": "stuck", "force": force})
        assert response.status_code == 200, response.text
    assert (await client.get("/api/operator/tables", headers=op.headers)).json() == []
    # Both players are free to sit again.
    assert (await client.post("/api/practice", headers=alice.headers, json={"variant": "tiantai"})).status_code == 201
    boss = await player("boss", role="admin")
    trail = await _audit(client, boss, action="table.close")
    assert [(e["target_id"], e["actor_id"], e["after"]["force"]) for e in trail] == [
        (practice["id"], op.id, True), (waiting["id"], op.id, False)]


async def test_a_force_closed_table_stays_closed_after_a_restart(client, player, app, settings):
    """Closing a stuck table ends its game in the journal too: a restart (or another process's take-over)
    must not bring it back."""
    from app.main import create_app
    from app.models import LiveTable

    op, bob = await player("oper", role="operator"), await player("bob")
    table = (await client.post("/api/practice", headers=bob.headers, json={"variant": "tiantai"})).json()
    actor = app.state.table_runtime.actors[table["id"]]

    async def journalled() -> bool:
        async with app.state.services.sessionmaker() as session:
            row = await session.get(LiveTable, table["id"])
            await session.commit()
        return row is not None

    for _ in range(200):  # the game's row is written as the actor starts (the journal's writer commits it)
        if await journalled():
            break
        await asyncio.sleep(0.05)
    assert await journalled()
    response = await client.post(f"/api/operator/tables/{table['id']}/close", headers=op.headers,
                                 json={"reason": "stuck", "force": True})
    assert response.status_code == 200
    await asyncio.wait_for(actor.task, 10)
    assert not await journalled()
    restarted = create_app(settings)
    async with restarted.router.lifespan_context(restarted):
        assert not restarted.state.services.registry.is_open(table["id"])
        assert restarted.state.services.registry.table_of(bob.id) is None


async def test_a_frozen_player_at_a_practice_table_stands_up_after_the_hand(settings):
    """docs/rules/rooms.md#frozen: at a practice table the frozen player is the only person seated, so no one's
    game needs keeping: the seat plays the hand in play on 托管, then stands up, which ends that practice game
    and leaves the account free to commit again once unfrozen (F-10 keeps the others' game at coin tables)."""
    async with harness(settings) as h:
        alice = await h.register("fzp")
        boss = await h.register("bossp")
        await grant_role(h.app, boss["id"], "admin")
        table_id = (await h.client.post("/api/practice", headers=alice["headers"],
                                        json={"variant": "tiantai"})).json()["id"]
        # No socket, as a player whose browser closed: the seat is played on 托管 (the e2e console test's case).
        watcher = await h.connect_path(f"/ws/spectate/{table_id}", boss)
        response = await h.client.post(f"/api/admin/users/{alice['id']}/freeze", headers=boss["headers"],
                                       json={"frozen": True, "reason": "review"})
        assert response.status_code == 200
        registry = h.app.state.services.registry
        for _ in range(600):  # the join wait, then the hand in play finishes on 托管, then the seat stands up
            if registry.table_of(alice["id"]) is None:
                break
            h.clock.advance(1.0)
            await h.settle_loop(20)
        assert registry.table_of(alice["id"]) is None
        for _ in range(300):  # the practice game ends with its only player gone
            if (await h.client.get(f"/api/tables/{table_id}")).status_code == 404:
                break
            h.clock.advance(1.0)
            await h.settle_loop(20)
        assert (await h.client.get(f"/api/tables/{table_id}")).status_code == 404
        over = await watcher.recv_until(is_type("game_over"), timeout=5)
        assert over["reason"] == "player_left"  # after the hand in play, not at the end of the whole game
