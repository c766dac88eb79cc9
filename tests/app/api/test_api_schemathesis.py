"""Never a 500 (issue 23): Schemathesis generates requests for every operation of the HTTP API from its own
OpenAPI document and sends them in-process, as an anonymous client, a player, an operator and an admin.
No response may be a 5xx, and every response must match what the document says of it (its schema and
content type).

Bounded for CI: ``EXAMPLES`` generated requests per operation and role (45 operations × 4 roles × 8 ≈ 1,400
requests, ~40 s on the CI machine); set ``SCHEMATHESIS_EXAMPLES`` for a longer run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance
from starlette.testclient import TestClient

from app.main import create_app
from tests.app.conftest import PASSWORD, grant_role

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "8"))
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
ROLES = ("anonymous", "player", "operator", "admin")


def _account(client: TestClient, name: str) -> dict[str, Any]:
    response = client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return response.json()


def _world(client: TestClient) -> dict[str, str | None]:
    """Accounts of every role, and something for ids to find: a waiting table, a tournament, a settled hand."""
    tokens: dict[str, str | None] = {"anonymous": None}
    for role in ROLES[1:]:
        body = _account(client, f"{role}_x")
        if role != "player":
            client.portal.call(grant_role, client.app, body["user"]["id"], role)  # type: ignore[union-attr]
        tokens[role] = body["access_token"]
    player = {"Authorization": f"Bearer {tokens['player']}"}
    operator = {"Authorization": f"Bearer {tokens['operator']}"}
    assert client.post("/api/rooms/beginner/tables", headers=player, json={"variant": "tiantai"}).status_code == 201
    starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    created = client.post("/api/operator/tournaments", headers=operator, json={
        "name": "Fuzz cup", "room": "beginner", "variant": "tiantai", "starts_at": starts, "entry_fee": 100,
        "player_limit": 3, "rounds": 1, "prize_split": [100], "options": {}})
    assert created.status_code == 201, created.text
    return tokens


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_no_operation_answers_5xx_or_off_its_schema(settings):  # noqa: ANN001 - the conftest fixture
    app = create_app(settings)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 30  # the whole API, not a corner of it
    with TestClient(app, raise_server_exceptions=False) as client:
        tokens = _world(client)
        for role in ROLES:
            for operation in operations:
                _fuzz(client, operation, tokens[role])


def _fuzz(client: TestClient, operation: Any, token: str | None) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy())
    def one(case: Any) -> None:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        cookies = kwargs.pop("cookies", None) or {}
        client.cookies.clear()
        client.cookies.update(cookies)  # per-request cookies are deprecated in the test client
        headers = {k: v for k, v in kwargs.pop("headers", {}).items() if k.lower() != "authorization"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = client.request(headers=headers, **kwargs)
        case.validate_response(response, checks=CHECKS)

    one()
