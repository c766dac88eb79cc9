"""Every REST error carries a stable machine code and its params (docs/errors.md; issue 9, item "codes")."""

from __future__ import annotations

import re
import typing

import pytest

from app.services.errors import WS, ErrorCode
from app.tables.protocol import messages as protocol
from engine.actions import Refusal


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"detail", "code", "params"} and isinstance(body["detail"], str) and body["detail"]
    assert body["code"] == code, body
    return body["params"]


def test_codes_are_unique_snake_case_with_a_description():
    values = [c.value for c in ErrorCode]
    assert len(values) == len(set(values))
    for code in ErrorCode:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code.value) and code.doc
        assert code.status is None or 400 <= code.status < 600
        assert code.channels and (code.status is not None or code.channels == (WS,))


def test_a_code_read_back_from_the_wire_is_the_same_member():
    """Another process's error reaches this one as its code's value (app.tables.cluster.directory.raise_payload)."""
    for code in ErrorCode:
        assert ErrorCode.parse(code.value) is code
    with pytest.raises(ValueError, match="'no_such_code' is not an error code"):
        ErrorCode.parse("no_such_code")


def test_socket_codes_are_rows_of_the_same_table():
    ws = {c.value for c in ErrorCode if WS in c.channels}
    assert set(typing.get_args(protocol.ErrorCode)) == ws
    assert {r.value for r in Refusal} <= ws  # the engine's refusals are sent as codes verbatim


async def test_auth_errors_have_codes(client, player):
    alice = await player("alice")
    params = _error(await client.post("/api/auth/register", json={"username": "ALICE", "password": "x" * 9}),
                    409, "username_taken")
    assert params == {"username": "ALICE"}
    _error(await client.post("/api/auth/login", json={"username": "alice", "password": "nope nope"}),
           401, "bad_credentials")
    response = await client.get("/api/me")
    _error(response, 401, "not_authenticated")
    assert response.headers["www-authenticate"] == "Bearer"
    _error(await client.get("/api/admin/users/1", headers=alice.headers), 403, "admin_only")
    params = _error(await client.post("/api/auth/register", json={"username": "ab", "password": "x" * 9}),
                    422, "invalid_username")
    assert params["field"] == "username" and (params["minimum"], params["maximum"]) == (3, 20)
    params = _error(await client.post("/api/auth/register", json={"username": "carol", "password": "short"}),
                    422, "invalid_password")
    assert params["minimum"] == 8


async def test_validation_errors_name_the_field_and_its_range(client, player):
    alice = await player("alice")
    params = _error(await client.get("/api/me/ledger?limit=500", headers=alice.headers), 422, "invalid_input")
    assert (params["field"], params["reason"], params["maximum"]) == ("limit", "less_than_equal", 200)
    assert params["errors"][0]["field"] == "limit"
    params = _error(await client.post("/api/rooms/beginner/tables", json={"options": {}}, headers=alice.headers),
                    422, "invalid_input")
    assert params["field"] == "variant" and params["reason"] == "missing"


async def test_table_errors_name_the_table(client, player):
    alice, bob = await player("alice"), await player("bob")
    _error(await client.get("/api/tables/nope"), 404, "table_not_found")
    created = await client.post("/api/rooms/beginner/tables", json={"variant": "taiwan"}, headers=alice.headers)
    table_id = created.json()["id"]
    params = _error(await client.post("/api/rooms/beginner/tables", json={"variant": "taiwan"},
                                      headers=alice.headers), 409, "already_seated")
    assert params == {"table_id": table_id, "seat": 0}
    params = _error(await client.post(f"/api/tables/{table_id}/sit", json={"seat": 0}, headers=bob.headers),
                    409, "seat_taken")
    assert params == {"table_id": table_id, "seat": 0}
    params = _error(await client.post(f"/api/tables/{table_id}/sit", json={"seat": 9}, headers=bob.headers),
                    422, "seat_out_of_range")
    assert (params["minimum"], params["maximum"]) == (0, 3)
    _error(await client.post(f"/api/tables/{table_id}/stand", headers=bob.headers), 409, "not_seated")


async def test_option_errors_name_the_option(client, player):
    alice = await player("alice")
    url = "/api/rooms/beginner/tables"
    params = _error(await client.post(url, json={"variant": "taiwan", "options": {"turbo": 1}},
                                      headers=alice.headers), 422, "unknown_option")
    assert params["option"] == "turbo"
    params = _error(await client.post(url, json={"variant": "taiwan", "options": {"rounds": 9}},
                                      headers=alice.headers), 422, "option_out_of_range")
    assert (params["option"], params["minimum"], params["maximum"]) == ("rounds", 1, 4)
    params = _error(await client.post(url, json={"variant": "taiwan", "options": {"rounds": "4"}},
                                      headers=alice.headers), 422, "option_wrong_type")
    assert params == {"option": "rounds", "type": "int"}


async def test_generic_http_errors_have_codes(client):
    _error(await client.get("/api/no-such-thing"), 404, "not_found")
    _error(await client.delete("/api/rooms"), 405, "method_not_allowed")
