"""Issue 25, quick play (快速開始) in one process: the API as the issue writes it, the matcher's waves,
rank bands (RULES.md §7 titles) and the spread that widens with waiting."""

from __future__ import annotations

import random

import pytest

from app.game.titles import TITLES
from app.quickplay.matching import WIDEST_SPREAD, QueueEntry, SpreadPolicy, form_tables

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
        "queued": False, "room": None, "variant": None, "since": None, "table_id": None}
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
