"""Issue 25, quick play (快速開始) in one process: the API as the issue writes it, the matcher's waves,
rank bands (docs/rules/rooms.md#titles) and the spread that widens with waiting."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import update

from app.game.titles import TITLES
from app.models import User
from app.quickplay.matching import WIDEST_SPREAD, QueueEntry, SpreadPolicy, form_tables
from tests.app.tournaments.test_tournaments import _create

NOW = 1_000_000.0
POLICY = SpreadPolicy(start=1, widen_seconds=10.0)


def _entry(uid: int, title: int, waited: float = 0.0) -> QueueEntry:
    return QueueEntry(uid, f"p{uid}", "beginner", "taiwan", NOW - waited, title, TITLES[title][0])


# --- the pure matcher -------------------------------------------------------------------------------


@pytest.mark.parametrize(("start", "waited", "allowed"), [
    (1, 0, 1), (1, 9.9, 1), (1, 10, 2), (1, 35, 4), (0, 0, 0), (2, 10_000, WIDEST_SPREAD),
])
def test_the_spread_widens_one_title_per_widen_seconds_up_to_the_ladder(start, waited, allowed):
    assert SpreadPolicy(start=start, widen_seconds=10.0).allowed(waited) == allowed


def test_bands_are_kept_apart_while_each_band_fills_tables():
    # Eight 白板 (title 0) and eight 中 (title 14), all just queued: two tables each, never mixed.
    members = [_entry(i, 0) for i in range(8)] + [_entry(100 + i, 14) for i in range(8)]
    random.Random(3).shuffle(members)
    tables = form_tables(members, 4, now=NOW, policy=POLICY, rng=random.Random(1))
    assert len(tables) == 4
    for table in tables:
        assert len({e.title_rank for e in table}) == 1
    assert sorted(e.user_id for t in tables for e in t) == sorted(e.user_id for e in members)


def test_far_apart_players_wait_until_their_spread_has_widened():
    far = [_entry(1, 0), _entry(2, 0), _entry(3, 0), _entry(4, 5)]
    assert form_tables(far, 4, now=NOW, policy=POLICY, rng=random.Random(1)) == []
    # The narrowest spread in the window counts: 5 titles need 40 s of waiting from everyone at start=1.
    waited = [_entry(1, 0, 40), _entry(2, 0, 40), _entry(3, 0, 40), _entry(4, 5, 39)]
    assert form_tables(waited, 4, now=NOW, policy=POLICY, rng=random.Random(1)) == []
    waited[-1] = _entry(4, 5, 40)
    assert [sorted(e.user_id for e in t) for t in form_tables(waited, 4, now=NOW, policy=POLICY,
                                                              rng=random.Random(1))] == [[1, 2, 3, 4]]


def test_neighbours_within_the_spread_sit_together_and_seats_are_random():
    members = [_entry(i, i % 2) for i in range(12)]  # titles 0 and 1: within a spread of 1
    orders = set()
    for seed in range(20):
        tables = form_tables(members, 3, now=NOW, policy=POLICY, rng=random.Random(seed))
        assert len(tables) == 4 and all(len(t) == 3 for t in tables)
        orders.add(tuple(e.user_id for e in tables[0]))
    assert len(orders) > 1  # the seat order is drawn, not the queue's


def test_a_remainder_smaller_than_a_table_keeps_waiting():
    members = [_entry(i, 0) for i in range(7)]
    tables = form_tables(members, 3, now=NOW, policy=POLICY, rng=random.Random(1))
    assert len(tables) == 2


# --- the API ----------------------------------------------------------------------------------------


@pytest.fixture
def settings(settings):  # noqa: F811 - the matcher's waves are stepped by the tests
    return settings.model_copy(update={"quickplay_matcher": False})


async def _wave(app) -> int:  # noqa: ANN001
    return await app.state.matcher.wave()


async def test_four_players_queue_and_are_seated_at_one_new_coin_table(client, player, app):
    players = [await player(f"qp{i}") for i in range(4)]
    for p in players[:3]:
        queued = await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "taiwan"})
        assert queued.status_code == 202, queued.text
        body = queued.json()
        assert (body["queued"], body["room"], body["variant"]) == (True, "beginner", "taiwan") and body["since"]
    assert await _wave(app) == 0  # three of four seats: nobody is seated yet
    status = (await client.get("/api/me/queue", headers=players[0].headers)).json()
    assert status["queued"] is True and status["table_id"] is None and status["variant"] == "taiwan"
    await client.post("/api/rooms/beginner/queue", headers=players[3].headers, json={"variant": "taiwan"})
    assert await _wave(app) == 1
    table_ids = set()
    for p in players:
        status = (await client.get("/api/me/queue", headers=p.headers)).json()
        assert status["queued"] is False and status["room"] == "beginner"
        table_ids.add(status["table_id"])
    (table_id,) = table_ids
    table = (await client.get(f"/api/tables/{table_id}")).json()
    assert table["room"] == "beginner" and table["variant"] == "taiwan" and table["status"] == "playing"
    assert sorted(s["user_id"] for s in table["seats"]) == sorted(p.id for p in players)
    # Seated now: queueing again is the seat's 409, and nothing changes.
    again = await client.post("/api/rooms/beginner/queue", headers=players[0].headers, json={"variant": "taiwan"})
    assert again.status_code == 409 and again.json()["code"] == "already_seated", again.text
    assert (await client.get("/api/me/queue", headers=players[0].headers)).json()["table_id"] == table_id


async def test_leaving_the_queue_is_idempotent_and_a_leaver_is_never_seated(client, player, app):
    players = [await player(f"lv{i}") for i in range(3)]
    for p in players:
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "tiantai"})
    for _ in range(2):
        left = await client.delete("/api/rooms/beginner/queue", headers=players[1].headers)
        assert left.status_code == 200 and left.json() == {"queued": False}
    assert await _wave(app) == 0
    assert (await client.get("/api/me/queue", headers=players[1].headers)).json() == {
        "queued": False, "room": None, "variant": None, "rounds": None, "since": None, "table_id": None}
    assert (await client.get("/api/me/queue", headers=players[0].headers)).json()["queued"] is True


async def test_queueing_again_in_the_same_pool_keeps_the_entry_and_another_pool_is_refused(client, player):
    alice = await player("alice")
    first = (await client.post("/api/rooms/beginner/queue", headers=alice.headers, json={"variant": "taipao"})).json()
    again = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json={"variant": "taipao"})
    assert again.status_code == 202 and again.json()["since"] == first["since"]
    other = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json={"variant": "taiwan"})
    assert other.status_code == 409 and other.json()["code"] == "in_queue", other.text
    status = (await client.get("/api/me/queue", headers=alice.headers)).json()
    assert (status["variant"], status["since"]) == ("taipao", first["since"])


async def test_refusals_are_coded_and_change_nothing(client, player):
    boss, alice, bob, carol = (await player("boss", role="admin"), await player("alice"), await player("bob"),
                               await player("carol"))
    await client.post(f"/api/admin/users/{alice.id}/freeze", headers=boss.headers,
                      json={"frozen": True, "reason": "chargeback"})
    await alice.log_in_again(client)  # the freeze ended her sessions; a frozen account may still log in
    frozen = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json={"variant": "taiwan"})
    assert frozen.status_code == 403 and frozen.json()["code"] == "account_frozen"
    # 50,000 welcome coins: below 中級's 60,000 entry.
    poor = await client.post("/api/rooms/intermediate/queue", headers=bob.headers, json={"variant": "taiwan"})
    assert poor.status_code == 409 and poor.json()["code"] == "insufficient_coins"
    assert poor.json()["params"] == {"room": "intermediate", "needed": 60_000, "have": 50_000}
    table = (await client.post("/api/rooms/beginner/tables", headers=carol.headers,
                               json={"variant": "tiantai"})).json()
    seated = await client.post("/api/rooms/beginner/queue", headers=carol.headers, json={"variant": "tiantai"})
    assert seated.status_code == 409 and seated.json()["code"] == "already_seated"
    assert seated.json()["params"]["table_id"] == table["id"]
    bad = await client.post("/api/rooms/beginner/queue", headers=bob.headers, json={"variant": "mahjong"})
    assert bad.status_code == 422
    for p in (alice, bob, carol):
        assert (await client.get("/api/me/queue", headers=p.headers)).json()["queued"] is False
    anonymous = await client.post("/api/rooms/beginner/queue", json={"variant": "taiwan"})
    assert anonymous.status_code == 401


async def test_a_tournament_registration_and_a_queue_entry_exclude_each_other(client, player):
    op, alice, bob = await player("oper", role="operator"), await player("alice"), await player("bob")
    t = await _create(client, op)
    assert (await client.post(f"/api/tournaments/{t['id']}/register", headers=alice.headers)).status_code == 200
    refused = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json={"variant": "taiwan"})
    assert refused.status_code == 409 and refused.json()["code"] == "registered_elsewhere", refused.text
    assert (await client.get("/api/me/queue", headers=alice.headers)).json()["queued"] is False
    # Queued: registering, opening a table and practice are refused with in_queue, and the queue stays.
    assert (await client.post("/api/rooms/beginner/queue", headers=bob.headers,
                              json={"variant": "taiwan"})).status_code == 202
    for attempt in (client.post(f"/api/tournaments/{t['id']}/register", headers=bob.headers),
                    client.post("/api/rooms/beginner/tables", headers=bob.headers, json={"variant": "tiantai"}),
                    client.post("/api/practice", headers=bob.headers, json={"variant": "tiantai"})):
        response = await attempt
        assert response.status_code == 409 and response.json()["code"] == "in_queue", response.text
    assert (await client.get("/api/me/queue", headers=bob.headers)).json()["queued"] is True
    # Left: free again.
    await client.delete("/api/rooms/beginner/queue", headers=bob.headers)
    assert (await client.post("/api/practice", headers=bob.headers, json={"variant": "tiantai"})).status_code == 201


async def test_a_leave_that_wins_the_race_with_a_match_keeps_that_player_out(client, player, app):
    """The match has claimed the members; one leaves before the commitments swap: nobody is seated, the
    leaver is free and the others wait again with their first ``since``."""
    players = [await player(f"race{i}") for i in range(3)]
    for p in players:
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "tiantai"})
    matcher = app.state.matcher
    commitments = matcher.quickplay.commitments
    swap = commitments.seat

    leaving: list[asyncio.Task] = []

    async def leave_first(table_id, room, variant, rounds, user_ids):  # noqa: ANN001, ANN202
        # The leave gives the commitment back at once, then waits for this match to end: let it wait.
        leaving.append(asyncio.create_task(client.delete("/api/rooms/beginner/queue", headers=players[1].headers)))
        while await commitments.current(players[1].id) is not None:
            await asyncio.sleep(0.01)
        return await swap(table_id, room, variant, rounds, user_ids)

    commitments.seat = leave_first
    try:
        assert await _wave(app) == 0
    finally:
        commitments.seat = swap
    left = await leaving[0]
    assert left.status_code == 200 and left.json() == {"queued": False}
    assert (await client.get("/api/me/queue", headers=players[1].headers)).json()["queued"] is False
    assert app.state.services.registry.list_tables() == []
    for p in (players[0], players[2]):
        assert (await client.get("/api/me/queue", headers=p.headers)).json()["queued"] is True
    # The leaver is free to do anything else; the other two are still only queued.
    assert (await client.post("/api/practice", headers=players[1].headers, json={"variant": "tiantai"})).status_code == 201


async def test_a_claim_left_by_a_dead_matcher_puts_its_players_back_in_the_queue(client, player, app):
    """The matcher died after the claim and the commitments swap, before the table existed: the next wave
    past twice the lease gives every member back to the queue (commitment and entry, first ``since``)."""
    players = [await player(f"dead{i}") for i in range(3)]
    for p in players:
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "tiantai"})
    matcher = app.state.matcher
    store = matcher.store
    group = await store.members("beginner", "tiantai", 1)
    assert await store.claim("T-dead", group)
    assert await matcher.quickplay.commitments.seat("T-dead", "beginner", "tiantai", 1, [e.user_id for e in group]) == []
    # Meanwhile it counts as queued (being seated) and other pools are refused.
    other = await client.post("/api/rooms/beginner/queue", headers=players[0].headers, json={"variant": "taiwan"})
    assert other.status_code == 409
    await matcher.recover()  # too young: it might still be seating
    assert len(await store.claims()) == 1
    aged = await store.claims()
    store.claimed["T-dead"] = type(aged[0])("T-dead", aged[0].at - 3 * matcher.lease_seconds, aged[0].entries)
    assert await _wave(app) == 1  # recovered, then seated at a real table in the same wave
    assert await store.claims() == []
    tables = app.state.services.registry.list_tables()
    assert len(tables) == 1 and sorted(tables[0].players) == sorted(p.id for p in players)


async def test_rank_bands_are_respected_while_enough_players_of_each_band_wait(client, player, app):
    """Four 白板 (積分 0) and four 中 (120,000 積分, docs/rules/rooms.md#titles) queue mixed: two tables, one per band."""
    low = [await player(f"low{i}") for i in range(4)]
    high = [await player(f"high{i}") for i in range(4)]
    async with app.state.services.sessionmaker() as session:
        await session.execute(update(User).where(User.id.in_([p.id for p in high])).values(rank_points=120_000))
        await session.commit()
    for p in [x for pair in zip(low, high, strict=True) for x in pair]:
        assert (await client.post("/api/rooms/beginner/queue", headers=p.headers,
                                  json={"variant": "taipao"})).status_code == 202
    assert await _wave(app) == 2
    tables = {}
    for p in low + high:
        tables.setdefault((await client.get("/api/me/queue", headers=p.headers)).json()["table_id"], set()).add(p.id)
    assert sorted(map(sorted, tables.values())) == sorted([sorted(p.id for p in low), sorted(p.id for p in high)])


async def test_a_player_frozen_or_broke_while_waiting_leaves_the_queue_and_the_others_wait_on(client, player, app):
    boss = await player("boss", role="admin")
    players = [await player(f"fz{i}") for i in range(4)]
    for p in players:
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "tiantai"})
    await client.post(f"/api/admin/users/{players[0].id}/freeze", headers=boss.headers,
                      json={"frozen": True, "reason": "chargeback"})
    adjusted = await client.post(f"/api/admin/users/{players[1].id}/adjustments", headers=boss.headers,
                                 json={"asset": "coins", "delta": -40_000, "reason": "refund reversal"})
    assert adjusted.status_code in (200, 201), adjusted.text  # 10,000 left: below 初級's 20,000
    assert await _wave(app) == 0
    quickplay = app.state.matcher.quickplay
    for p in players[:2]:  # (a freeze also ends the account's sessions: ask the service, not the API)
        assert (await quickplay.status(p.id)).queued is False
    for p in players[2:]:
        assert (await client.get("/api/me/queue", headers=p.headers)).json()["queued"] is True
    late = await player("fz_late")
    await client.post("/api/rooms/beginner/queue", headers=late.headers, json={"variant": "tiantai"})
    assert await _wave(app) == 1
    assert (await client.get("/api/me/queue", headers=late.headers)).json()["table_id"] is not None


@pytest.mark.parametrize("body", [{"variant": 1}, {"variant": "taiwan", "extra": 1}, {}, {"variant": "TAIWAN "}])
async def test_a_bad_queue_body_is_a_coded_422_and_queues_nothing(client, player, body):
    alice = await player("alice")
    response = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json=body)
    assert response.status_code == 422 and response.json()["code"] == "invalid_input", response.text
    assert (await client.get("/api/me/queue", headers=alice.headers)).json()["queued"] is False
