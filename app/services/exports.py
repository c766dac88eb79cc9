"""CSV exports of the ledger and the audit log (issue 35 item 5), in constant memory.

Rows are read in keyset pages (``WHERE id > last ORDER BY id LIMIT EXPORT_PAGE``): however long the period,
one page is in memory at a time, and each page's CSV text is handed on before the next is read.  Every text
cell that a spreadsheet would read as a formula (it starts with ``= + - @``, a tab or a carriage return) is
prefixed with ``'`` (OWASP, "CSV Injection"); numbers are written as numbers.  The columns are documented in
docs/operations.md ("Exports").
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import AuditEntry, LedgerEntry, User
from app.services.sessions import aware

EXPORT_PAGE = 1000  # rows read per query while exporting
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

LEDGER_COLUMNS = ("id", "created_at", "user_id", "username", "asset", "delta", "balance_after", "reason",
                  "hand_id", "actor_id", "idempotency_key", "note")
AUDIT_COLUMNS = ("id", "created_at", "actor_id", "action", "target_type", "target_id", "before", "after", "reason")


@dataclass(frozen=True)
class ExportFilter:
    """Which rows: created in ``[since, until)`` (either may be open) and touching ``user_id`` if given."""

    since: datetime | None = None
    until: datetime | None = None
    user_id: int | None = None


def safe_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: a text starting like a formula gets a ``'`` in front."""
    if isinstance(value, datetime):
        return aware(value).isoformat()
    if isinstance(value, dict | list):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return "" if value is None else value


def _csv_text(rows: Sequence[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerows([[safe_cell(cell) for cell in row] for row in rows])
    return buffer.getvalue()


def _ledger_query(where: ExportFilter) -> Select[LedgerEntry, str]:
    query = select(LedgerEntry, User.username).join(User, User.id == LedgerEntry.user_id)
    if where.since is not None:
        query = query.where(LedgerEntry.created_at >= where.since)
    if where.until is not None:
        query = query.where(LedgerEntry.created_at < where.until)
    if where.user_id is not None:
        query = query.where(LedgerEntry.user_id == where.user_id)
    return query


def _ledger_row(row: Any) -> tuple[int, list[object]]:
    entry, username = row
    return entry.id, [entry.id, entry.created_at, entry.user_id, username, entry.asset, entry.delta,
                      entry.balance_after, entry.reason, entry.hand_id, entry.actor_id, entry.idempotency_key,
                      entry.note]


def _audit_query(where: ExportFilter) -> Select[AuditEntry]:
    query = select(AuditEntry)
    if where.since is not None:
        query = query.where(AuditEntry.created_at >= where.since)
    if where.until is not None:
        query = query.where(AuditEntry.created_at < where.until)
    if where.user_id is not None:  # what the account did, and what was done to it
        query = query.where(or_(AuditEntry.actor_id == where.user_id,
                                and_(AuditEntry.target_type == "user", AuditEntry.target_id == str(where.user_id))))
    return query


def _audit_row(row: Any) -> tuple[int, list[object]]:
    (e,) = row
    return e.id, [e.id, e.created_at, e.actor_id, e.action, e.target_type, e.target_id, e.before, e.after, e.reason]


async def _pages(sessionmaker: async_sessionmaker[AsyncSession], query: Any, id_column: Any,
                 columns: Sequence[str], to_row: Callable[[Any], tuple[int, list[object]]]) -> AsyncIterator[str]:
    yield _csv_text([columns])
    last = 0
    async with sessionmaker() as session:
        while True:
            rows = (await session.execute(query.where(id_column > last).order_by(id_column).limit(EXPORT_PAGE))).all()
            if not rows:
                return
            page = [to_row(row) for row in rows]
            last = page[-1][0]
            yield _csv_text([cells for _, cells in page])
            if len(rows) < EXPORT_PAGE:
                return


def ledger_csv(sessionmaker: async_sessionmaker[AsyncSession], where: ExportFilter) -> AsyncIterator[str]:
    """The ledger as CSV text, a page of rows at a time, oldest first."""
    return _pages(sessionmaker, _ledger_query(where), LedgerEntry.id, LEDGER_COLUMNS, _ledger_row)


def audit_csv(sessionmaker: async_sessionmaker[AsyncSession], where: ExportFilter) -> AsyncIterator[str]:
    """The audit log as CSV text, a page of rows at a time, oldest first."""
    return _pages(sessionmaker, _audit_query(where), AuditEntry.id, AUDIT_COLUMNS, _audit_row)
