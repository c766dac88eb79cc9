"""Issue 35 item 3: an admin's notice (公告) reaches every lobby and table socket when it starts, in the
three languages, is listed by ``GET /api/notices`` while it shows, and ends early on ``DELETE``; both acts are
audited.  Bad windows and loose bodies are refused and change nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

from app.services.notices import SHOWN_MAX
from app.tables.protocol.messages import server_message
from tests.app.conftest import grant_role
from tests.app.support.table_harness import harness, is_type

TEXT = {"zh_hans": "凌晨3点维护", "zh_hant": "凌晨3點維護", "en": "Maintenance at 03:00"}


def _iso(moment: datetime) -> str:
    return moment.isoformat()


async def test_a_notice_reaches_every_socket_when_it_starts_and_ends_early(settings) -> None:
    async with harness(settings) as h:
        admin = await h.register("noticeadmin")
        await grant_role(h.app, admin["id"], "admin")
        players = [await h.register(f"notice{i}") for i in range(4)]
        table_id = await h.coin_table("tiantai", players[:3], rounds=1)
        seat = await h.connect(table_id, players[0])
        await seat.recv_until(is_type("snapshot"))
        lobby = await h.connect_path("/ws/lobby", players[3])
        await lobby.recv_until(is_type("snapshot"))

        now = datetime.now(UTC)
        taipei = timezone(timedelta(hours=8))
        posted = await h.client.post("/api/admin/notices", headers=admin["headers"], json={
            "text": TEXT, "ends_at": _iso((now + timedelta(hours=1)).astimezone(taipei)), "reason": "kernel patch"})
        assert posted.status_code == 201, posted.text
        notice_id = posted.json()["id"]
        for socket in (seat, lobby):
            heard = await socket.recv_until(is_type("notice"))
            assert server_message.validate_python(heard).text.model_dump() == TEXT  # the documented message
            assert heard["id"] == notice_id
        # The process's own look finds it started, and knows the sockets have it (whatever offset it came in).
        assert await h.app.state.notices.look() == 0
        showing = (await h.client.get("/api/notices")).json()  # public: no login
        assert [(n["id"], n["text"]) for n in showing] == [(notice_id, TEXT)]

        # Scheduled: not shown before its time, told to the sockets by the process's look at the database.
        later = await h.client.post("/api/admin/notices", headers=admin["headers"], json={
            "text": {**TEXT, "en": "A tournament starts soon"}, "starts_at": _iso(datetime.now(UTC) + timedelta(seconds=1)),
            "ends_at": _iso(now + timedelta(hours=2))})
        assert later.status_code == 201, later.text
        assert [n["id"] for n in (await h.client.get("/api/notices")).json()] == [notice_id]
        await asyncio.sleep(1.1)
        await h.app.state.notices.look()  # what the process's own look does every POLL_SECONDS
        for socket in (seat, lobby):
            heard = await socket.recv_until(is_type("notice"))
            assert heard["id"] == later.json()["id"] and heard["text"]["en"] == "A tournament starts soon"
        assert await h.app.state.notices.look() == 0  # told once

        ended = await h.client.delete(f"/api/admin/notices/{notice_id}", headers=admin["headers"],
                                      params={"reason": "done early"})
        assert ended.status_code == 200, ended.text
        heard = await lobby.recv_until(lambda m: m["type"] == "notice" and m["id"] == notice_id)
        assert datetime.fromisoformat(heard["ends_at"]) <= datetime.now(UTC)  # take the banner down
        assert [n["id"] for n in (await h.client.get("/api/notices")).json()] == [later.json()["id"]]
        again = await h.client.delete(f"/api/admin/notices/{notice_id}", headers=admin["headers"],
                                      params={"reason": "twice"})
        assert again.status_code == 404 and again.json()["code"] == "notice_not_found"

        audit = (await h.client.get("/api/admin/audit", headers=admin["headers"])).json()
        acts = [(a["action"], a["target_id"], a["reason"]) for a in audit if a["target_type"] == "notice"]
        assert acts == [("notice.end", str(notice_id), "done early"), ("notice.create", str(later.json()["id"]), None),
                        ("notice.create", str(notice_id), "kernel patch")]


async def test_bad_notices_are_refused_and_change_nothing(client, player) -> None:
    admin = await player("badnoticeadmin", role="admin")
    operator = await player("badnoticeop", role="operator")
    now = datetime.now(UTC)
    good = {"text": TEXT, "ends_at": _iso(now + timedelta(hours=1))}
    assert (await client.post("/api/admin/notices", headers=operator.headers, json=good)).status_code == 403
    assert (await client.post("/api/admin/notices", json=good)).status_code == 401
    for body, field in [
        ({**good, "ends_at": _iso(now - timedelta(minutes=1))}, "ends_at"),
        ({**good, "starts_at": _iso(now + timedelta(hours=2))}, "ends_at"),
        ({**good, "ends_at": _iso(now + SHOWN_MAX + timedelta(hours=1))}, "ends_at"),
        ({**good, "text": {"zh_hans": "维护", "en": "Maintenance"}}, None),
        ({**good, "text": {**TEXT, "fr": "Maintenance"}}, None),
        ({**good, "text": {**TEXT, "en": "x" * 301}}, None),
        ({**good, "ends_at": "2030-01-01T00:00:00"}, None),  # no zone
        ({**good, "pinned": True}, None),
    ]:
        response = await client.post("/api/admin/notices", headers=admin.headers, json=body)
        assert response.status_code == 422, (body, response.text)
        if field:
            assert response.json()["params"]["field"] == field
    assert (await client.get("/api/notices")).json() == []
    assert (await client.get("/api/admin/notices", headers=admin.headers)).json() == []
