"""Rooms, variants, and opening tables with options."""

from __future__ import annotations

import pytest


async def test_rooms_are_the_three_of_the_rules(client):
    response = await client.get("/api/rooms")
    assert response.status_code == 200
    assert response.json() == [
        {"key": "beginner", "name": "初級", "names": {"zh_hans": "初级", "zh_hant": "初級", "en": "Beginner"},
         "coins_per_point": 100, "entry_coins": 20_000},
        {"key": "intermediate", "name": "中級", "names": {"zh_hans": "中级", "zh_hant": "中級", "en": "Intermediate"},
         "coins_per_point": 300, "entry_coins": 60_000},
        {"key": "advanced", "name": "高級", "names": {"zh_hans": "高级", "zh_hant": "高級", "en": "Advanced"},
         "coins_per_point": 600, "entry_coins": 120_000},
    ]


async def test_variants_list_seats_and_options(client):
    variants = {v["key"]: v for v in (await client.get("/api/variants")).json()}
    assert {k: v["seats"] for k, v in variants.items()} == {"tiantai": 3, "taipao": 4, "taiwan": 4}
    assert variants["taiwan"]["options"]["rounds"] == {
        "type": "int", "default": 4, "minimum": 1, "maximum": 4, "choices": None, "length": None,
        "doc": "圈 per game",
    }
    # every scoring value is a room option too (docs/rules/timing.md#room-options), with the engine's default and range
    assert variants["tiantai"]["options"]["cap"] | {"doc": ""} == {
        "type": "int", "default": 300, "minimum": None, "maximum": None, "choices": [100, 200, 300],
        "length": None, "doc": ""}
    assert (variants["taiwan"]["options"]["di"]["default"], variants["taiwan"]["options"]["di"]["maximum"]) == (5, 100)
    assert variants["taipao"]["options"]["shazhu"]["length"] == 3
    for variant in variants.values():  # every option published with a type and a range or choices
        for spec in variant["options"].values():
            assert spec["type"] in ("bool", "str") or spec["choices"] or spec["maximum"] is not None
            assert spec["type"] != "str" or spec["choices"]


async def test_create_table_seats_the_creator(client, player):
    alice = await player("alice")
    response = await client.post(
        "/api/rooms/beginner/tables", json={"variant": "taiwan", "options": {"rounds": 1}}, headers=alice.headers
    )
    assert response.status_code == 201, response.text
    table = response.json()
    assert table["room"] == "beginner" and table["variant"] == "taiwan" and table["status"] == "waiting"
    assert table["options"]["rounds"] == 1 and table["options"]["di"] == 5  # the default filled in
    assert [(s["user_id"], s["username"], s["bot"]) for s in table["seats"]] == [
        (alice.id, "alice", False), (None, None, False), (None, None, False), (None, None, False),
    ]
    listed = (await client.get("/api/rooms/beginner/tables")).json()
    assert [t["id"] for t in listed] == [table["id"]]
    assert (await client.get("/api/rooms/advanced/tables")).json() == []
    assert (await client.get(f"/api/tables/{table['id']}")).json() == table


async def test_tiantai_tables_have_three_seats(client, player):
    alice = await player("alice")
    table = (await client.post("/api/rooms/beginner/tables", json={"variant": "tiantai"}, headers=alice.headers)).json()
    assert len(table["seats"]) == 3 and table["options"]["cap"] == 300


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"variant": "riichi"}, "variant"),
        ({}, "variant"),
        ({"variant": "taiwan", "options": {"rounds": 0}}, "between 1 and 4"),
        ({"variant": "taiwan", "options": {"rounds": 5}}, "between 1 and 4"),
        ({"variant": "taiwan", "options": {"rounds": "2"}}, "must be int"),
        ({"variant": "taiwan", "options": {"rounds": True}}, "must be int"),
        ({"variant": "taiwan", "options": {"rounds": 2.5}}, "must be int"),
        ({"variant": "taiwan", "options": {"cheats": 1}}, "unknown option"),
        ({"variant": "taiwan", "options": {"cap": 300}}, "unknown option"),  # a tiantai option
        ({"variant": "tiantai", "options": {"cap": 255}}, "one of [100, 200, 300]"),
        ({"variant": "taipao", "options": {"eight_flowers": 1}}, "eight_flowers"),
        ({"variant": "taiwan", "options": {"di": -5}}, "di"),
        ({"variant": "taiwan", "options": ["rounds"]}, "options"),
    ],
)
async def test_bad_table_request_is_422(client, player, body, message):
    alice = await player("alice")
    response = await client.post("/api/rooms/beginner/tables", json=body, headers=alice.headers)
    assert response.status_code == 422
    assert message in response.text
    assert (await client.get("/api/rooms/beginner/tables")).json() == []


async def test_unknown_room_is_422(client, player):
    alice = await player("alice")
    assert (await client.get("/api/rooms/vip/tables")).status_code == 422
    response = await client.post("/api/rooms/vip/tables", json={"variant": "taiwan"}, headers=alice.headers)
    assert response.status_code == 422


async def test_room_entry_coins_are_enforced(client, player):
    alice = await player("alice")  # 50,000 coins: enough for 初級 only
    response = await client.post("/api/rooms/intermediate/tables", json={"variant": "taiwan"}, headers=alice.headers)
    assert response.status_code == 409
    assert "60000" in response.json()["detail"]


async def test_creating_needs_login(client):
    assert (await client.post("/api/rooms/beginner/tables", json={"variant": "taiwan"})).status_code == 401
