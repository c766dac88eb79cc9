"""Issue 35 item 5: the ledger and the audit log as CSV, filtered by time and account, streamed in pages,
and safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

from sqlalchemy import event

from app.services import exports


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


async def _adjust(client, boss, user, delta: int, reason: str) -> None:
    response = await client.post(f"/api/admin/users/{user.id}/adjustments",
                                 json={"asset": "coins", "delta": delta, "reason": reason}, headers=boss.headers)
    assert response.status_code == 201, response.text


async def test_ledger_export_is_read_in_pages(client, app, player, monkeypatch):
    boss, alice, bob = await player("exp_boss", role="admin"), await player("exp_alice"), await player("exp_bob")
    for i in range(7):
        await _adjust(client, boss, alice, 10 + i, f"batch {i}")
    await _adjust(client, boss, bob, 5, "bob's")
    monkeypatch.setattr(exports, "EXPORT_PAGE", 3)
    reads: list[tuple[str, object]] = []

    def seen(_conn, _cursor, statement, parameters, _context, _many) -> None:
        if "FROM ledger_entries" in statement:
            reads.append((statement, parameters))

    engine = app.state.services.engine.sync_engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        response = await client.get("/api/admin/export/ledger.csv", params={"user_id": alice.id},
                                    headers=boss.headers)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert 'filename="ledger.csv"' in response.headers["content-disposition"]
    rows = _rows(response.text)
    # Alice's 8 entries (the welcome grant and 7 adjustments), oldest first, each column as documented.
    assert list(rows[0]) == list(exports.LEDGER_COLUMNS)
    assert [int(r["delta"]) for r in rows] == [50_000] + [10 + i for i in range(7)]
    assert {r["username"] for r in rows} == {"exp_alice"} and rows[-1]["note"] == "batch 6"
    assert [int(r["id"]) for r in rows] == sorted(int(r["id"]) for r in rows)
    # Three pages of at most 3 rows (8 rows), each one query with a LIMIT: never the whole table at once.
    assert len(reads) == 3, reads
    assert all("LIMIT" in statement.upper() for statement, _ in reads)


async def test_exports_filter_by_time_and_account(client, player):
    boss, alice = await player("exf_boss", role="admin"), await player("exf_alice")
    await _adjust(client, boss, alice, 100, "=HYPERLINK(\"http://evil\",\"x\")")
    await _adjust(client, boss, alice, -50, "@SUM(A1)")
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    assert _rows((await client.get("/api/admin/export/ledger.csv", params={"since": future},
                                   headers=boss.headers)).text) == []
    rows = _rows((await client.get("/api/admin/export/ledger.csv",
                                   params={"since": past, "until": future, "user_id": alice.id},
                                   headers=boss.headers)).text)
    assert [r["delta"] for r in rows] == ["50000", "100", "-50"]  # numbers stay numbers
    assert rows[1]["note"] == "'=HYPERLINK(\"http://evil\",\"x\")" and rows[2]["note"] == "'@SUM(A1)"

    audit = _rows((await client.get("/api/admin/export/audit.csv", params={"user_id": alice.id},
                                    headers=boss.headers)).text)
    assert [r["action"] for r in audit] == ["balance.adjust", "balance.adjust"]
    assert audit[0]["reason"].startswith("'=") and audit[0]["target_id"] == str(alice.id)
    assert audit[0]["after"].startswith("{") and '"delta": 100' in audit[0]["after"]
    # The admin's own acts are the same rows, seen from the actor's side; the role grant from the command line
    # (no actor) is not the admin's act but was done to the admin.
    mine = _rows((await client.get("/api/admin/export/audit.csv", params={"user_id": boss.id},
                                   headers=boss.headers)).text)
    assert [r["action"] for r in mine] == ["role.set", "balance.adjust", "balance.adjust"]

    for params in ({"since": "2026-01-01T00:00:00"}, {"since": future, "until": past}, {"user_id": 0},
                   {"since": "yesterday"}):
        bad = await client.get("/api/admin/export/audit.csv", params=params, headers=boss.headers)
        assert bad.status_code == 422, params
    assert (await client.get("/api/admin/export/ledger.csv", headers=alice.headers)).status_code == 403


def test_formula_cells_are_defused():
    assert [exports.safe_cell(v) for v in ("=1+1", "+1", "-1", "@x", "\tx", "\rx", "plain", -5, None)] == [
        "'=1+1", "'+1", "'-1", "'@x", "'\tx", "'\rx", "plain", -5, ""]
