"""One owner of a player's commitments (issue 23): a seat, a queue entry or an unfinished tournament
registration, never two.  The service (app.services.commitments) under races, and every path that takes one:
sit, open a table, practice, register, tournament start."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select

from app.models import Commitment, TournamentEntry, User
from app.services import commitments
from app.services.commitments import CommitmentKind
from app.services.errors import Conflict, ErrorCode
from tests.app.tournaments.test_tournaments import _coins, _create

SEAT, QUEUE, TOURNAMENT = CommitmentKind.SEAT, CommitmentKind.QUEUE, CommitmentKind.TOURNAMENT


async def _user(sessionmaker, name: str) -> int:
    async with sessionmaker() as session:
        user = User(username=name, username_key=name, password_hash="!")
        session.add(user)
        await session.commit()
        return user.id


async def _acquire(sessionmaker, user_id, kind, ref, **kw):
    async with sessionmaker() as session:
        got = await commitments.acquire(session, user_id, kind, ref, **kw)
        await session.commit()
        return got


async def test_acquire_is_idempotent_and_refuses_another_with_its_code(sessionmaker):
    uid = await _user(sessionmaker, "alice")
    assert (await _acquire(sessionmaker, uid, SEAT, "t1")).created
    assert not (await _acquire(sessionmaker, uid, SEAT, "t1")).created
    for kind, ref in [(SEAT, "t2"), (QUEUE, "beginner"), (TOURNAMENT, "7")]:
        with pytest.raises(Conflict) as refused:
            await _acquire(sessionmaker, uid, kind, ref)
        assert refused.value.code == ErrorCode.ALREADY_SEATED and refused.value.params["table_id"] == "t1"
    async with sessionmaker() as session:
        assert not await commitments.release(session, uid, SEAT, "t2")  # not the one held: left alone
        assert await commitments.release(session, uid, SEAT, "t1")
        await session.commit()
        assert await commitments.current(session, uid) is None


async def test_a_queue_entry_is_replaced_only_by_whom_names_it(sessionmaker):
    uid = await _user(sessionmaker, "alice")
    await _acquire(sessionmaker, uid, QUEUE, "beginner")
    with pytest.raises(Conflict) as refused:
        await _acquire(sessionmaker, uid, SEAT, "t1")
    assert refused.value.code == ErrorCode.IN_QUEUE and refused.value.params == {"queue": "beginner"}
    with pytest.raises(Conflict):  # names another queue: refused
        await _acquire(sessionmaker, uid, SEAT, "t1", replaces=(QUEUE, "expert"))
    assert (await _acquire(sessionmaker, uid, SEAT, "t1", replaces=(QUEUE, "beginner"))).created
    async with sessionmaker() as session:
        held = await commitments.current(session, uid)
        assert held is not None and (held.kind, held.ref) == ("seat", "t1")


async def test_a_stale_seat_is_replaced_only_after_the_grace_and_when_its_table_is_gone(sessionmaker, monkeypatch):
    uid = await _user(sessionmaker, "alice")
    await _acquire(sessionmaker, uid, SEAT, "gone")
    seated = {"gone": False}

    async def probe(user_id: int, table_id: str) -> bool:
        return seated[table_id]

    with pytest.raises(Conflict):  # younger than the grace: the placing may be on its way
        await _acquire(sessionmaker, uid, TOURNAMENT, "3", seat_probe=probe)
    monkeypatch.setattr(commitments, "SEAT_GRACE", timedelta(0))
    seated["gone"] = True
    with pytest.raises(Conflict):  # the table still seats them: not stale
        await _acquire(sessionmaker, uid, TOURNAMENT, "3", seat_probe=probe)
    seated["gone"] = False
    assert (await _acquire(sessionmaker, uid, TOURNAMENT, "3", seat_probe=probe)).created


async def test_racing_acquires_for_one_player_record_exactly_one(sessionmaker):
    """Eight sessions at once (on Postgres: eight connections, as eight processes would): one wins."""
    uid = await _user(sessionmaker, "alice")

    async def attempt(n: int) -> str:
        try:
            # Refs as the app writes them: a tournament's id, a table's id.
            await _acquire(sessionmaker, uid, TOURNAMENT if n % 2 else SEAT, str(n) if n % 2 else f"t{n}")
            return "won"
        except Conflict:
            return "refused"

    outcomes = await asyncio.gather(*(attempt(n) for n in range(8)))
    assert outcomes.count("won") == 1, outcomes
    async with sessionmaker() as session:
        assert len(list(await session.scalars(select(Commitment).where(Commitment.user_id == uid)))) == 1


# -- through the API -------------------------------------------------------------------------------------


async def _playing_table(client, players):
    created = await client.post("/api/rooms/beginner/tables", headers=players[0].headers,
                                json={"variant": "tiantai", "options": {}})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    for p in players[1:]:
        sat = await client.post(f"/api/tables/{table_id}/sit", headers=p.headers)
        assert sat.status_code == 200, sat.text
    assert sat.json()["status"] == "playing"
    return table_id


async def test_a_player_seated_at_a_playing_coin_table_cannot_register_and_so_cannot_dodge_a_hand(client, player):
    """Issue 23: seated mid-game, registering took the coins out of reach of the hand being lost (1,900
    forfeited) and unregistering refunded them.  Now the registration is refused and no coin moves."""
    op = await player("oper", role="operator")
    seated = [await player(n) for n in ("alice", "bob", "carol")]
    table_id = await _playing_table(client, seated)
    t = await _create(client, op, entry_fee=40_000)
    refused = await client.post(f"/api/tournaments/{t['id']}/register", headers=seated[0].headers)
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "already_seated" and refused.json()["params"]["table_id"] == table_id
    assert await _coins(client, seated[0]) == 50_000
    assert (await client.get(f"/api/tournaments/{t['id']}")).json()["pool"] == 0


async def test_a_registered_player_cannot_sit_open_a_table_or_practice(client, player):
    op, alice, bob = await player("oper", role="operator"), await player("alice"), await player("bob")
    t = await _create(client, op)
    assert (await client.post(f"/api/tournaments/{t['id']}/register", headers=alice.headers)).status_code == 200
    table = (await client.post("/api/rooms/beginner/tables", headers=bob.headers,
                               json={"variant": "tiantai", "options": {}})).json()
    attempts = [
        client.post(f"/api/tables/{table['id']}/sit", headers=alice.headers),
        client.post("/api/rooms/beginner/tables", headers=alice.headers, json={"variant": "tiantai", "options": {}}),
        client.post("/api/practice", headers=alice.headers, json={"variant": "tiantai", "options": {}}),
    ]
    for attempt in attempts:
        response = await attempt
        assert response.status_code == 409, response.text
        assert response.json()["code"] == "registered_elsewhere"
        assert response.json()["params"] == {"tournament_id": t["id"]}
    assert [s["user_id"] for s in (await client.get(f"/api/tables/{table['id']}")).json()["seats"]] == [
        bob.id, None, None]


async def test_overlapping_registrations_are_refused_so_nobody_is_seated_twice(client, player, app):
    """Issue 23: four players registered in two tournaments starting together sat at two tables at once."""
    op = await player("oper", role="operator")
    field = [await player(f"player{i}") for i in range(3)]
    first, second = await _create(client, op), await _create(client, op)
    for p in field:
        assert (await client.post(f"/api/tournaments/{first['id']}/register", headers=p.headers)).status_code == 200
        refused = await client.post(f"/api/tournaments/{second['id']}/register", headers=p.headers)
        assert refused.status_code == 409 and refused.json()["code"] == "registered_elsewhere", refused.text
    director = app.state.tournaments
    await director.start(first["id"])
    await director.start(second["id"])  # nobody registered: cancelled, never seated
    seated = [uid for tid in (first["id"], second["id"])
              for g in (await client.get(f"/api/tournaments/{tid}")).json()["tables"] for uid in g["seats"] if uid]
    assert sorted(seated) == sorted(p.id for p in field)
    assert (await client.get(f"/api/tournaments/{second['id']}")).json()["state"] == "cancelled"


async def test_the_start_seats_only_players_committed_to_it(client, player, app):
    """A registration written before commitments existed (another tournament holds the player): the start
    refunds it and leaves the player out instead of seating them at a second table."""
    op = await player("oper", role="operator")
    field = [await player(f"player{i}") for i in range(4)]
    first, second = await _create(client, op), await _create(client, op)
    for p in field[:3]:
        await client.post(f"/api/tournaments/{second['id']}/register", headers=p.headers)
    await client.post(f"/api/tournaments/{first['id']}/register", headers=field[3].headers)
    async with app.state.services.sessionmaker() as session:  # the legacy double registration
        session.add(TournamentEntry(tournament_id=second["id"], user_id=field[3].id, registrations=1))
        await session.commit()
    await app.state.tournaments.start(second["id"])
    started = (await client.get(f"/api/tournaments/{second['id']}")).json()
    assert sorted(uid for g in started["tables"] for uid in g["seats"] if uid) == sorted(p.id for p in field[:3])
    assert field[3].id not in [s["user_id"] for s in started["standings"]]


async def test_standing_up_or_leaving_releases_the_commitment(client, player):
    op, alice = await player("oper", role="operator"), await player("alice")
    t = await _create(client, op)
    table = (await client.post("/api/rooms/beginner/tables", headers=alice.headers,
                               json={"variant": "tiantai", "options": {}})).json()
    assert (await client.post(f"/api/tables/{table['id']}/stand", headers=alice.headers)).status_code == 200
    url = f"/api/tournaments/{t['id']}/register"
    assert (await client.post(url, headers=alice.headers)).status_code == 200
    assert (await client.delete(url, headers=alice.headers)).status_code == 200
    practice = await client.post("/api/practice", headers=alice.headers, json={"variant": "tiantai", "options": {}})
    assert practice.status_code == 201, practice.text


async def test_a_finished_or_cancelled_tournament_releases_its_players(client, player, app):
    op, alice, bob = await player("oper", role="operator"), await player("alice"), await player("bob")
    t = await _create(client, op)
    for p in (alice, bob):
        await client.post(f"/api/tournaments/{t['id']}/register", headers=p.headers)
    cancelled = await client.post(f"/api/operator/tournaments/{t['id']}/cancel", headers=op.headers,
                                  json={"reason": "rain"})
    assert cancelled.status_code == 200, cancelled.text
    async with app.state.services.sessionmaker() as session:
        assert [await commitments.current(session, p.id) for p in (alice, bob)] == [None, None]


async def test_unregistering_after_the_start_is_a_coded_409_not_a_500(client, player, app):
    op = await player("oper", role="operator")
    field = [await player(f"player{i}") for i in range(3)]
    t = await _create(client, op)
    for p in field:
        await client.post(f"/api/tournaments/{t['id']}/register", headers=p.headers)
    await app.state.tournaments.start(t["id"])
    response = await client.delete(f"/api/tournaments/{t['id']}/register", headers=field[0].headers)
    assert response.status_code == 409, response.text
    assert response.json()["code"] == "tournament_closed" and response.json()["params"]["state"] == "running"


async def test_racing_requests_of_one_player_leave_one_commitment(client, player, app):
    """Register in two tournaments, open a table and practise, all at once: exactly one succeeds."""
    op, alice = await player("oper", role="operator"), await player("alice")
    first, second = await _create(client, op), await _create(client, op)
    responses = await asyncio.gather(
        client.post(f"/api/tournaments/{first['id']}/register", headers=alice.headers),
        client.post(f"/api/tournaments/{second['id']}/register", headers=alice.headers),
        client.post("/api/rooms/beginner/tables", headers=alice.headers, json={"variant": "tiantai", "options": {}}),
        client.post("/api/practice", headers=alice.headers, json={"variant": "tiantai", "options": {}}),
    )
    assert sorted(r.status_code for r in responses) == [200, 409, 409, 409] or sorted(
        r.status_code for r in responses) == [201, 409, 409, 409], [r.text for r in responses]
    pools = [(await client.get(f"/api/tournaments/{t['id']}")).json()["pool"] for t in (first, second)]
    tables = (await client.get("/api/rooms/beginner/tables")).json()
    assert sum(1 for p in pools if p) + len(tables) + sum(r.status_code == 201 for r in responses[3:]) == 1

