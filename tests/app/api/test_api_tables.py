"""Sitting, standing and practice tables over HTTP."""

from __future__ import annotations


async def _open(client, who, variant="taiwan", room="beginner"):
    response = await client.post(f"/api/rooms/{room}/tables", json={"variant": variant}, headers=who.headers)
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def test_sit_first_free_and_chosen_seat(client, player):
    alice, bob, carol = await player("alice"), await player("bob"), await player("carol")
    table_id = await _open(client, alice)
    response = await client.post(f"/api/tables/{table_id}/sit", headers=bob.headers)
    assert response.status_code == 200
    assert response.json()["seats"][1]["user_id"] == bob.id
    response = await client.post(f"/api/tables/{table_id}/sit", json={"seat": 3}, headers=carol.headers)
    assert [s["user_id"] for s in response.json()["seats"]] == [alice.id, bob.id, None, carol.id]


async def test_sit_errors(client, player):
    alice, bob, carol = await player("alice"), await player("bob"), await player("carol")
    table_id = await _open(client, alice)
    other_id = await _open(client, carol)
    sit = f"/api/tables/{table_id}/sit"

    assert (await client.post(sit, json={"seat": 0}, headers=bob.headers)).status_code == 409  # taken
    for seat in (4, -1):
        response = await client.post(sit, json={"seat": seat}, headers=bob.headers)
        assert response.status_code == 422 and "between 0 and 3" in response.json()["detail"]
    assert (await client.post(sit, json={"seat": "two"}, headers=bob.headers)).status_code == 422
    assert (await client.post(sit, headers=alice.headers)).json()["detail"] == "you are already seated at this table"
    # One table per account: carol sits at her own table already.
    response = await client.post(sit, headers=carol.headers)
    assert response.status_code == 409 and "another table" in response.json()["detail"]
    assert (await client.post("/api/tables/nope/sit", headers=bob.headers)).status_code == 404
    assert (await client.post(sit)).status_code == 401
    assert other_id != table_id


async def test_full_table_starts_playing(client, player):
    players = [await player(name) for name in ("alice", "bob", "carol", "dave")]
    table_id = await _open(client, players[0])
    for p in players[1:3]:
        assert (await client.post(f"/api/tables/{table_id}/sit", headers=p.headers)).json()["status"] == "waiting"
    last = await client.post(f"/api/tables/{table_id}/sit", headers=players[3].headers)
    assert last.json()["status"] == "playing"
    # Nobody can join or walk away from a game in progress through the lobby.
    erin = await player("erin")
    assert (await client.post(f"/api/tables/{table_id}/sit", headers=erin.headers)).status_code == 409
    response = await client.post(f"/api/tables/{table_id}/stand", headers=players[1].headers)
    assert response.status_code == 409 and "in progress" in response.json()["detail"]


async def test_stand_frees_the_seat_and_the_last_one_out_closes_the_table(client, player):
    alice, bob = await player("alice"), await player("bob")
    table_id = await _open(client, alice)
    await client.post(f"/api/tables/{table_id}/sit", headers=bob.headers)

    response = await client.post(f"/api/tables/{table_id}/stand", headers=alice.headers)
    assert response.status_code == 200
    assert [s["user_id"] for s in response.json()["table"]["seats"]] == [None, bob.id, None, None]
    assert (await client.post(f"/api/tables/{table_id}/stand", headers=alice.headers)).status_code == 409

    # alice is free to open another table now.
    await _open(client, alice, variant="tiantai")
    response = await client.post(f"/api/tables/{table_id}/stand", headers=bob.headers)
    assert response.json() == {"table": None}
    assert (await client.get(f"/api/tables/{table_id}")).status_code == 404
    assert (await client.post("/api/tables/nope/stand", headers=bob.headers)).status_code == 404


async def test_practice_table_fills_with_bots_and_is_private(client, player):
    alice, bob = await player("alice"), await player("bob")
    response = await client.post("/api/practice", json={"variant": "tiantai"}, headers=alice.headers)
    assert response.status_code == 201
    table = response.json()
    assert table["practice"] is True and table["room"] is None and table["status"] == "playing"
    assert [(s["user_id"], s["bot"]) for s in table["seats"]] == [(alice.id, False), (None, True), (None, True)]
    for room in ("beginner", "intermediate", "advanced"):
        assert (await client.get(f"/api/rooms/{room}/tables")).json() == []
    assert (await client.post(f"/api/tables/{table['id']}/sit", headers=bob.headers)).status_code == 403

    # Seated at practice, alice cannot also sit elsewhere; leaving closes the practice table.
    response = await client.post("/api/practice", json={"variant": "taiwan"}, headers=alice.headers)
    assert response.status_code == 409
    assert (await client.post(f"/api/tables/{table['id']}/stand", headers=alice.headers)).json() == {"table": None}
    assert (await client.post("/api/practice", json={"variant": "taiwan"}, headers=alice.headers)).status_code == 201


async def test_practice_needs_no_coins_but_validates_options(client, player):
    alice = await player("alice")
    bad = await client.post("/api/practice", json={"variant": "taiwan", "options": {"rounds": 9}}, headers=alice.headers)
    assert bad.status_code == 422
    assert (await client.post("/api/practice", json={"variant": "mahjong"}, headers=alice.headers)).status_code == 422
    assert (await client.post("/api/practice", json={"variant": "taiwan"})).status_code == 401
