"""Issue 34: POST /api/me/password had no throttle; 29 wrong current passwords and then the right one took
24 s, turning a stolen token into a permanent takeover.  Wrong current passwords now count in the login
throttles, per account and per address (the same limits as a login: LOGIN_FAILURES_PER_USER, LOGIN_PER_IP),
and past either limit the answer is 429 with Retry-After, even for the right password.  Also: a session id
that is not one (a NUL gave a 500) is a 422."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.services import accounts
from tests.app.conftest import PASSWORD

NEW = "a brand new password"


async def _client(app: FastAPI, ip: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(ip, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://test")


@pytest.fixture
async def strict_app(settings):
    strict = settings.model_copy(update={"login_per_ip": 4, "login_failures_per_user": 2})
    app = create_app(strict)
    async with app.router.lifespan_context(app):
        yield app


async def _account(app: FastAPI, name: str, ip: str) -> dict[str, str]:
    async with await _client(app, ip) as c:
        response = await c.post("/api/auth/register", json={"username": name, "password": PASSWORD})
        assert response.status_code == 201, response.text
        return {"Authorization": f"Bearer {response.json()['access_token']}"}


async def _change(app: FastAPI, ip: str, headers: dict[str, str], current: str) -> httpx.Response:
    async with await _client(app, ip) as c:
        return await c.post("/api/me/password", headers=headers,
                            json={"current_password": current, "new_password": NEW})


async def _password_is(app: FastAPI, name: str, password: str) -> bool:
    async with app.state.services.sessionmaker() as session:
        return await accounts.check_credentials(session, username=name, password=password) is not None


def _limited(response: httpx.Response, scope: str) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == "rate_limited" and body["params"]["scope"] == scope
    assert int(response.headers["retry-after"]) >= 1


async def test_wrong_current_passwords_are_throttled_per_account(strict_app):
    """One account's token guessing from several addresses: the account's limit holds."""
    headers = await _account(strict_app, "victim", "10.0.0.100")
    for ip in ("10.0.0.1", "10.0.0.2"):
        wrong = await _change(strict_app, ip, headers, "guess guess")
        assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    # the third guess, the right one, from yet another address: refused before it is checked
    _limited(await _change(strict_app, "10.0.0.3", headers, PASSWORD), "username")
    assert await _password_is(strict_app, "victim", PASSWORD)


async def test_wrong_current_passwords_are_throttled_per_address(strict_app):
    """Four accounts' tokens used from one address: each account's own limit is never reached, the address's is."""
    tokens = [await _account(strict_app, f"user{i}", f"10.1.0.{i}") for i in range(5)]
    for headers in tokens[:4]:
        assert (await _change(strict_app, "10.2.0.1", headers, "guess guess")).status_code == 403
    _limited(await _change(strict_app, "10.2.0.1", tokens[4], PASSWORD), "ip")
    # another address is not held back
    assert (await _change(strict_app, "10.2.0.2", tokens[4], PASSWORD)).status_code == 204


async def test_wrong_passwords_and_failed_logins_share_one_budget(strict_app):
    headers = await _account(strict_app, "shared", "10.3.0.1")
    async with await _client(strict_app, "10.3.0.2") as c:
        assert (await c.post("/api/auth/login", json={"username": "shared", "password": "nope nope"})
                ).status_code == 401
    assert (await _change(strict_app, "10.3.0.3", headers, "guess guess")).status_code == 403
    async with await _client(strict_app, "10.3.0.4") as c:
        _limited(await c.post("/api/auth/login", json={"username": "shared", "password": PASSWORD}), "username")


async def test_a_right_password_counts_nothing(strict_app):
    headers = await _account(strict_app, "careful", "10.4.0.1")
    assert (await _change(strict_app, "10.4.0.1", headers, PASSWORD)).status_code == 204
    async with await _client(strict_app, "10.4.0.1") as c:  # still free to log in with the new one
        assert (await c.post("/api/auth/login", json={"username": "careful", "password": NEW})).status_code == 200


@pytest.mark.parametrize("session_id", ["%00", "abc%00def0123456", "ABCDEF0123456789", "0123456789abcde",
                                        "0123456789abcdef0", "xxxxxxxxxxxxxxxx", "%E2%80%AE0123456789abcdef"])
async def test_a_session_id_that_is_not_one_is_refused(client, player, session_id):
    alice = await player("alice")
    response = await client.delete(f"/api/me/sessions/{session_id}", headers=alice.headers)
    assert response.status_code == 422 and response.json()["code"] == "invalid_input", response.text
    assert len((await client.get("/api/me/sessions", headers=alice.headers)).json()) == 1


async def test_a_well_formed_session_id_of_nobody_is_404(client, player):
    alice = await player("alice")
    response = await client.delete("/api/me/sessions/0123456789abcdef", headers=alice.headers)
    assert response.status_code == 404 and response.json()["code"] == "session_not_found"
    own = (await client.get("/api/me/sessions", headers=alice.headers)).json()[0]["id"]
    assert (await client.delete(f"/api/me/sessions/{own}", headers=alice.headers)).status_code == 204
