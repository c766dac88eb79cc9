"""Structured logs for operators (issue 28): every committed operator/admin/director act is one event with
its ids and reason, a rolled-back act is none, and the JSON access log never prints a query string."""

from __future__ import annotations

import json
import logging

import pytest

from app.logs import JsonFormatter
from app.monitoring import acts
from app.monitoring.http import HttpMetrics
from app.services import audit


def _acts(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "app.acts"]


async def test_an_admin_act_is_one_event_with_its_ids_and_reason(client, player, caplog):
    caplog.set_level(logging.INFO, logger="app.acts")
    boss, alice = await player("boss", role="admin"), await player("alice")
    caplog.clear()
    response = await client.post(f"/api/admin/users/{alice.id}/freeze", headers=boss.headers,
                                 json={"frozen": True, "reason": "chargeback #7"})
    assert response.status_code == 200, response.text
    [record] = _acts(caplog)
    line = json.loads(JsonFormatter().format(record))
    assert (line["event"], line["action"], line["actor_id"], line["user_id"], line["reason"]) == (
        "account.freeze", "account.freeze", boss.id, alice.id, "chargeback #7")


async def test_a_rolled_back_act_is_not_logged(app, caplog):
    caplog.set_level(logging.INFO, logger="app.acts")
    async with app.state.services.sessionmaker() as session:
        audit.record(session, actor_id=None, action="table.close", target_type="table", target_id="t1",
                     reason="never happened")
        await session.rollback()
    assert _acts(caplog) == []
    async with app.state.services.sessionmaker() as session:
        audit.record(session, actor_id=None, action="table.close", target_type="table", target_id="t1",
                     reason="it happened")
        await session.commit()
    [record] = _acts(caplog)
    assert (record.table_id, record.reason, record.actor_id) == ("t1", "it happened", None)


def test_tournament_acts_carry_the_tournament_id_and_new_state():
    fields = acts.fields({"action": "tournament.cancel", "actor_id": 3, "target_type": "tournament",
                          "target_id": "12", "before": {"state": "registering"},
                          "after": {"state": "cancelled"}, "reason": "rain"})
    assert fields == {"action": "tournament.cancel", "actor_id": 3, "tournament_id": 12, "state": "cancelled",
                      "reason": "rain"}
    assert acts.fields({"action": "hand.void", "actor_id": 1, "target_type": "hand", "target_id": 9,
                        "reason": "bug"})["hand_id"] == 9


async def test_json_access_log_has_the_path_and_never_the_query_string(caplog):
    caplog.set_level(logging.INFO, logger="app.access")

    async def inner(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def ignore(message):
        pass

    async def accept_and_close(scope, receive, send):
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 4003})

    middleware = HttpMetrics(inner, log_access=True)
    for kind, extra in (("http", {"method": "GET"}), ("websocket", {})):
        scope = {"type": kind, "path": "/ws/table/abc", "query_string": b"token=SECRET-tok&ticket=tkt-9f",
                 "client": ("10.0.0.1", 5), "headers": [], **extra}
        if kind == "websocket":
            middleware.app = accept_and_close  # the socket's app
        await middleware(scope, None, ignore)
    lines = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == "app.access"]
    assert [(line["event"], line["path"], line["status"]) for line in lines] == [
        ("request", "/ws/table/abc", 200), ("websocket", "/ws/table/abc", 101)]
    assert lines[1]["close_code"] == 4003  # one line per socket, when it ends
    assert lines[0]["duration_ms"] >= 0 and lines[0]["client"] == "10.0.0.1"
    caplog.clear()
    await middleware({"type": "websocket", "path": "/ws/table/abc;token=SECRET-tok", "client": None}, None, ignore)
    [line] = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == "app.access"]
    assert line["path"] == "/ws/table/abc;token=[redacted]"  # the path goes through app.core.redact too
    for line in lines:
        assert "SECRET-tok" not in json.dumps(line) and "tkt-9f" not in json.dumps(line)
