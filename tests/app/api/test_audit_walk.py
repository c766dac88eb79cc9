"""Issue 11, "audit entries for every change": every operator and admin route that changes something, taken
from the OpenAPI document, is called once and must leave exactly one audit entry naming who, what, the
target, before / after and the reason; a refused change leaves none; the log filters by actor, action and
target and pages back.  A route added without a case here fails the walk.  Voiding a hand under concurrent
retries reverses it exactly once (on Postgres too)."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from app.game.rooms import ROOMS, RoomKey
from app.game.variants import VariantKey
from app.logs import JsonFormatter
from app.main import create_app
from app.services.settlement import settle_hand
from app.tables.durability.settle import DatabaseSettler
from app.tables.registry import TableInfo
from tests.app.conftest import PASSWORD
from tests.app.services.test_history import _played_hand

RECORD = {"table_id": "t-audit", "seed": "ab" * 16, "commitment": "cd" * 32, "actions": [], "result": {}}
MUTATING = {"post", "put", "patch", "delete"}


async def _settled(app: Any, seats: list[int], key: str) -> int:
    async with app.state.services.sessionmaker() as session:
        out = await settle_hand(session, hand_key=key, room=ROOMS[RoomKey.BEGINNER], seats=seats,
                                payments=[(1, 0, 4), (2, 0, 2)], winners=[0], variant="tiantai", record=RECORD)
    return out.hand_id


async def _audit(client: Any, boss: Any, **filters: Any) -> list[dict]:
    response = await client.get("/api/admin/audit", headers=boss.headers, params=filters)
    assert response.status_code == 200, response.text
    return response.json()


async def test_every_change_by_an_operator_or_admin_is_audited_once(client, player, app):
    boss, op = await player("boss", role="admin"), await player("oper", role="operator")
    alice, bob, carol, dave = [await player(n) for n in ("alice", "bob", "carol", "dave")]
    hand_id = await _settled(app, [alice.id, bob.id, carol.id], "audit-walk:1")
    waiting = (await client.post("/api/rooms/beginner/tables", headers=dave.headers,
                                 json={"variant": "tiantai"})).json()["id"]
    starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    spec = {"name": "Audit cup", "room": "beginner", "variant": "tiantai", "starts_at": starts, "entry_fee": 100,
            "player_limit": 3, "rounds": 1, "hands_per_round": 1, "prize_split": [100], "options": {}}
    state: dict[str, Any] = {}
    # A second login of alice's, for an admin to end (her first stays: she registers below).
    await client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD})
    phone = (await client.get(f"/api/admin/users/{alice.id}/sessions", headers=boss.headers)).json()[0]["id"]
    schedule = {k: v for k, v in spec.items() if k != "starts_at"} | {
        "name": "Audit nightly", "recurrence": {"frequency": "daily", "time": "20:00", "timezone": "Asia/Taipei"}}

    async def register_three() -> None:
        for p in (alice, bob, carol):
            await client.post(f"/api/tournaments/{state['tid']}/register", headers=p.headers)

    # (method, path) → (who, url, body, action, target id, the reason it must carry, set-up before the call)
    cases: dict[tuple[str, str], tuple] = {
        ("post", "/api/admin/users/{user_id}/adjustments"): (
            boss, f"/api/admin/users/{alice.id}/adjustments",
            {"asset": "coins", "delta": 250, "reason": "goodwill"}, "balance.adjust", alice.id, "goodwill", None),
        ("post", "/api/admin/house"): (
            boss, "/api/admin/house", {"delta": 900, "reason": "fund guarantees"}, "house.adjust", None,
            "fund guarantees", None),
        ("post", "/api/admin/users/{user_id}/freeze"): (
            boss, f"/api/admin/users/{bob.id}/freeze", {"frozen": True, "reason": "chargeback"},
            "account.freeze", bob.id, "chargeback", None),
        ("post", "/api/admin/users/{user_id}/logout-everywhere"): (
            boss, f"/api/admin/users/{dave.id}/logout-everywhere", {"reason": "lost phone"},
            "account.logout_everywhere", dave.id, "lost phone", None),
        ("post", "/api/admin/users/{user_id}/role"): (
            boss, f"/api/admin/users/{carol.id}/role", {"role": "operator", "reason": "new staff"},
            "role.set", carol.id, "new staff", None),
        ("post", "/api/admin/hands/{hand_id}/void"): (
            boss, f"/api/admin/hands/{hand_id}/void", {"reason": "misdeal"}, "hand.void", hand_id, "misdeal", None),
        ("post", "/api/operator/tables/{table_id}/close"): (
            op, f"/api/operator/tables/{waiting}/close", {"reason": "abandoned"}, "table.close", waiting,
            "abandoned", None),
        ("post", "/api/operator/tournaments"): (
            op, "/api/operator/tournaments", spec, "tournament.create", None, None, None),
        ("post", "/api/operator/tournaments/{tournament_id}/start"): (
            op, None, None, "tournament.start", None, None, register_three),
        ("post", "/api/operator/tournaments/{tournament_id}/cancel"): (
            op, None, {"reason": "venue closed"}, "tournament.cancel", None, "venue closed", None),
        ("delete", "/api/admin/users/{user_id}/sessions/{session_id}"): (
            boss, f"/api/admin/users/{alice.id}/sessions/{phone}?reason=lost%20phone", None, "session.end",
            alice.id, "lost phone", None),
        ("post", "/api/admin/users/{user_id}/notes"): (
            boss, f"/api/admin/users/{alice.id}/notes", {"text": "watch her tables"}, "note.add", alice.id, None,
            None),
        ("post", "/api/operator/tournament-schedules"): (
            op, "/api/operator/tournament-schedules", schedule, "schedule.create", None, None, None),
        ("post", "/api/operator/tournament-schedules/{schedule_id}/pause"): (
            op, None, {"paused": True, "reason": "holiday"}, "schedule.pause", None, "holiday", None),
        ("delete", "/api/operator/tournament-schedules/{schedule_id}"): (
            op, None, None, "schedule.delete", None, "season over", None),
        ("post", "/api/admin/notices"): (
            boss, "/api/admin/notices", {"text": {"zh_hans": "维护", "zh_hant": "維護", "en": "Maintenance"},
                                         "ends_at": (datetime.now(UTC) + timedelta(hours=2)).isoformat(),
                                         "reason": "planned upgrade"},
            "notice.create", None, "planned upgrade", None),
        ("delete", "/api/admin/notices/{notice_id}"): (
            boss, None, None, "notice.end", None, "upgrade postponed", None),
        # Last: a drained process opens no new table, which the cases above need.
        ("post", "/api/admin/processes/{process_id}/drain"): (
            boss, None, {"reason": "kernel update"}, "process.drain", None, "kernel update", None),
    }
    paths = (await client.get("/openapi.json")).json()["paths"]
    routes = {(method, path) for path, methods in paths.items() for method, operation in methods.items()
              if method in MUTATING and {"admin", "operator"} & set(operation.get("tags", []))}
    assert routes == set(cases), "every changing operator/admin route needs its audit case here"

    for (method, template), (who, url, body, action, target, reason, setup) in cases.items():
        if "{tournament_id}" in template:
            url = template.replace("{tournament_id}", str(state["tid"]))
            target = state["tid"]
        if "{schedule_id}" in template:
            url = template.replace("{schedule_id}", str(state["sid"]))
            url += f"?reason={reason.replace(' ', '%20')}" if method == "delete" else ""
            target = state["sid"]
        if "{notice_id}" in template:
            url = template.replace("{notice_id}", str(state["nid"])) + f"?reason={reason.replace(' ', '%20')}"
            target = state["nid"]
        if "{process_id}" in template:
            processes = (await client.get("/api/admin/processes", headers=boss.headers)).json()
            target = processes[0]["id"]
            url = template.replace("{process_id}", target)
        if setup is not None:
            await setup()
        before = await _audit(client, boss, action=action)
        response = await client.request(method.upper(), url, headers=who.headers, json=body)
        assert response.status_code in (200, 201, 204), (template, response.text)
        if action in ("tournament.create", "schedule.create", "notice.create"):
            key = {"tournament.create": "tid", "schedule.create": "sid", "notice.create": "nid"}[action]
            state[key] = target = response.json()["id"]
        if action == "house.adjust":
            target = (await client.get("/api/operator/tournaments/house", headers=op.headers)).json()["id"]
        after = await _audit(client, boss, action=action)
        new = [e for e in after if e["id"] not in {b["id"] for b in before}]
        assert len(new) == 1, (template, new)
        (entry,) = new
        assert (entry["actor_id"], entry["target_id"]) == (who.id, str(target)), template
        assert entry["after"] and entry["created_at"], template
        assert entry["before"] is not None or action in ("tournament.create", "note.add", "schedule.create",
                                                                  "notice.create"), template
        assert entry["reason"] == reason, template

    # A refused change leaves nothing: an adjustment below zero, a second void.
    count = len(await _audit(client, boss, limit=200))
    refused = await client.post(f"/api/admin/users/{dave.id}/adjustments", headers=boss.headers,
                                json={"asset": "coins", "delta": -10**9, "reason": "too much"})
    assert refused.status_code == 409
    again = await client.post(f"/api/admin/hands/{hand_id}/void", headers=boss.headers, json={"reason": "again"})
    assert again.status_code == 409 and again.json()["code"] == "hand_already_void"
    assert len(await _audit(client, boss, limit=200)) == count

    # Filters: by actor, by target, and newest-first pages with before_id.
    by_op = await _audit(client, boss, actor_id=op.id)
    assert {e["action"] for e in by_op} == {"table.close", "tournament.create", "tournament.start",
                                            "tournament.cancel", "schedule.create", "schedule.pause",
                                            "schedule.delete"}
    on_bob = await _audit(client, boss, target_type="user", target_id=str(bob.id))
    assert [e["action"] for e in on_bob] == ["account.freeze"]
    everything = await _audit(client, boss, limit=200)
    page = await _audit(client, boss, limit=3)
    older = await _audit(client, boss, limit=3, before_id=page[-1]["id"])
    assert [e["id"] for e in page + older] == [e["id"] for e in everything[:6]]


async def test_concurrent_void_retries_reverse_the_hand_once(client, player, app):
    boss = await player("boss", role="admin")
    seats = [await player(f"cv{i}") for i in range(3)]
    hand_id = await _settled(app, [p.id for p in seats], "audit-walk:void")
    coins = [(await client.get("/api/me", headers=p.headers)).json()["coins"] for p in seats]
    assert coins == [50_600, 49_600, 49_800]

    async def void() -> int:
        response = await client.post(f"/api/admin/hands/{hand_id}/void", headers=boss.headers,
                                     json={"reason": "retry storm"})
        assert response.status_code == 200 or response.json()["code"] == "hand_already_void", response.text
        return response.status_code

    codes = await asyncio.gather(*(void() for _ in range(6)))
    assert sorted(codes) == [200] + [409] * 5
    assert [(await client.get("/api/me", headers=p.headers)).json()["coins"] for p in seats] == [50_000] * 3
    assert len(await _audit(client, boss, action="hand.void", target_id=str(hand_id))) == 1


async def test_log_format_json_writes_one_json_line_per_event_with_the_table_and_hand(settings, capsys):
    """LOG_FORMAT=json (the setting, not just the formatter): the app's own settlement log line arrives as
    one JSON object carrying the table id, hand number and hand id."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        app = create_app(settings.model_copy(update={"log_format": "json"}))
        assert any(isinstance(h.formatter, JsonFormatter) for h in root.handlers)
        async with app.router.lifespan_context(app):
            hand, wall = _played_hand(3)
            info = TableInfo(id="t-json", room=None, variant=VariantKey.TIANTAI, options={}, seats=[None, None, None],
                             bots=[0, 1, 2], practice=True)
            settler = DatabaseSettler(app.state.services.sessionmaker)
            settled = await settler(info, "t-json:g:5", hand, wall, 5)
            await settler.close()
            assert settled is not None
        lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
        (line,) = [entry for entry in lines if entry["event"] == "hand settled"]
        assert (line["table_id"], line["hand_no"], line["hand_id"], line["level"]) == (
            "t-json", 5, settled.hand_id, "info")
    finally:
        root.handlers, root.level = saved[0], saved[1]


async def test_concurrent_voids_of_a_hand_that_moved_nothing_are_audited_once(client, player, app, monkeypatch):
    """A practice (or tournament) hand moved no coins, so no account lock serialises its voids: the hand's
    own row must, or two retries would both pass the "already void" check.  The check is slowed down here so
    that every retry reaches it before the first one commits."""
    from app.services import admin

    check = admin.already_voided

    async def slow_check(session, hand_id):  # noqa: ANN001, ANN202
        found = await check(session, hand_id)
        await asyncio.sleep(0.2)
        return found

    monkeypatch.setattr(admin, "already_voided", slow_check)
    boss = await player("boss", role="admin")
    seats = [await player(f"pv{i}") for i in range(3)]
    async with app.state.services.sessionmaker() as session:
        out = await settle_hand(session, hand_key="audit-walk:practice", room=None, seats=[p.id for p in seats],
                                payments=[(1, 0, 4)], winners=[0], variant="tiantai", record=RECORD, practice=True)

    async def void() -> int:
        response = await client.post(f"/api/admin/hands/{out.hand_id}/void", headers=boss.headers,
                                     json={"reason": "retry storm"})
        assert response.status_code == 200 or response.json()["code"] == "hand_already_void", response.text
        return response.status_code

    codes = await asyncio.gather(*(void() for _ in range(6)))
    assert sorted(codes) == [200] + [409] * 5
    assert len(await _audit(client, boss, action="hand.void", target_id=str(out.hand_id))) == 1
