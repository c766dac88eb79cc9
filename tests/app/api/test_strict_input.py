"""Strict input (issue 23): request bodies refuse unknown fields and coerce nothing, table-socket messages the
same and tiles exactly; names others read are NFC with no control, bidi or zero-width character; times carry a
zone; a tournament cannot start in the past, open after it starts or pay a place more than the one above; a
body over ``Settings.max_body_bytes`` is 413 before anything parses it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from app.core.config import Settings
from app.tables.protocol.messages import client_message
from tests.app.tournaments.test_tournaments import spec

LATER = datetime.now(UTC) + timedelta(hours=1)


@pytest.mark.parametrize("seat", ["1", True, 1.0, [1]])
async def test_a_seat_is_a_json_integer_only(client, player, seat):
    alice, bob = await player("alice"), await player("bob")
    table = (await client.post("/api/rooms/beginner/tables", headers=alice.headers,
                               json={"variant": "tiantai", "options": {}})).json()
    response = await client.post(f"/api/tables/{table['id']}/sit", headers=bob.headers, json={"seat": seat})
    assert response.status_code == 422 and response.json()["code"] == "invalid_input", response.text
    assert response.json()["params"]["field"] == "seat"
    seats = (await client.get(f"/api/tables/{table['id']}")).json()["seats"]
    assert [s["user_id"] for s in seats] == [alice.id, None, None]


@pytest.mark.parametrize(("url", "body"), [
    ("/api/rooms/beginner/tables", {"variant": "tiantai", "options": {}, "stakes": 10}),
    ("/api/practice", {"variant": "tiantai", "bot_level": "easy", "cheat": True}),
    ("/api/practice", {"variant": "tiantai", "suggest_discard": "yes"}),
    ("/api/practice", {"variant": 1}),
])
async def test_unknown_fields_and_loose_values_are_refused(client, player, url, body):
    alice = await player("alice")
    response = await client.post(url, headers=alice.headers, json=body)
    assert response.status_code == 422 and response.json()["code"] == "invalid_input", response.text
    assert (await client.get("/api/me", headers=alice.headers)).json()["table"] is None


@pytest.mark.parametrize("frozen", ["yes", 1, "true", None])
async def test_a_freeze_needs_a_json_boolean(client, player, frozen):
    boss, alice = await player("boss", role="admin"), await player("alice")
    response = await client.post(f"/api/admin/users/{alice.id}/freeze", headers=boss.headers,
                                 json={"frozen": frozen, "reason": "test"})
    assert response.status_code == 422, response.text
    assert (await client.get("/api/me", headers=alice.headers)).json()["frozen"] is False


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("starts_at", (datetime.now(UTC) - timedelta(minutes=1)).isoformat(), "past"),
    ("starts_at", LATER.replace(tzinfo=None).isoformat(), "timezone_aware"),
    ("starts_at", int(LATER.timestamp()), "value_error"),
    ("opens_at", (LATER + timedelta(minutes=1)).isoformat(), "after_start"),
    ("prize_split", [30, 70], "increasing"),
    ("prize_split", [50, 20, 30], "increasing"),
    ("name", "\u202eevil", "hidden_character"),
    ("name", "a\u200bcup", "hidden_character"),
    ("name", "cup\x07", "hidden_character"),
    ("entry_fee", 1000.0, "int_type"),
    ("entry_fee", True, "int_type"),
    ("rounds", "2", "int_type"),
    ("sponsor", "acme", "extra_forbidden"),
])
async def test_tournament_creation_refuses_loose_or_impossible_settings(client, player, field, value, reason):
    op = await player("oper", role="operator")
    body = spec(**{"starts_at": LATER.isoformat(), field: value})
    response = await client.post("/api/operator/tournaments", headers=op.headers, json=body)
    assert response.status_code == 422, (field, value, response.text)
    params = response.json()["params"]
    assert params["field"] == field and reason in params["reason"], params
    assert (await client.get("/api/tournaments")).json() == []


async def test_names_are_stored_in_nfc(client, player):
    op = await player("oper", role="operator")
    response = await client.post("/api/operator/tournaments", headers=op.headers,
                                 json=spec(name="Cafe\u0301 cup", starts_at=LATER.isoformat()))
    assert response.status_code == 201, response.text
    assert response.json()["name"] == "Caf\u00e9 cup"


@pytest.mark.parametrize("message", [
    {"type": "action", "v": "30", "action": {"kind": "pass"}},
    {"type": "action", "v": 30.0, "action": {"kind": "pass"}},
    {"type": "action", "v": True, "action": {"kind": "pass"}},
    {"type": "action", "v": 30, "action": {"kind": "pass", "seat": True}},
    {"type": "action", "v": 30, "action": {"kind": "pass", "seat": "0"}},
    {"type": "action", "v": 30, "action": {"kind": "discard", "tile": " 9m"}},
    {"type": "action", "v": 30, "action": {"kind": "discard", "tile": "9m "}},
    {"type": "action", "v": 30, "action": {"kind": "discard", "tile": "九萬"}},
    {"type": "action", "v": 30, "action": {"kind": "discard", "tile": "8z"}},
    {"type": "action", "v": 30, "action": {"kind": "chow", "tiles": "3m 4m 5m"}},
    {"type": "action", "v": 30, "action": {"kind": "pass"}, "extra": 1},
    {"type": "ping", "t": "now"},
])
def test_socket_messages_are_strict_and_tiles_exact(message):
    with pytest.raises(ValidationError):
        client_message.validate_json(json.dumps(message))


@pytest.mark.parametrize("message", [
    {"type": "action", "v": 30, "action": {"kind": "discard", "tile": "9m", "seat": 2}},
    {"type": "action", "v": 30, "action": {"kind": "discard", "tile": "7z"}},
    {"type": "action", "v": 30, "action": {"kind": "chow", "tiles": "3m4m5m"}},
    {"type": "ping", "t": 12},
])
def test_exact_socket_messages_still_pass(message):
    client_message.validate_json(json.dumps(message))


async def test_a_body_over_the_limit_is_413_before_parsing_with_or_without_a_length(client, player):
    alice = await player("alice")
    limit = Settings.model_fields["max_body_bytes"].default
    big = json.dumps({"variant": "tiantai", "options": {"x": "a" * limit}}).encode()
    declared = await client.post("/api/practice", headers={**alice.headers, "Content-Type": "application/json"},
                                 content=big)
    assert declared.status_code == 413 and declared.json()["code"] == "body_too_large", declared.text
    assert declared.json()["params"] == {"maximum": limit}

    async def chunks():  # no Content-Length: chunked, counted as it arrives
        for start in range(0, len(big), 8192):
            yield big[start:start + 8192]

    streamed = await client.post("/api/practice", headers={**alice.headers, "Content-Type": "application/json"},
                                 content=chunks())
    assert streamed.status_code == 413 and streamed.json()["code"] == "body_too_large", streamed.text
    assert (await client.get("/api/me", headers=alice.headers)).json()["table"] is None
    small = await client.post("/api/practice", headers=alice.headers, json={"variant": "tiantai"})
    assert small.status_code == 201, small.text


async def test_every_request_body_of_the_api_forbids_unknown_fields(client):
    """Declared once in StrictIn: a body model that forgets it shows here (its schema allows extra fields)."""
    document = (await client.get("/openapi.json")).json()
    schemas = document["components"]["schemas"]
    bodies = {}
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            content = (operation.get("requestBody") or {}).get("content", {}).get("application/json")
            if content is not None:
                ref = content["schema"].get("$ref") or next(
                    s["$ref"] for s in content["schema"].get("anyOf", []) if "$ref" in s)
                bodies[(method, path)] = ref.rsplit("/", 1)[-1]
    assert len(bodies) >= 12
    loose = {key: name for key, name in bodies.items() if schemas[name].get("additionalProperties") is not False}
    assert loose == {}
