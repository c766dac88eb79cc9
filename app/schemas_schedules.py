"""Bodies of the tournament-schedule endpoints (app/api/routes/schedules.py); limits from
app.tournaments.schedules."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.schemas import StrictIn, UtcDatetime, VisibleText
from app.schemas_admin import REASON
from app.schemas_tournaments import TournamentSettingsIn
from app.tournaments.schedules import LEAD_DEFAULT, LEAD_MINUTES, SCHEDULE_NAME_MAX

Weekday = Literal["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


class RecurrenceIn(StrictIn):
    """When the tournaments start: daily, or weekly on ``weekdays``, at ``time`` in ``timezone``."""

    frequency: Literal["daily", "weekly"]
    weekdays: list[Weekday] = Field(default_factory=list, max_length=7,
                                    description="weekly: the days (RFC 5545 names); daily: empty")
    time: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="local wall-clock time, HH:MM")
    timezone: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_+\-/]+$",
                          description="an IANA time zone, e.g. Asia/Taipei (the rule follows its DST changes)")
    lead_minutes: int = Field(default=LEAD_DEFAULT, ge=LEAD_MINUTES[0], le=LEAD_MINUTES[1],
                              description="each tournament is created, registration open, this long before it starts")


class ScheduleIn(TournamentSettingsIn):
    """A tournament's settings (as POST /api/operator/tournaments takes them, without the times) and a
    recurrence.  Each occurrence is named after the schedule and its local date."""

    name: VisibleText = Field(min_length=1, max_length=SCHEDULE_NAME_MAX)
    recurrence: RecurrenceIn


class PauseIn(StrictIn):
    paused: bool = Field(description="true: create no further tournaments; false: resume")
    reason: VisibleText = REASON


class RecurrenceOut(BaseModel):
    frequency: str
    weekdays: list[str]
    time: str
    timezone: str
    lead_minutes: int


class ScheduleOut(BaseModel):
    id: int
    name: str
    tournament: dict[str, Any] = Field(description="the settings every occurrence gets")
    recurrence: RecurrenceOut
    paused: bool
    next_starts_at: UtcDatetime | None = Field(description="the next occurrence's start; null while paused")
    created_at: UtcDatetime
