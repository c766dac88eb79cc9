"""Every route of the OpenAPI document, called by each role: operator and admin routes refuse lesser roles
(401 anonymous, 403 a player / an operator on admin routes) before looking at anything else; the hand-record
routes (a record and its replay) open to the hand's players, operators and admins."""

from __future__ import annotations

import re

from fastapi.routing import APIRoute

from app.api.deps import get_admin_user, get_operator_user
from app.api.routes.hands import readable_hand
from tests.app.services.test_history import _settle

ROLES = ["anonymous", "player", "operator", "admin"]
NEEDS = {"operator": {"operator", "admin"}, "admin": {"admin"}}


def _api_routes(routes) -> list[APIRoute]:
    """Every APIRoute, also inside included routers (FastAPI >= 0.16x keeps them nested)."""
    found = []
    for route in routes:
        nested = getattr(route, "original_router", None)
        if nested is not None:
            found += _api_routes(nested.routes)
        elif isinstance(route, APIRoute):
            found.append(route)
    return found


def _guards(dependant) -> set:
    found = {dep.call for dep in dependant.dependencies}
    for dep in dependant.dependencies:
        found |= _guards(dep)
    return found


def _required_role(route: APIRoute) -> str | None:
    guards = _guards(route.dependant)
    if get_admin_user in guards:
        return "admin"
    return "operator" if get_operator_user in guards else None


async def test_role_tags_match_the_guards(app):
    """The tag a test or a reader sees is the guard that runs: no admin path without its check."""
    routes = _api_routes(app.routes)
    assert len(routes) > 10
    for route in routes:
        role = _required_role(route)
        tagged = {"admin", "operator"} & set(route.tags or [])
        assert tagged == ({role} if role else set()), route.path
        if route.path.startswith(("/api/admin", "/api/operator")):
            assert role is not None, f"{route.path} has no role guard"


async def test_every_route_with_every_role(client, app, player):
    accounts = {
        role: await player(f"r_{role}", role=None if role == "player" else role)
        for role in ROLES if role != "anonymous"
    }
    paths = (await client.get("/openapi.json")).json()["paths"]
    checked = 0
    for path, methods in paths.items():
        url = re.sub(r"\{[^}]+\}", "1", path)
        for method, operation in methods.items():
            needs = next((tag for tag in ("admin", "operator") if tag in operation.get("tags", [])), None)
            if needs is None:
                continue
            for role in ROLES:
                headers = accounts[role].headers if role != "anonymous" else {}
                response = await client.request(method.upper(), url, headers=headers, json={})
                if role == "anonymous":
                    expected = {401}
                elif role not in NEEDS[needs]:
                    expected = {403}
                else:
                    expected = None
                if expected is None:
                    assert response.status_code not in (401, 403), (method, path, role, response.text)
                else:
                    assert response.status_code in expected, (method, path, role, response.text)
                checked += 1
    # Both kinds exist, so the walk checked something of each.
    assert checked >= 4 * 10


def _hand_record_routes(routes) -> list[APIRoute]:
    """The routes behind the hand-record rule (``readable_hand``): a record and its replay."""
    return [r for r in _api_routes(routes) if readable_hand in _guards(r.dependant)]


async def test_hand_record_routes_with_every_role(client, app, player):
    """Issue 11: the console opens any finished hand's record and replay, so operators read them like admins;
    a player who did not play the hand is refused (HANDS_PUBLIC_AFTER_CLOSE is off here)."""
    accounts = {
        role: await player(f"h_{role}", role=None if role == "player" else role)
        for role in ROLES if role != "anonymous"
    }
    seated = [await player(f"h_seat{i}") for i in range(3)]
    hand_id, _hand = await _settle(app, [p.id for p in seated], 1)
    routes = _hand_record_routes(app.routes)
    assert {r.path for r in routes} == {"/api/hands/{hand_id}", "/api/hands/{hand_id}/replay"}
    expected = {"anonymous": 401, "player": 403, "operator": 200, "admin": 200}
    for route in routes:
        url = route.path.replace("{hand_id}", str(hand_id))
        for role in ROLES:
            headers = accounts[role].headers if role != "anonymous" else {}
            response = await client.get(url, headers=headers)
            assert response.status_code == expected[role], (url, role, response.text)
            if response.status_code == 200:
                body = response.json()
                record = body.get("hand", body)
                assert record["id"] == hand_id and record["seed"]
            elif role == "player":
                assert response.json()["code"] == "hand_private"
        # The hand's own player reads it whatever the role.
        assert (await client.get(url, headers=seated[1].headers)).status_code == 200
