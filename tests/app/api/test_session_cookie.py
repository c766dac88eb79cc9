"""The browser's login as a session cookie (issue 33 item 2), and the CSRF check on what it authenticates.

Before: the token lived in the tab's sessionStorage, so every new tab (the table's 規則 button included) and
every browser restart showed the login form.  Now login sets an HttpOnly, SameSite=Strict cookie carrying the
same server-side session; a change it authenticates needs our own Origin and the X-Requested-With header.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from http.cookies import SimpleCookie

import httpx
import pytest
from fastapi import FastAPI

from app.api.cookie_session import CSRF_HEADER, SAFE_METHODS, SECURE_SESSION_COOKIE, SESSION_COOKIE
from app.core.config import Settings
from app.main import create_app
from tests.app.conftest import PASSWORD, bearer

OWN = {"Origin": "http://test", CSRF_HEADER: "mahjong"}  # what our own page's fetch sends


def browser(app: FastAPI, base_url: str = "http://test") -> httpx.AsyncClient:
    """A client that keeps cookies, as a browser does."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=base_url)


def set_cookie(response: httpx.Response) -> SimpleCookie:
    jar: SimpleCookie = SimpleCookie()
    for header in response.headers.get_list("set-cookie"):
        jar.load(header)
    return jar


@pytest.fixture
async def web(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with browser(app) as client:
        yield client


async def _register(client: httpx.AsyncClient, name: str) -> httpx.Response:
    response = await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return response


async def test_login_sets_an_httponly_strict_cookie_that_authenticates_reads(web):
    registered = await _register(web, "alice")
    morsel = set_cookie(registered)[SESSION_COOKIE]
    assert morsel.value == registered.json()["access_token"]  # the same server-side session as the bearer
    assert morsel["httponly"] and morsel["samesite"] == "strict" and morsel["path"] == "/"
    assert not morsel["secure"] and not morsel["domain"]  # plain http: no Secure, so no __Host- prefix either
    assert int(morsel["max-age"]) > 0
    me = await web.get("/api/me")  # no Authorization header: the cookie alone
    assert me.status_code == 200 and me.json()["username"] == "alice"


async def test_over_https_the_cookie_is_secure_and_host_prefixed(app):
    async with browser(app, "https://test") as client:
        morsel = set_cookie(await _register(client, "alice"))[SECURE_SESSION_COOKIE]
        assert morsel["secure"] and morsel["path"] == "/" and not morsel["domain"]
        assert SESSION_COOKIE not in set_cookie(await client.post(
            "/api/auth/login", json={"username": "alice", "password": PASSWORD}))
        assert (await client.get("/api/me")).status_code == 200


@pytest.mark.parametrize(("mode", "base_url", "secure"), [("always", "http://test", True),
                                                          ("never", "https://test", False)])
async def test_the_setting_forces_secure_on_or_off(settings: Settings, mode, base_url, secure):
    app = create_app(settings.model_copy(update={"session_cookie_secure": mode}))
    async with app.router.lifespan_context(app), browser(app, base_url) as client:
        cookies = set_cookie(await _register(client, "alice"))
        name = SECURE_SESSION_COOKIE if secure else SESSION_COOKIE
        assert list(cookies) == [name] and bool(cookies[name]["secure"]) is secure


async def test_a_change_by_cookie_needs_the_custom_header(web):
    await _register(web, "alice")
    refused = await web.patch("/api/me", json={"language": "en"}, headers={"Origin": "http://test"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "csrf_refused" and refused.json()["params"] == {"reason": "header"}
    assert (await web.get("/api/me")).json()["language"] is None  # nothing changed
    done = await web.patch("/api/me", json={"language": "en"}, headers=OWN)
    assert done.status_code == 200 and done.json()["language"] == "en"


@pytest.mark.parametrize("foreign", [{"Origin": "https://evil.example"}, {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}])
async def test_a_change_by_cookie_from_another_site_is_refused(web, foreign):
    await _register(web, "alice")
    for method, path in (("POST", "/api/ws-ticket"), ("POST", "/api/auth/logout")):
        refused = await web.request(method, path, headers={CSRF_HEADER: "mahjong", **foreign})
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json()["code"] == "csrf_refused" and refused.json()["params"] == {"reason": "origin"}
    assert (await web.get("/api/me")).status_code == 200  # the logout was refused: still logged in
    allowed = await web.post("/api/ws-ticket", headers={**OWN, "Sec-Fetch-Site": "same-origin"})
    assert allowed.status_code == 200 and allowed.json()["ticket"]


async def test_bearer_clients_need_no_csrf_header(web, client):
    token = (await _register(web, "alice")).json()["access_token"]
    ticket = await client.post("/api/ws-ticket", headers=bearer(token))  # no Origin, no X-Requested-With
    assert ticket.status_code == 200


async def test_login_from_another_sites_page_is_refused_and_sets_no_cookie(web):
    await _register(web, "alice")
    web.cookies.clear()
    refused = await web.post("/api/auth/login", json={"username": "alice", "password": PASSWORD},
                             headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403 and refused.json()["code"] == "csrf_refused"
    assert not refused.headers.get_list("set-cookie")
    assert (await web.get("/api/me")).status_code == 401


async def test_each_login_is_a_new_session_and_cookie(web):
    first = set_cookie(await _register(web, "alice"))[SESSION_COOKIE].value
    second_login = await web.post("/api/auth/login", json={"username": "alice", "password": PASSWORD},
                                  headers=OWN)
    second = set_cookie(second_login)[SESSION_COOKIE].value
    assert first != second
    listed = (await web.get("/api/me/sessions")).json()
    assert [s["current"] for s in listed] == [True, False]


async def test_logout_clears_the_cookie_and_ends_its_session(web, client):
    token = set_cookie(await _register(web, "alice"))[SESSION_COOKIE].value
    out = await web.post("/api/auth/logout", headers=OWN)
    assert out.status_code == 204
    cleared = set_cookie(out)[SESSION_COOKIE]
    assert cleared.value == "" and int(cleared["max-age"]) == 0
    assert (await web.get("/api/me")).status_code == 401
    # The old cookie, sent again by hand, names a revoked session.
    assert (await client.get("/api/me", headers={"Cookie": f"{SESSION_COOKIE}={token}"})).status_code == 401


async def test_a_revoked_session_refuses_its_cookie(web, client):
    await _register(web, "alice")
    phone = await client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
    listed = (await client.get("/api/me/sessions", headers=bearer(phone.json()["access_token"]))).json()
    browser_session = next(s["id"] for s in listed if not s["current"])
    ended = await client.delete(f"/api/me/sessions/{browser_session}", headers=bearer(phone.json()["access_token"]))
    assert ended.status_code == 204
    me = await web.get("/api/me")
    assert me.status_code == 401 and me.json()["code"] == "not_authenticated"
    assert (await web.post("/api/ws-ticket", headers=OWN)).status_code == 401


def cookie_changes(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path) that changes something and that a login authenticates (so the cookie may): the
    OpenAPI document marks each with the bearer scheme, which get_current_login declares."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        for method, operation in operations.items():
            if method.upper() not in SAFE_METHODS and any("HTTPBearer" in s for s in operation.get("security", [])):
                found.append((method.upper(), re.sub(r"\{[^}]+\}", "1", path)))
    return found


async def test_every_change_the_cookie_authenticates_is_csrf_checked(app, web):
    await _register(web, "alice")
    changes = cookie_changes(app)
    assert ("POST", "/api/auth/logout") in changes and ("DELETE", "/api/me/sessions/1") in changes
    assert len(changes) > 20  # the walk found the API's changes, not a handful
    for method, path in changes:
        refused = await web.request(method, path, headers={"Origin": "http://test"})
        assert refused.status_code == 403 and refused.json()["params"] == {"reason": "header"}, (method, path)
        foreign = await web.request(method, path, headers={"Origin": "https://evil.example", CSRF_HEADER: "x"})
        assert foreign.status_code == 403 and foreign.json()["params"] == {"reason": "origin"}, (method, path)
    assert (await web.get("/api/me")).status_code == 200  # none of it logged alice out
