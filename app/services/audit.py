"""The audit trail: one append-only row per operator or admin act (who, what, when, before / after, why).

``record`` adds the row to the caller's session, so it commits (or rolls back) with the change it
describes: there is never a change without its entry, nor an entry for a change that did not happen.
Once committed, each entry is also one structured log event (``app.monitoring.acts``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import AuditEntry, Tournament, User
from app.monitoring import acts

AUDIT_PAGE_MAX = 200  # the most entries one read returns (GET /api/admin/audit?limit=)


def record(
    session: AsyncSession,
    *,
    actor_id: int | None,
    action: str,
    target_type: str,
    target_id: object,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str | None = None,
) -> AuditEntry:
    """Append an entry to the caller's transaction.  ``actor_id`` None = the command line."""
    entry = AuditEntry(
        actor_id=actor_id, action=action, target_type=target_type, target_id=str(target_id),
        before=before, after=after, reason=reason,
    )
    session.add(entry)
    acts.pending(session, {"actor_id": actor_id, "action": action, "target_type": target_type,
                           "target_id": target_id, "before": before, "after": after, "reason": reason})
    return entry


async def list_entries(
    session: AsyncSession,
    *,
    actor_id: int | None = None,
    action: str | None = None,
    target_type: str | None = None,
    target_id: str | None = None,
    before_id: int | None = None,
    limit: int = 50,
) -> list[AuditEntry]:
    """Newest first, filtered by any of the given fields; page with ``before_id``."""
    query = select(AuditEntry)
    filters = {
        AuditEntry.actor_id: actor_id, AuditEntry.action: action,
        AuditEntry.target_type: target_type, AuditEntry.target_id: target_id,
    }
    for column, value in filters.items():
        if value is not None:
            query = query.where(column == value)
    if before_id is not None:
        query = query.where(AuditEntry.id < before_id)
    return list(await session.scalars(query.order_by(AuditEntry.id.desc()).limit(min(limit, AUDIT_PAGE_MAX))))


COMMAND_LINE = "command line"  # who an entry with no actor was written by
SYSTEM_ACTORS = {"director#": "director"}  # system accounts that act, by the name the console shows


async def names(session: AsyncSession, entries: list[AuditEntry]) -> tuple[dict[int, str], dict[tuple[str, str], str]]:
    """Who acted and on what, by name: ``({actor id: name}, {(target type, target id): name})``.  The
    director's account reads "director"; a user target its username, a tournament target its name."""
    user_ids = {e.actor_id for e in entries if e.actor_id is not None}
    user_ids |= {int(e.target_id) for e in entries if e.target_type == "user" and e.target_id.isdigit()}
    tournament_ids = {int(e.target_id) for e in entries if e.target_type == "tournament" and e.target_id.isdigit()}
    users = dict((await session.execute(select(User.id, User.username).where(User.id.in_(user_ids)))).all()) \
        if user_ids else {}
    users = {uid: SYSTEM_ACTORS.get(name, name) for uid, name in users.items()}
    tournaments = dict((await session.execute(
        select(Tournament.id, Tournament.name).where(Tournament.id.in_(tournament_ids)))).all()) \
        if tournament_ids else {}
    targets = {("user", str(uid)): name for uid, name in users.items()}
    targets.update({("tournament", str(tid)): name for tid, name in tournaments.items()})
    return users, targets
