"""Server-side login sessions (issue 24): revocable tokens, the player's list, socket tickets.

Before: tokens were signed and self-contained, lived 7 days and nothing could end one; logging out, a new
password or a freeze left every copy working, including on open sockets.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, text, update

from app.core.security import token_digest
from app.models import LoginSession
from app.services import sessions, tickets
from app.services.tickets import RedisTicketBook, SocketOwner
from tests.app.conftest import grant_role
from tests.app.support.table_harness import PASSWORD, Closed, SeatClient, harness, is_type


async def _login(h, name: str, agent: str = "test-agent") -> dict:
    response = await h.client.post("/api/auth/login", json={"username": name, "password": PASSWORD},
                                   headers={"User-Agent": agent})
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    return {"token": token, "headers": {"Authorization": f"Bearer {token}"}}


async def _lobby(h, token: str) -> SeatClient:
    socket = SeatClient(h.app, "/ws/lobby", token=token)
    await socket.connect()
    assert (await socket.recv())["type"] == "snapshot"
    return socket


async def _closed_with(socket: SeatClient) -> int:
    with pytest.raises(Closed) as closed:
        while True:
            await socket.recv()
    return closed.value.code


async def _me(h, who: dict) -> int:
    return (await h.client.get("/api/me", headers=who["headers"])).status_code


async def test_a_login_is_a_session_row_holding_only_the_tokens_digest(settings):
    async with harness(settings) as h:
        alice = await h.register("alice")
        phone = await _login(h, "alice", agent="Phone/1.0")
        listed = (await h.client.get("/api/me/sessions", headers=phone["headers"])).json()
        assert [s["current"] for s in listed] == [True, False]  # newest first: this one, then registration's
        assert listed[0]["user_agent"] == "Phone/1.0" and listed[0]["address"] == "127.0.0.1"
        async with h.app.state.services.sessionmaker() as db:
            rows = (await db.execute(text("SELECT * FROM login_sessions"))).all()
        dumped = repr(rows)
        assert len(rows) == 2
        for token in (alice["token"], phone["token"]):
            assert token not in dumped and token_digest(token) in dumped
        assert len(alice["token"]) >= 43  # 256 bits, URL-safe base64


async def test_logout_ends_the_token_and_closes_its_sockets_at_once(settings):
    async with harness(settings) as h:
        alice = await h.register("alice")
        other = await _login(h, "alice")
        lobby = await _lobby(h, alice["token"])
        untouched = await _lobby(h, other["token"])
        assert (await h.client.post("/api/auth/logout", headers=alice["headers"])).status_code == 204
        assert await _closed_with(lobby) == 4401
        assert await _me(h, alice) == 401
        assert await _me(h, other) == 200  # only this session ended
        await untouched.send("{}")
        assert untouched.closed is None
        # A logged-out token can no longer get a socket ticket either.
        assert (await h.client.post("/api/ws-ticket", headers=alice["headers"])).status_code == 401


async def test_a_player_lists_and_ends_their_own_sessions_only(settings):
    async with harness(settings) as h:
        alice, bob = await h.register("alice"), await h.register("bob")
        laptop = await _login(h, "alice")
        lobby = await _lobby(h, laptop["token"])
        listed = (await h.client.get("/api/me/sessions", headers=alice["headers"])).json()
        laptop_id = next(s["id"] for s in listed if not s["current"])
        # bob cannot end alice's session: it is not one of his
        refused = await h.client.delete(f"/api/me/sessions/{laptop_id}", headers=bob["headers"])
        assert refused.status_code == 404 and refused.json()["code"] == "session_not_found"
        assert await _me(h, laptop) == 200
        ended = await h.client.delete(f"/api/me/sessions/{laptop_id}", headers=alice["headers"])
        assert ended.status_code == 204
        assert await _closed_with(lobby) == 4401
        assert await _me(h, laptop) == 401 and await _me(h, alice) == 200
        assert [s["current"] for s in (await h.client.get("/api/me/sessions", headers=alice["headers"])).json()] \
            == [True]


async def test_a_new_password_ends_every_other_session(settings):
    async with harness(settings) as h:
        alice = await h.register("alice")
        stolen = await _login(h, "alice")
        lobby = await _lobby(h, stolen["token"])
        wrong = await h.client.post("/api/me/password", headers=alice["headers"],
                                    json={"current_password": "not it at all", "new_password": "a new password"})
        assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
        assert await _me(h, stolen) == 200  # nothing changed
        changed = await h.client.post("/api/me/password", headers=alice["headers"],
                                      json={"current_password": PASSWORD, "new_password": "a new password"})
        assert changed.status_code == 204
        assert await _closed_with(lobby) == 4401
        assert await _me(h, stolen) == 401 and await _me(h, alice) == 200
        old = await h.client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
        new = await h.client.post("/api/auth/login", json={"username": "alice", "password": "a new password"})
        assert old.status_code == 401 and new.status_code == 200


async def test_freezing_and_an_admins_log_out_everywhere_end_every_session(settings):
    async with harness(settings) as h:
        boss, alice = await h.register("boss"), await h.register("alice")
        await grant_role(h.app, boss["id"], "admin")
        second = await _login(h, "alice")
        sockets = [await _lobby(h, alice["token"]), await _lobby(h, second["token"])]
        refused = await h.client.post(f"/api/admin/users/{boss['id']}/logout-everywhere", headers=alice["headers"],
                                      json={"reason": "x"})
        assert refused.status_code == 403
        done = await h.client.post(f"/api/admin/users/{alice['id']}/logout-everywhere", headers=boss["headers"],
                                   json={"reason": "shared computer"})
        assert done.status_code == 200 and done.json() == {"ended": 2}
        assert [await _closed_with(s) for s in sockets] == [4401, 4401]
        assert await _me(h, alice) == 401 and await _me(h, second) == 401
        audit = (await h.client.get("/api/admin/audit", headers=boss["headers"])).json()
        assert any(e["action"] == "account.logout_everywhere" and e["target_id"] == str(alice["id"]) for e in audit)

        again = await _login(h, "alice")
        lobby = await _lobby(h, again["token"])
        frozen = await h.client.post(f"/api/admin/users/{alice['id']}/freeze", headers=boss["headers"],
                                     json={"frozen": True, "reason": "fraud check"})
        assert frozen.status_code == 200
        assert await _closed_with(lobby) == 4401
        assert await _me(h, again) == 401


async def test_an_idle_session_ends_and_last_seen_is_written_at_most_once_a_minute(settings):
    async with harness(settings) as h:
        alice = await h.register("alice")
        digest = token_digest(alice["token"])

        async def last_seen() -> datetime:
            async with h.app.state.services.sessionmaker() as db:
                return sessions.aware(await db.scalar(select(LoginSession.last_seen_at)
                                                      .where(LoginSession.token_hash == digest)))

        async def set_last_seen(ago: float) -> None:
            async with h.app.state.services.sessionmaker() as db:
                await db.execute(update(LoginSession).where(LoginSession.token_hash == digest)
                                 .values(last_seen_at=datetime.now(UTC) - timedelta(seconds=ago)))
                await db.commit()

        await set_last_seen(30)
        before = await last_seen()
        assert await _me(h, alice) == 200
        assert await last_seen() == before  # 30 s ago: not written again
        await set_last_seen(sessions.LAST_SEEN_EVERY.total_seconds() + 1)
        assert await _me(h, alice) == 200
        assert datetime.now(UTC) - await last_seen() < timedelta(seconds=30)  # written
        await set_last_seen(settings.session_idle_seconds + 1)
        assert await _me(h, alice) == 401


async def test_a_ticket_opens_one_socket_once_and_only_for_a_while(settings, monkeypatch):
    async with harness(settings) as h:
        alice = await h.register("alice")
        issued = await h.client.post("/api/ws-ticket", headers=alice["headers"])
        assert issued.status_code == 200 and issued.json()["expires_in"] == settings.ws_ticket_seconds
        ticket = issued.json()["ticket"]
        first = SeatClient(h.app, "/ws/lobby", f"ticket={ticket}")
        await first.connect()
        assert (await first.recv())["type"] == "snapshot"
        second = SeatClient(h.app, "/ws/lobby", f"ticket={ticket}")  # the same ticket again
        await second.connect()
        assert await _closed_with(second) == 1008

        late = (await h.client.post("/api/ws-ticket", headers=alice["headers"])).json()["ticket"]
        now = tickets.time.monotonic()
        monkeypatch.setattr(tickets.time, "monotonic", lambda: now + settings.ws_ticket_seconds + 1)
        stale = SeatClient(h.app, "/ws/lobby", f"ticket={late}")
        await stale.connect()
        assert await _closed_with(stale) == 1008
        monkeypatch.undo()

        # A ticket taken just before its session ended is refused too.
        racing = (await h.client.post("/api/ws-ticket", headers=alice["headers"])).json()["ticket"]
        await h.client.post("/api/auth/logout", headers=alice["headers"])
        assert await _closed_with(first) == 4401
        raced = SeatClient(h.app, "/ws/lobby", f"ticket={racing}")
        await raced.connect()
        assert await _closed_with(raced) == 1008


async def test_tickets_in_redis_work_on_another_process_once(private_redis):
    from redis.asyncio import Redis

    one, two = Redis.from_url(private_redis), Redis.from_url(private_redis)
    try:
        issuer, other = RedisTicketBook(20, one, "t1"), RedisTicketBook(20, two, "t1")
        owner = SocketOwner(7, "abc", 1e12)
        ticket = await issuer.issue(owner)
        assert await other.redeem(ticket) == owner
        assert await other.redeem(ticket) is None and await issuer.redeem(ticket) is None
        keys = await one.keys("t1:*")
        assert keys == [] and ticket.encode() not in b"".join(keys)
    finally:
        await one.aclose()
        await two.aclose()


async def test_a_table_socket_closes_when_its_session_ends(settings):
    async with harness(settings) as h:
        players = [await h.register(n) for n in ("ann", "ben", "cal")]
        table_id = (await h.client.post("/api/practice", headers=players[0]["headers"],
                                        json={"variant": "tiantai"})).json()["id"]
        seat = await h.connect(table_id, players[0])
        await seat.recv_until(is_type("snapshot"))
        await h.client.post("/api/auth/logout", headers=players[0]["headers"])
        assert await _closed_with(seat) == 4401


async def test_a_tickets_answer_names_the_process_that_owns_the_table(settings):
    """Owner-aware routing (issue 36): with ``?table=`` the answer names this process (NODE_NAME), which the
    proxy routes ``?node=`` by; an unnamed process names none, so the proxy spreads sockets as before."""
    async with harness(settings.model_copy(update={"node_name": "n7"})) as h:
        alice = await h.register("alice")
        made = await h.client.post("/api/practice", headers=alice["headers"], json={"variant": "taiwan"})
        table_id = made.json()["id"]
        issued = (await h.client.post("/api/ws-ticket", params={"table": table_id}, headers=alice["headers"])).json()
        assert issued["node"] == "n7" and issued["ticket"]
        assert (await h.client.post("/api/ws-ticket", headers=alice["headers"])).json()["node"] is None
        # the ticket still opens the socket, the node being the proxy's business
        seat = SeatClient(h.app, f"/ws/table/{table_id}", f"ticket={issued['ticket']}&node=n7")
        await seat.connect()
        assert (await seat.recv())["type"] == "snapshot"
    async with harness(settings) as h:
        bob = await h.register("bob")
        issued = (await h.client.post("/api/ws-ticket", params={"table": "t1"}, headers=bob["headers"])).json()
        assert issued["node"] is None
