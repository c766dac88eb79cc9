"""Tournaments (issue 11, docs/rules/rooms.md#tournaments): creation limits, registration through the ledger, refunds and
prizes exactly once (also under concurrent retries on Postgres), the pool balancing to zero."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from app.main import create_app
from app.models import Hand, LedgerEntry, Tournament, User
from app.services.errors import Conflict
from app.tournaments import queries, service
from app.tournaments.director import tournament_view
from app.tournaments.spec import TournamentSpec

SOON = (datetime.now(UTC) + timedelta(hours=1)).isoformat()


def spec(**overrides):
    body = {"name": "Sunday cup", "room": "beginner", "variant": "tiantai", "starts_at": SOON,
            "entry_fee": 1_000, "player_limit": 6, "rounds": 2, "hands_per_round": 1,
            "prize_split": [50, 30, 20], "options": {"rounds": 1}}
    return body | overrides


async def _create(client, operator, **overrides):
    response = await client.post("/api/operator/tournaments", headers=operator.headers, json=spec(**overrides))
    assert response.status_code == 201, response.text
    return response.json()


async def _coins(client, player):
    return (await client.get("/api/me", headers=player.headers)).json()["coins"]


async def _books_balance(app):
    """Every coin is accounted for: each account's entries sum to its balance."""
    async with app.state.services.sessionmaker() as session:
        rows = await session.execute(select(LedgerEntry.user_id, func.sum(LedgerEntry.delta))
                                     .where(LedgerEntry.asset == "coins").group_by(LedgerEntry.user_id))
        sums = dict(rows.all())
        balances = dict((await session.execute(select(User.id, User.coins))).all())
    assert {uid: c for uid, c in balances.items() if c or uid in sums} == {uid: int(s) for uid, s in sums.items()}


@pytest.mark.parametrize(("field", "value"), [
    ("player_limit", 7),          # not a multiple of 天台's 3 seats: refused at creation
    ("player_limit", 1),
    ("prize_split", [50, 40]),    # must sum to 100
    ("prize_split", [100, 0]),
    ("prize_split", [10] * 10),   # more paid places than players
    ("entry_fee", -1),
    ("entry_fee", "1000"),        # a JSON integer only
    ("rounds", 0),
    ("options", {"cap": 999}),
    ("variant", "mahjong"),
])
async def test_creation_refuses_bad_settings(client, player, field, value):
    op = await player("oper", role="operator")
    response = await client.post("/api/operator/tournaments", headers=op.headers, json=spec(**{field: value}))
    assert response.status_code == 422, (field, value, response.text)
    assert (await client.get("/api/tournaments")).json() == []


async def test_registration_moves_the_fee_into_the_pool_once_and_unregistering_refunds(client, player, app):
    op, alice = await player("oper", role="operator"), await player("alice")
    t = await _create(client, op)
    assert t["state"] == "registering" and t["pool"] == 0
    url = f"/api/tournaments/{t['id']}/register"
    for _ in range(2):  # registering twice charges once
        response = await client.post(url, headers=alice.headers)
        assert response.status_code == 200 and response.json()["pool"] == 1_000
    assert await _coins(client, alice) == 49_000
    assert [s["username"] for s in response.json()["standings"]] == ["alice"]
    response = await client.delete(url, headers=alice.headers)
    assert response.json()["pool"] == 0 and response.json()["registered"] == 0
    assert await _coins(client, alice) == 50_000
    await client.post(url, headers=alice.headers)  # again: a second fee with its own key
    assert await _coins(client, alice) == 49_000
    keys = [e["idempotency_key"] for e in (await client.get("/api/me/ledger", headers=alice.headers)).json()]
    assert keys[:3] == [f"tourney:{t['id']}:fee:{alice.id}:2", f"tourney:{t['id']}:refund:{alice.id}:1:in",
                        f"tourney:{t['id']}:fee:{alice.id}:1"]
    await _books_balance(app)


async def test_who_may_register(client, player):
    op, boss = await player("oper", role="operator"), await player("boss", role="admin")
    broke, frozen = await player("broke"), await player("frozen")
    t = await _create(client, op, player_limit=3, prize_split=[100])
    url = f"/api/tournaments/{t['id']}/register"
    await client.post(f"/api/admin/users/{broke.id}/adjustments", headers=boss.headers,
                      json={"asset": "coins", "delta": -30_001, "reason": "test"})
    response = await client.post(url, headers=broke.headers)  # the room's entry is 20,000
    assert response.status_code == 409 and response.json()["code"] == "insufficient_coins"
    await client.post(f"/api/admin/users/{frozen.id}/freeze", headers=boss.headers,
                      json={"frozen": True, "reason": "test"})
    await frozen.log_in_again(client)  # the freeze ended its sessions; a frozen account may still log in
    response = await client.post(url, headers=frozen.headers)
    assert response.status_code == 403 and response.json()["code"] == "account_frozen"
    for name in ("p_one", "p_two", "p_three"):
        assert (await client.post(url, headers=(await player(name)).headers)).status_code == 200
    response = await client.post(url, headers=(await player("p_four")).headers)
    assert response.status_code == 409 and response.json()["code"] == "tournament_full"
    assert (await client.post("/api/tournaments/999/register", headers=op.headers)).status_code == 404


async def test_cancelling_refunds_every_fee_and_the_guarantee_exactly_once(client, player, app):
    op, boss = await player("oper", role="operator"), await player("boss", role="admin")
    # The guarantee comes from the house account, which an admin funds with an audited adjustment.
    short = await client.post("/api/operator/tournaments", headers=op.headers, json=spec(guarantee=5_000))
    assert short.status_code == 409 and short.json()["code"] == "house_short"
    house = (await client.get("/api/operator/tournaments/house", headers=op.headers)).json()
    assert house["coins"] == 0
    refused = await client.post(f"/api/admin/users/{house['id']}/adjustments", headers=boss.headers,
                                json={"asset": "coins", "delta": 5_000, "reason": "fund the Sunday guarantee"})
    assert refused.status_code == 403 and refused.json()["code"] == "system_account"  # issue 23
    funded = await client.post("/api/admin/house", headers=boss.headers,
                               json={"delta": 5_000, "reason": "fund the Sunday guarantee"})
    assert funded.status_code == 201 and funded.json()["balance_after"] == 5_000, funded.text
    t = await _create(client, op, guarantee=5_000)
    assert t["pool"] == 5_000
    assert (await client.get("/api/operator/tournaments/house", headers=op.headers)).json()["coins"] == 0
    players = [await player(f"pl{i}") for i in range(4)]
    for p in players:
        await client.post(f"/api/tournaments/{t['id']}/register", headers=p.headers)
    url = f"/api/operator/tournaments/{t['id']}/cancel"
    first = await client.post(url, headers=op.headers, json={"reason": "venue closed"})
    assert first.json()["state"] == "cancelled" and first.json()["pool"] == 0 and first.json()["actions"] == []
    again = await client.post(url, headers=op.headers, json={"reason": "double click"})  # issue 23: not a 200
    assert again.status_code == 409 and again.json()["code"] == "tournament_wrong_state", again.text
    assert again.json()["params"] == {"tournament_id": t["id"], "state": "cancelled", "action": "cancel",
                                      "allowed": []}
    assert [await _coins(client, p) for p in players] == [50_000] * 4
    assert (await client.get("/api/operator/tournaments/house", headers=op.headers)).json()["coins"] == 5_000
    report = (await client.get(f"/api/operator/tournaments/{t['id']}/report", headers=op.headers)).json()
    assert (report["fees_in"], report["refunds_out"], report["guarantee_net"], report["pool"],
            report["balanced"]) == (4_000, 4_000, 0, 0, True)
    trail = (await client.get("/api/admin/audit", headers=boss.headers,
                              params={"target_type": "tournament", "target_id": str(t["id"])})).json()
    assert [e["action"] for e in trail] == ["tournament.cancel", "tournament.create"]
    house_trail = (await client.get("/api/admin/audit", headers=boss.headers,
                                    params={"action": "house.adjust"})).json()
    assert [(e["target_id"], e["after"]["delta"], e["reason"]) for e in house_trail] == [
        (str(house["id"]), 5_000, "fund the Sunday guarantee")]
    assert trail[0]["reason"] == "venue closed" and trail[0]["actor_id"] == op.id
    assert (await client.post(f"/api/tournaments/{t['id']}/register", headers=players[0].headers)).json().get(
        "code") == "tournament_closed"
    await _books_balance(app)


async def _running(sessionmaker, n_players, *, fee=1_000, split=(50, 30, 20), seats_variant="tiantai"):
    """A running tournament of ``n_players`` fresh accounts, straight through the service."""
    async with sessionmaker() as session:
        users = [User(username=f"u{i}x", username_key=f"u{i}x", password_hash="!", coins=50_000)
                 for i in range(n_players)]
        session.add_all(users)
        await session.flush()
        for u in users:
            session.add(LedgerEntry(user_id=u.id, asset="coins", delta=50_000, balance_after=50_000,
                                    reason="welcome_grant", idempotency_key=f"welcome:{u.id}"))
        await session.commit()
        t = await service.create(session, TournamentSpec(
            name="cup", room="beginner", variant=seats_variant, starts_at=datetime.now(UTC) + timedelta(minutes=5),
            entry_fee=fee,
            player_limit=n_players + (-n_players % 3), rounds=1, prize_split=list(split), options={}),
            actor_id=None)
        for u in users:
            await service.register(session, t.id, user_id=u.id)
        await service.start(session, t.id, rng=random.Random(1))
        return t.id, [u.id for u in users]


async def test_concurrent_payout_retries_pay_each_place_exactly_once(sessionmaker):
    tournament_id, users = await _running(sessionmaker, 6)

    async def pay() -> bool:
        async with sessionmaker() as session:
            return await service.pay_prizes(session, tournament_id)

    results = await asyncio.gather(*(pay() for _ in range(8)))
    assert results.count(True) == 1
    async with sessionmaker() as session:
        prizes = list(await session.scalars(select(LedgerEntry).where(
            LedgerEntry.reason == service.PRIZE, LedgerEntry.delta > 0)))
        # All tied on 0 points: 6,000 split three ways (places 1-3) and nothing for places 4-6 → shared
        # evenly by the six tied players: 1,000 each.
        assert sorted(e.delta for e in prizes) == [1_000] * 6
        assert len({e.idempotency_key for e in prizes}) == 6
        report = await queries.money_report(session, tournament_id)
    assert (report["pool"], report["fees_in"], report["prizes_out"], report["balanced"]) == (0, 6_000, 6_000, True)


async def test_concurrent_cancel_retries_refund_exactly_once(sessionmaker):
    tournament_id, users = await _running(sessionmaker, 3)

    async def cancel() -> str:
        async with sessionmaker() as session:
            try:
                return str(await service.cancel(session, tournament_id, actor_id=None, reason="retry storm"))
            except Conflict as refused:
                return refused.code.value

    outcomes = await asyncio.gather(*(cancel() for _ in range(8)))
    assert sorted(set(outcomes)) == ["True", "tournament_wrong_state"] and outcomes.count("True") == 1
    async with sessionmaker() as session:
        coins = [c for (c,) in (await session.execute(select(User.coins).where(User.id.in_(users)))).all()]
        assert coins == [50_000] * 3
        report = await queries.money_report(session, tournament_id)
        assert report["balanced"] and report["pool"] == 0 and report["refunds_out"] == 3_000
        # Paying after the cancel does nothing.
        assert await service.pay_prizes(session, tournament_id) is False


async def test_prizes_follow_the_standings(sessionmaker):
    tournament_id, users = await _running(sessionmaker, 3, fee=1_001, split=(70, 30))
    async with sessionmaker() as session:
        (game,) = await service.unfinished_games(session, tournament_id)
        await session.commit()
        points = {users[0]: 10, users[1]: -4, users[2]: -6}
        outcome = await service.add_game_result(session, game.id, points=[points[u] for u in game.seats],
                                            hands_played=1)
        assert outcome == "finished"
        again = await service.add_game_result(session, game.id, points=[1, 2, 3], hands_played=1)
        assert again == "ignored"
        table = await tournament_view(session, tournament_id)
    assert table["state"] == "finished"
    assert [(s["user_id"], s["points"], s["place"], s["prize"]) for s in table["standings"]] == [
        (users[0], 10, 1, 2_103), (users[1], -4, 2, 900), (users[2], -6, 3, 0)]  # 3,003 × 70% = 2,102.1 → +1


async def test_a_running_tournament_resumes_its_tables_after_a_restart(client, player, settings):
    op = await player("oper", role="operator")
    t = await _create(client, op, player_limit=3, prize_split=[100])
    players = [await player(f"rs{i}") for i in range(3)]
    for p in players:
        await client.post(f"/api/tournaments/{t['id']}/register", headers=p.headers)
    started = (await client.post(f"/api/operator/tournaments/{t['id']}/start", headers=op.headers)).json()
    (before,) = started["tables"]
    # A new process on the same database: the table is resumed (app.tables.durability.journal) or relaunched, and one
    # tick makes it the tournament's again (points, no coins, the hand limit).
    restarted = create_app(settings)
    async with restarted.router.lifespan_context(restarted):
        registry = restarted.state.services.registry
        await restarted.state.tournaments.tick()
        (table,) = registry.all_tables()
        assert sorted(table.seats) == sorted(p.id for p in players) and table.status == "playing"
        async with restarted.state.services.sessionmaker() as session:
            after = await tournament_view(session, t["id"])
        assert after["state"] == "running" and after["tables"][0]["table_id"] == table.id
        async with restarted.state.services.sessionmaker() as session:
            (game,) = await service.unfinished_games(session, t["id"])
            await session.commit()
        actor = restarted.state.tournaments.runtime.actors[table.id]
        assert (actor.info.tournament_game_id, actor.info.hands_limit) == (game.id, 1)
        await restarted.state.tournaments.tick()  # live already: nothing more starts
        assert len(registry.all_tables()) == 1
    assert before["table_id"]


async def test_scheduled_tournaments_open_and_start_when_due(client, player, app):
    op = await player("oper", role="operator")
    later = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    t = await _create(client, op, opens_at=(datetime.now(UTC) - timedelta(seconds=1)).isoformat(),
                      starts_at=later, player_limit=3, prize_split=[100])
    assert t["state"] == "registering"  # opens_at already past
    t = await _create(client, op, name="later", opens_at=later, starts_at=later)
    assert t["state"] == "scheduled"
    alice = await player("alice")
    refused = await client.post(f"/api/tournaments/{t['id']}/register", headers=alice.headers)
    assert refused.status_code == 409 and refused.json()["code"] == "tournament_closed"
    # Due now: the director's tick starts a registering tournament whose start time passed; with fewer
    # than two players it is cancelled (and refunded) instead.
    soon = await _create(client, op, name="now", player_limit=3, prize_split=[100])
    await client.post(f"/api/tournaments/{soon['id']}/register", headers=alice.headers)
    async with app.state.services.sessionmaker() as session:  # its start time comes
        await session.execute(update(Tournament).where(Tournament.id == soon["id"]).values(
            starts_at=datetime.now(UTC) - timedelta(seconds=1)))
        await session.commit()
    await app.state.tournaments.tick()
    assert (await client.get(f"/api/tournaments/{soon['id']}")).json()["state"] == "cancelled"
    assert (await client.get("/api/me", headers=alice.headers)).json()["coins"] == 50_000
    # The audit log names who acted: the operator created it, the director's own tick cancelled it (issue 28).
    boss = await player("boss", role="admin")
    trail = (await client.get("/api/admin/audit", headers=boss.headers,
                              params={"target_type": "tournament", "target_id": str(soon["id"])})).json()
    assert [(e["action"], e["actor_name"], e["target_name"]) for e in trail] == [
        ("tournament.cancel", "director", "now"), ("tournament.create", "oper", "now")]


async def test_concurrent_registration_retries_charge_the_fee_once_and_fill_no_seat_twice(client, player, app):
    """A double-clicked (or retried) registration, and a crowd racing for the last places, on Postgres too:
    each player pays once, the tournament never holds more than its limit, and the books balance."""
    op = await player("oper", role="operator")
    t = await _create(client, op, player_limit=3, prize_split=[100])
    url = f"/api/tournaments/{t['id']}/register"
    alice = await player("alice")
    responses = await asyncio.gather(*(client.post(url, headers=alice.headers) for _ in range(6)))
    assert {r.status_code for r in responses} == {200}
    assert await _coins(client, alice) == 49_000
    crowd = [await player(f"crowd{i}") for i in range(5)]
    responses = await asyncio.gather(*(client.post(url, headers=p.headers) for p in crowd))
    assert sorted(r.status_code for r in responses) == [200, 200, 409, 409, 409]
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"tournament_full"}
    detail = (await client.get(f"/api/tournaments/{t['id']}")).json()
    assert detail["registered"] == 3 and detail["pool"] == 3_000
    paid = [await _coins(client, p) for p in crowd]
    assert sorted(paid) == [49_000, 49_000, 50_000, 50_000, 50_000]
    await _books_balance(app)


async def test_standings_count_every_settled_hand_before_the_table_finishes(sessionmaker):
    """Issue 28: standings move after every hand, not only when a table's game is recorded."""
    tid, ids = await _running(sessionmaker, 3, split=(100,))
    async with sessionmaker() as session:
        [game] = await service.unfinished_games(session, tid)
        await service.set_table(session, game.id, "tbl-live")
        seats = list(game.seats)
        session.add(Hand(hand_key="tbl-live:g:1", table_id="tbl-live", variant="tiantai", room="beginner",
                         practice=True, seats=seats, actions=[], result={},
                         settlement={"point_deltas": [12, -4, -8]}))
        await session.commit()
        shown = await tournament_view(session, tid)
    points = {s["user_id"]: s["points"] for s in shown["standings"]}
    assert points == {seats[0]: 12, seats[1]: -4, seats[2]: -8}
    assert [s["user_id"] for s in shown["standings"]] == seats  # best first
    async with sessionmaker() as session:  # the game is recorded: its points count once, from the record
        assert await service.add_game_result(session, game.id, points=[12, -4, -8], hands_played=1) == "finished"
        shown = await tournament_view(session, tid)
    assert {s["user_id"]: s["points"] for s in shown["standings"]} == points
    assert (shown["state"], shown["pool"], shown["paid_out"]) == ("finished", 0, 3_000)


async def test_a_cancelled_tournament_lists_its_entrants_refunds(client, player, app):
    op = await player("oper", role="operator")
    t = await _create(client, op)
    alice, bob = await player("alice"), await player("bob")
    for p in (alice, bob):
        await client.post(f"/api/tournaments/{t['id']}/register", headers=p.headers)
    cancelled = await client.post(f"/api/operator/tournaments/{t['id']}/cancel", headers=op.headers,
                                  json={"reason": "rain"})
    shown = cancelled.json()
    assert (shown["state"], shown["pool"], shown["refunded"], shown["paid_out"]) == ("cancelled", 0, 2_000, 0)
    assert [(r["username"], r["coins"]) for r in shown["refunds"]] == [("alice", 1_000), ("bob", 1_000)]
