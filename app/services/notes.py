"""Moderators' notes on an account (備註): who wrote it, when, and the text; audited as ``note.add``."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.models import AccountNote
from app.services import audit

NOTE_MAX = 2000  # characters in one note (the API's limit, POST /api/admin/users/{id}/notes)
NOTES_PAGE_MAX = 200  # the most notes one read returns


async def add_note(session: AsyncSession, *, user_id: int, author_id: int, text: str) -> AccountNote:
    """Write a note on ``user_id`` by ``author_id``, with its audit entry in the same transaction."""
    await begin_write(session)
    note = AccountNote(user_id=user_id, author_id=author_id, text=text.strip())
    session.add(note)
    await session.flush()
    audit.record(session, actor_id=author_id, action="note.add", target_type="user", target_id=user_id,
                 after={"note_id": note.id, "text": note.text})
    await session.commit()
    return note


async def list_notes(session: AsyncSession, *, user_id: int, limit: int = NOTES_PAGE_MAX) -> list[AccountNote]:
    """The account's notes, newest first."""
    query = (select(AccountNote).where(AccountNote.user_id == user_id)
             .order_by(AccountNote.id.desc()).limit(min(limit, NOTES_PAGE_MAX)))
    return list(await session.scalars(query))
