"""Recurring tournaments (定期比賽, issue 35 item 6): a tournament's settings plus a recurrence.

A recurrence is daily or weekly (on given weekdays) at a local wall-clock time in a named IANA zone.  The rule
and the zone are stored, never the next UTC instant: every occurrence is computed with python-dateutil's
``rrule`` over ``zoneinfo``, so "daily at 20:00 America/New_York" stays at 20:00 on either side of a DST change.
A local time that does not exist that day (inside the spring-forward gap) is read as zoneinfo reads it (the
offset before the change: 02:30 runs at 03:30 summer time); an ambiguous one (fall back) runs at the first.

The director (app.tournaments.director) calls ``create_due`` every tick: each occurrence starting within its
schedule's lead time gets its tournament, registration open at once.  Exactly once, whatever the number of
processes: the tournament and its ``tournament_occurrences`` row (primary key schedule + occurrence) commit
together, and a second process's insert of the same key fails and rolls its tournament back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil.rrule import DAILY, WEEKLY, rrule, weekday, weekdays
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.db import begin_write
from app.models import Tournament, TournamentOccurrence, TournamentSchedule
from app.services import audit
from app.services.errors import ErrorCode, InvalidInput, NotFound, ServiceError
from app.tournaments import service
from app.tournaments.accounts import director_id
from app.tournaments.spec import NAME_MAX, TournamentSpec, validate

log = logging.getLogger(__name__)

WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")  # RFC 5545's day names, Monday first
FREQUENCIES = ("daily", "weekly")
LEAD_MINUTES = (5, 7 * 24 * 60)  # how long before its start an occurrence is created: at least, at most
LEAD_DEFAULT = 60
DATE_SUFFIX = 11  # " 2026-12-05": each occurrence's name is the schedule's and its local date
SCHEDULE_NAME_MAX = NAME_MAX - DATE_SUFFIX


@dataclass(frozen=True)
class Recurrence:
    """When a schedule's tournaments start: ``frequency`` daily or weekly (on ``weekdays``), at ``local_time``
    ("HH:MM") in the IANA zone ``timezone``."""

    frequency: str
    weekdays: tuple[str, ...]
    local_time: str
    timezone: str

    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def rule(self, after: datetime) -> rrule:
        """The rrule, anchored at the local midnight the day before ``after`` (the rule repeats from any day)."""
        zone = self.zone()
        hour, minute = (int(part) for part in self.local_time.split(":"))
        start = datetime.combine((after.astimezone(zone) - timedelta(days=1)).date(), time(0, 0), tzinfo=zone)
        by_day: list[weekday] | None = (
            [weekdays[WEEKDAYS.index(day)] for day in self.weekdays] if self.frequency == "weekly" else None)
        return rrule(WEEKLY if self.frequency == "weekly" else DAILY, dtstart=start, byweekday=by_day,
                     byhour=hour, byminute=minute, bysecond=0)

    def starts_between(self, after: datetime, until: datetime) -> list[datetime]:
        """Every start in ``(after, until]``, as UTC instants."""
        return [moment.astimezone(UTC) for moment in self.rule(after).between(after, until, inc=True)
                if moment > after]

    def next_start(self, after: datetime) -> datetime:
        """The first start after ``after``, as a UTC instant."""
        moment = self.rule(after).after(after)
        assert moment is not None  # a daily or weekly rule never ends
        return moment.astimezone(UTC)


def check_recurrence(recurrence: Recurrence) -> None:
    """Refuse a recurrence that cannot be run: raises InvalidInput naming the field."""
    if recurrence.frequency not in FREQUENCIES:
        raise InvalidInput("frequency is daily or weekly", field="frequency", reason="choices", choices=list(FREQUENCIES))
    if recurrence.frequency == "weekly" and not recurrence.weekdays:
        raise InvalidInput("a weekly schedule needs its weekdays", field="weekdays", reason="missing")
    if recurrence.frequency == "daily" and recurrence.weekdays:
        raise InvalidInput("a daily schedule takes no weekdays", field="weekdays", reason="daily")
    if len(set(recurrence.weekdays)) != len(recurrence.weekdays) or not set(recurrence.weekdays) <= set(WEEKDAYS):
        raise InvalidInput("weekdays are distinct MO..SU", field="weekdays", reason="choices", choices=list(WEEKDAYS))
    try:
        recurrence.zone()
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput("timezone is not an IANA time zone (e.g. Asia/Taipei)", field="timezone",
                           reason="unknown") from None


def recurrence_of(schedule: TournamentSchedule) -> Recurrence:
    return Recurrence(schedule.frequency, tuple(schedule.weekdays), schedule.local_time, schedule.timezone)


def _spec(settings: dict[str, Any], name: str, starts_at: datetime) -> TournamentSpec:
    return TournamentSpec(**{**settings, "name": name, "starts_at": starts_at, "opens_at": None})


def occurrence_name(schedule: TournamentSchedule, starts_at: datetime) -> str:
    """The schedule's name and the occurrence's local date: "Friday night 2026-12-05"."""
    return f"{schedule.name} {starts_at.astimezone(ZoneInfo(schedule.timezone)).date().isoformat()}"


def summary(schedule: TournamentSchedule) -> dict[str, Any]:
    """What the audit log keeps of a schedule."""
    return {"id": schedule.id, "name": schedule.name, "frequency": schedule.frequency,
            "weekdays": list(schedule.weekdays), "local_time": schedule.local_time, "timezone": schedule.timezone,
            "lead_minutes": schedule.lead_minutes, "paused": schedule.paused}


async def create_schedule(session: AsyncSession, *, settings: dict[str, Any], recurrence: Recurrence,
                          lead_minutes: int, actor_id: int | None, now: datetime | None = None) -> TournamentSchedule:
    """A new schedule, checked as its next tournament would be; audited as ``schedule.create``."""
    check_recurrence(recurrence)
    low, high = LEAD_MINUTES
    if not low <= lead_minutes <= high:
        raise InvalidInput(f"lead_minutes must be from {low} to {high}", field="lead_minutes", reason="range",
                           minimum=low, maximum=high)
    name = str(settings.get("name", "")).strip()
    if not name or len(name) > SCHEDULE_NAME_MAX:
        raise InvalidInput(f"a schedule's name is 1-{SCHEDULE_NAME_MAX} characters (its date is added)",
                           field="name", reason="length")
    moment = now or datetime.now(UTC)
    options = validate(_spec(settings, name, recurrence.next_start(moment)), moment)
    await begin_write(session)
    schedule = TournamentSchedule(
        name=name, settings={**{k: v for k, v in settings.items() if k != "name"}, "options": options},
        frequency=recurrence.frequency, weekdays=list(recurrence.weekdays), local_time=recurrence.local_time,
        timezone=recurrence.timezone, lead_minutes=lead_minutes, created_by=actor_id)
    session.add(schedule)
    await session.flush()
    audit.record(session, actor_id=actor_id, action="schedule.create", target_type="schedule",
                 target_id=schedule.id, after=summary(schedule))
    await session.commit()
    return schedule


async def list_schedules(session: AsyncSession) -> list[TournamentSchedule]:
    """Every schedule not deleted, oldest first."""
    query = select(TournamentSchedule).where(TournamentSchedule.deleted_at.is_(None)).order_by(TournamentSchedule.id)
    return list(await session.scalars(query))


async def _get(session: AsyncSession, schedule_id: int) -> TournamentSchedule:
    schedule = await session.get(TournamentSchedule, schedule_id, populate_existing=True)
    if schedule is None or schedule.deleted_at is not None:
        await session.rollback()
        raise NotFound("no such tournament schedule", ErrorCode.SCHEDULE_NOT_FOUND, schedule_id=schedule_id)
    return schedule


async def set_paused(session: AsyncSession, schedule_id: int, *, paused: bool, actor_id: int,
                     reason: str) -> TournamentSchedule:
    """Pause (no new occurrence is created; those created stay) or resume; audited."""
    await begin_write(session)
    schedule = await _get(session, schedule_id)
    if schedule.paused != paused:
        schedule.paused = paused
        audit.record(session, actor_id=actor_id, action="schedule.pause" if paused else "schedule.resume",
                     target_type="schedule", target_id=schedule_id, before={"paused": not paused},
                     after={"paused": paused}, reason=reason)
    await session.commit()
    return schedule


async def delete_schedule(session: AsyncSession, schedule_id: int, *, actor_id: int, reason: str) -> None:
    """Delete a schedule: no further occurrence; the tournaments it created stay.  The row is kept, marked
    deleted, so the audit log and its tournaments still name it.  Audited as ``schedule.delete``."""
    await begin_write(session)
    schedule = await _get(session, schedule_id)
    schedule.deleted_at = datetime.now(UTC)
    audit.record(session, actor_id=actor_id, action="schedule.delete", target_type="schedule",
                 target_id=schedule_id, before=summary(schedule), after={"deleted": True}, reason=reason)
    await session.commit()


async def create_due(sessionmaker: async_sessionmaker[AsyncSession], now: datetime | None = None) -> list[int]:
    """Create the tournament of every occurrence that starts within its schedule's lead time and has none
    yet; returns the new tournaments' ids.  Safe to run in several processes at once (exactly once)."""
    moment = now or datetime.now(UTC)
    async with sessionmaker() as session:
        schedules = [s for s in await list_schedules(session) if not s.paused]
        await session.commit()
    created = []
    for schedule in schedules:
        for starts_at in recurrence_of(schedule).starts_between(moment, moment + timedelta(minutes=schedule.lead_minutes)):
            async with sessionmaker() as session:
                tournament_id = await _create_occurrence(session, schedule, starts_at, moment)
            if tournament_id is not None:
                created.append(tournament_id)
    return created


async def _create_occurrence(session: AsyncSession, schedule: TournamentSchedule, starts_at: datetime,
                             now: datetime) -> int | None:
    key = starts_at.isoformat()
    if await session.get(TournamentOccurrence, (schedule.id, key)) is not None:
        await session.commit()
        return None  # created already, here or by another process

    def claim(tournament: Tournament) -> None:
        session.add(TournamentOccurrence(schedule_id=schedule.id, occurrence=key, tournament_id=tournament.id))

    spec = _spec(schedule.settings, occurrence_name(schedule, starts_at), starts_at)
    try:
        validate(spec, now)
        director = await director_id(session)  # its acts are audited under its own account
        tournament = await service.create(session, spec, actor_id=director, also=claim)
    except IntegrityError:
        await session.rollback()  # another process created this occurrence first
        return None
    except ServiceError as exc:  # e.g. the house cannot fund the guarantee: the next tick tries again
        await session.rollback()
        log.warning("schedule %s: the occurrence at %s was not created (%s)", schedule.id, key, exc)
        return None
    log.info("schedule %s: tournament %s created for %s", schedule.id, tournament.id, key)
    return tournament.id
