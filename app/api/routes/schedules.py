"""Recurring tournaments (issue 35 item 6): operators create, list, pause and delete tournament schedules;
the director creates each occurrence's tournament ahead of its start (app.tournaments.schedules)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import ID_MAX, NO_NUL, OperatorUser, SessionDep
from app.models import TournamentSchedule
from app.schemas_schedules import PauseIn, RecurrenceOut, ScheduleIn, ScheduleOut
from app.services.sessions import aware
from app.services.text import reason_text
from app.tournaments import schedules

router = APIRouter(prefix="/api/operator/tournament-schedules", tags=["operator"])

ScheduleId = Annotated[int, Path(ge=1, le=ID_MAX, description="a tournament schedule's id")]


def _out(schedule: TournamentSchedule) -> ScheduleOut:
    recurrence = schedules.recurrence_of(schedule)
    return ScheduleOut(
        id=schedule.id, name=schedule.name, tournament=dict(schedule.settings), paused=schedule.paused,
        recurrence=RecurrenceOut(frequency=schedule.frequency, weekdays=list(schedule.weekdays),
                                 time=schedule.local_time, timezone=schedule.timezone,
                                 lead_minutes=schedule.lead_minutes),
        next_starts_at=None if schedule.paused else recurrence.next_start(datetime.now(UTC)),
        created_at=aware(schedule.created_at))


@router.post("", status_code=status.HTTP_201_CREATED)
async def create_schedule(operator: OperatorUser, session: SessionDep, body: ScheduleIn) -> ScheduleOut:
    """A recurring tournament: its settings are checked as its next occurrence would be.  Audited."""
    settings = body.model_dump(mode="json", exclude={"recurrence"})
    r = body.recurrence
    schedule = await schedules.create_schedule(
        session, settings=settings, recurrence=schedules.Recurrence(r.frequency, tuple(r.weekdays), r.time, r.timezone),
        lead_minutes=r.lead_minutes, actor_id=operator.id)
    return _out(schedule)


@router.get("")
async def list_schedules(_operator: OperatorUser, session: SessionDep) -> list[ScheduleOut]:
    """Every schedule (deleted ones left out), oldest first, with its next start."""
    return [_out(s) for s in await schedules.list_schedules(session)]


@router.post("/{schedule_id}/pause")
async def pause_schedule(operator: OperatorUser, session: SessionDep, schedule_id: ScheduleId,
                         body: PauseIn) -> ScheduleOut:
    """Pause (``paused: true``: no further tournaments; those created stay) or resume.  Audited."""
    schedule = await schedules.set_paused(session, schedule_id, paused=body.paused, actor_id=operator.id,
                                          reason=body.reason.strip())
    return _out(schedule)


@router.delete("/{schedule_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses={404: {"description": "no such tournament schedule"}})
async def delete_schedule(operator: OperatorUser, session: SessionDep, schedule_id: ScheduleId,
                          reason: Annotated[str, Query(min_length=1, max_length=500, pattern=NO_NUL,
                                                       description="why; recorded in the audit log")]) -> None:
    """No further tournaments from it; those it created stay.  Audited (``schedule.delete``, with ``reason``)."""
    await schedules.delete_schedule(session, schedule_id, actor_id=operator.id, reason=reason_text(reason))
