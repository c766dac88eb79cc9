"""Tournaments that cannot be gamed (issue 23): impossible transitions are coded 409s and the API says what
is possible; voiding a tournament hand takes its points off the standings before the payout and is refused
after; house bots fill the last table; the house moves only through its own audited action."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from app.__main__ import main as cli_main
from app.core.config import get_settings
from app.models import AuditEntry, Hand, TournamentEntry, User
from app.services.errors import Conflict, ErrorCode
from app.tournaments import queries, service, voids
from app.tournaments.prizes import seat_round
from app.tournaments.spec import TournamentSpec
from tests.app.tournaments.test_tournaments import _create


async def _accounts(session, n: int, prefix: str = "pl") -> list[int]:
    users = [User(username=f"{prefix}{i}", username_key=f"{prefix}{i}", password_hash="!", coins=50_000)
             for i in range(n)]
    session.add_all(users)
    await session.commit()
    return [u.id for u in users]


async def _running(sessionmaker, players: int, *, rounds: int = 1, seed: int = 1, prefix: str = "pl") -> tuple[int, list[int]]:
    async with sessionmaker() as session:
        ids = await _accounts(session, players, prefix)
        t = await service.create(session, TournamentSpec(
            name="cup", room="beginner", variant="tiantai", starts_at=datetime.now(UTC) + timedelta(hours=1),
            entry_fee=1_000, player_limit=players + (-players % 3), rounds=rounds, prize_split=[100], options={}),
            actor_id=None)
        for uid in ids:
            await service.register(session, t.id, user_id=uid)
        await service.start(session, t.id, rng=random.Random(seed))
        return t.id, ids


# -- house bots ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 7, 8])
def test_house_bots_sit_only_at_the_last_table(players):
    """docs/tournaments.md: a short field is filled with house bots in the last table.  Issue 23: round 1's
    shuffle spread them over the tables."""
    field = [*range(1, players + 1), *[None] * (-players % 3)]
    for seed in range(40):
        tables = seat_round(field, 3, random.Random(seed))
        assert all(None not in table for table in tables[:-1]), (seed, tables)
        assert sorted(p for t in tables for p in t if p is not None) == list(range(1, players + 1))
    assert seat_round([3, 1, None, 2, None, None], 3, None) == [[3, 1, 2], [None, None, None]]


async def test_the_start_fills_only_the_last_table_with_bots(sessionmaker):
    for seed in range(6):
        tid, _ = await _running(sessionmaker, 4, seed=seed, prefix=f"s{seed}p")
        async with sessionmaker() as session:
            tables = [g.seats for g in await service.unfinished_games(session, tid)]
            await session.commit()
        assert [t.count(None) for t in tables] == [0, 2], tables
        async with sessionmaker() as session:  # a fresh field for the next seed
            await service.cancel(session, tid, actor_id=None, reason="next")


# -- transitions -----------------------------------------------------------------------------------------


async def test_impossible_transitions_are_coded_409s_and_the_api_lists_the_possible(client, player, app):
    op = await player("oper", role="operator")
    field = [await player(f"player{i}") for i in range(3)]
    t = await _create(client, op)
    assert t["actions"] == ["start", "cancel"]
    url = f"/api/operator/tournaments/{t['id']}"
    cancelled = await client.post(f"{url}/cancel", headers=op.headers, json={"reason": "rain"})
    assert cancelled.json()["actions"] == []
    for action, body in (("start", None), ("cancel", {"reason": "again"})):
        refused = await client.post(f"{url}/{action}", headers=op.headers, json=body)
        assert refused.status_code == 409 and refused.json()["code"] == "tournament_wrong_state", refused.text
        assert refused.json()["params"]["state"] == "cancelled"

    running = await _create(client, op)
    for p in field:
        await client.post(f"/api/tournaments/{running['id']}/register", headers=p.headers)
    started = await client.post(f"/api/operator/tournaments/{running['id']}/start", headers=op.headers)
    assert started.json()["state"] == "running" and started.json()["actions"] == ["cancel"]
    again = await client.post(f"/api/operator/tournaments/{running['id']}/start", headers=op.headers)
    assert again.status_code == 409 and again.json()["params"] == {
        "tournament_id": running["id"], "state": "running", "action": "start", "allowed": ["cancel"]}
    async with app.state.services.sessionmaker() as session:
        assert await service.pay_prizes(session, running["id"])
    refused = await client.post(f"/api/operator/tournaments/{running['id']}/cancel", headers=op.headers,
                                json={"reason": "too late"})
    assert refused.status_code == 409 and refused.json()["params"]["state"] == "finished"
    shown = (await client.get(f"/api/tournaments/{running['id']}")).json()
    assert shown["state"] == "finished" and shown["actions"] == []


async def test_the_command_line_refuses_an_impossible_transition_with_its_code(
        client, player, settings, monkeypatch, capsys, no_env_settings):
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    get_settings.cache_clear()
    try:
        op = await player("oper", role="operator")
        t = await _create(client, op)
        await client.post(f"/api/operator/tournaments/{t['id']}/cancel", headers=op.headers,
                          json={"reason": "rain"})
        code = await asyncio.to_thread(cli_main, ["tournament", "start", str(t["id"])])
        assert code == 1 and json.loads(capsys.readouterr().out)["code"] == "tournament_wrong_state"
        code = await asyncio.to_thread(cli_main, ["tournament", "show", str(t["id"])])
        assert code == 0 and json.loads(capsys.readouterr().out)["actions"] == []
    finally:
        get_settings.cache_clear()


# -- voiding a tournament hand ---------------------------------------------------------------------------


async def _hand(session, game, key: str, deltas: list[int]) -> int:
    hand = Hand(hand_key=key, table_id=game.table_id, variant="tiantai", room=None, practice=True,
                seats=list(game.seats), actions=[], result={}, settlement={"point_deltas": deltas})
    session.add(hand)
    await session.commit()
    return hand.id


async def _points(session, tid: int) -> dict[int, int]:
    rows = await session.scalars(select(TournamentEntry).where(TournamentEntry.tournament_id == tid)
                                 .execution_options(populate_existing=True))
    return {e.user_id: e.points for e in rows}


async def test_voiding_a_tournament_hand_takes_its_points_off_before_the_payout_and_is_refused_after(
        sessionmaker):
    """Issue 23: the void answered 200 and wrote an audit row, but the standings and the prizes stayed."""
    tid, _ = await _running(sessionmaker, 3, rounds=2)
    async with sessionmaker() as session:
        (admin_id,) = await _accounts(session, 1, prefix="boss")
        (game,) = await service.unfinished_games(session, tid)
        await service.set_table(session, game.id, "round1table")
        await session.refresh(game)
        hand_id = await _hand(session, game, "t:r1:h1", [8, -5, -3])
        game_id, seats = game.id, list(game.seats)  # a refusal rolls back, expiring ``game``
        with pytest.raises(Conflict) as refused:  # the table still plays: its totals would carry it back in
            await voids.void_hand(session, hand_id=hand_id, actor_id=admin_id, reason="misdeal")
        assert refused.value.code == ErrorCode.TOURNAMENT_GAME_PLAYING
        assert await service.add_game_result(session, game_id, points=[8, -5, -3], hands_played=1) == "next_round"
        assert await _points(session, tid) == dict(zip(seats, [8, -5, -3], strict=True))

        await voids.void_hand(session, hand_id=hand_id, actor_id=admin_id, reason="misdeal")
        assert await _points(session, tid) == dict.fromkeys(seats, 0)
        audit = (await session.scalars(select(AuditEntry).where(AuditEntry.action == "hand.void"))).one()
        assert audit.target_id == str(hand_id) and audit.reason == "misdeal"
        with pytest.raises(Conflict) as twice:
            await voids.void_hand(session, hand_id=hand_id, actor_id=admin_id, reason="again")
        assert twice.value.code == ErrorCode.HAND_ALREADY_VOID

        (final,) = await service.unfinished_games(session, tid)
        await service.set_table(session, final.id, "round2table")
        await session.refresh(final)
        # Round 2 is won by round 1's loser (-5): without the void round 1's winner (+8) would take the prize.
        winner = seats[1]
        points = [4 if uid == winner else -2 for uid in final.seats]
        late = await _hand(session, final, "t:r2:h1", points)
        assert await service.add_game_result(session, final.id, points=points, hands_played=1) == "finished"
        prizes = {s["user_id"]: s["prize"] for s in await queries.standings(session, tid)}
        assert prizes == {uid: 3_000 if uid == winner else 0 for uid in seats}
        with pytest.raises(Conflict) as paid:
            await voids.void_hand(session, hand_id=late, actor_id=admin_id, reason="too late")
        assert paid.value.code == ErrorCode.TOURNAMENT_PAID
        assert (await _points(session, tid))[winner] == 4


# -- the house -------------------------------------------------------------------------------------------


async def test_system_accounts_move_only_through_their_own_actions(client, player, app):
    boss, op, alice = await player("boss", role="admin"), await player("oper", role="operator"), await player("alice")
    t = await _create(client, op)
    async with app.state.services.sessionmaker() as session:
        pool = (await service.get(session, t["id"])).pool_user_id
        await session.commit()
    house = (await client.get("/api/operator/tournaments/house", headers=op.headers)).json()
    for account in (house["id"], pool):
        refused = await client.post(f"/api/admin/users/{account}/adjustments", headers=boss.headers,
                                    json={"asset": "coins", "delta": 1_000, "reason": "top up"})
        assert refused.status_code == 403 and refused.json()["code"] == "system_account", refused.text
    funded = await client.post("/api/admin/house", headers=boss.headers, json={"delta": 2_000, "reason": "fund"})
    assert funded.status_code == 201 and funded.json()["balance_after"] == 2_000
    drained = await client.post("/api/admin/house", headers=boss.headers, json={"delta": -500, "reason": "drain"})
    assert drained.status_code == 201 and drained.json()["balance_after"] == 1_500
    overdrawn = await client.post("/api/admin/house", headers=boss.headers, json={"delta": -5_000, "reason": "x"})
    assert overdrawn.status_code == 409 and overdrawn.json()["code"] == "balance_below_zero"
    not_admin = await client.post("/api/admin/house", headers=op.headers, json={"delta": 1, "reason": "x"})
    assert not_admin.status_code == 403
    assert (await client.get("/api/operator/tournaments/house", headers=op.headers)).json()["coins"] == 1_500
    # A player's adjustment still works.
    ok = await client.post(f"/api/admin/users/{alice.id}/adjustments", headers=boss.headers,
                           json={"asset": "coins", "delta": 10, "reason": "goodwill"})
    assert ok.status_code == 201, ok.text
