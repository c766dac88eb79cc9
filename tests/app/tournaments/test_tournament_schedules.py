"""Issue 35 item 6: recurring tournaments.  A schedule keeps its rule and zone, so its local time holds across
DST; the director creates each occurrence ahead of its start, registration open, exactly once even with two
directors at once; operators list, pause and delete schedules; players may not."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from app.models import Tournament
from app.tournaments.director import TournamentDirector
from app.tournaments.schedules import Recurrence

URL = "/api/operator/tournament-schedules"


def _utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_daily_at_a_local_time_keeps_it_across_spring_forward():
    """New York moves its clocks forward on 2026-03-08: 20:00 local is 01:00Z before, 00:00Z after."""
    daily = Recurrence("daily", (), "20:00", "America/New_York")
    starts = daily.starts_between(_utc(2026, 3, 6, 12), _utc(2026, 3, 10, 12))
    assert starts == [_utc(2026, 3, 7, 1), _utc(2026, 3, 8, 1), _utc(2026, 3, 9, 0), _utc(2026, 3, 10, 0)]
    assert {s.astimezone(ZoneInfo("America/New_York")).strftime("%H:%M") for s in starts} == {"20:00"}


def test_weekly_keeps_its_local_time_across_fall_back_and_the_gap():
    """London falls back on 2026-10-25: Sunday 09:00 is 08:00Z the week before, 09:00Z that day.  A time in
    New York's spring-forward gap (02:30 on 2026-03-08) runs as zoneinfo reads it: 07:30Z, 03:30 summer time."""
    sundays = Recurrence("weekly", ("SU",), "09:00", "Europe/London")
    assert sundays.starts_between(_utc(2026, 10, 12), _utc(2026, 10, 27)) == [_utc(2026, 10, 18, 8),
                                                                              _utc(2026, 10, 25, 9)]
    gap = Recurrence("daily", (), "02:30", "America/New_York")
    assert gap.next_start(_utc(2026, 3, 8, 0)) == _utc(2026, 3, 8, 7, 30)
    twice = Recurrence("weekly", ("MO", "FR"), "20:00", "Asia/Taipei")  # no DST: always 12:00Z
    assert twice.starts_between(_utc(2026, 12, 6), _utc(2026, 12, 13)) == [_utc(2026, 12, 7, 12),
                                                                           _utc(2026, 12, 11, 12)]


def _body(**recurrence):
    soon = datetime.now(ZoneInfo("Asia/Taipei")) + timedelta(minutes=30)
    return {"name": "Nightly", "room": "beginner", "variant": "tiantai", "entry_fee": 1_000, "player_limit": 6,
            "rounds": 2, "hands_per_round": 1, "prize_split": [50, 30, 20], "options": {"rounds": 1},
            "recurrence": {"frequency": "daily", "time": soon.strftime("%H:%M"), "timezone": "Asia/Taipei",
                           "lead_minutes": 60} | recurrence}


async def _tournaments(app) -> list[Tournament]:
    async with app.state.services.sessionmaker() as session:
        return list(await session.scalars(select(Tournament).order_by(Tournament.id)))


async def test_the_director_creates_each_occurrence_once(client, app, player):
    operator = await player("sched_op", role="operator")
    created = await client.post(URL, json=_body(), headers=operator.headers)
    assert created.status_code == 201, created.text
    schedule = created.json()
    next_start = datetime.fromisoformat(schedule["next_starts_at"])
    assert timedelta(minutes=28) < next_start - datetime.now(UTC) <= timedelta(minutes=31)
    assert schedule["recurrence"] == {"frequency": "daily", "weekdays": [], "time": _body()["recurrence"]["time"],
                                      "timezone": "Asia/Taipei", "lead_minutes": 60}

    # Two directors (two processes) at once: one tournament for the occurrence, registration open.
    director: TournamentDirector = app.state.tournaments
    other = TournamentDirector(app.state.services, None)
    results = await asyncio.gather(director.create_scheduled(), other.create_scheduled())
    assert sorted(len(r) for r in results) == [0, 1]
    [tournament] = await _tournaments(app)
    local_date = next_start.astimezone(ZoneInfo("Asia/Taipei")).date().isoformat()
    assert (tournament.name, tournament.state) == (f"Nightly {local_date}", "registering")
    assert tournament.starts_at.replace(tzinfo=UTC) == next_start and tournament.entry_fee == 1_000
    assert await director.create_scheduled() == []  # and never again
    assert len(await _tournaments(app)) == 1
    # Outside the lead time nothing is created: an occurrence 2 hours away with a 60-minute lead.
    later = (datetime.now(ZoneInfo("UTC")) + timedelta(hours=2)).strftime("%H:%M")
    far = await client.post(URL, json=_body(time=later, timezone="UTC"), headers=operator.headers)
    assert far.status_code == 201
    assert await director.create_scheduled() == []

    audit = (await client.get("/api/admin/audit", params={"action": "schedule.create"},
                              headers=(await player("sched_boss", role="admin")).headers)).json()
    assert len(audit) == 2 and audit[-1]["actor_id"] == operator.id


async def test_pause_resume_and_delete(client, app, player):
    operator, boss = await player("pause_op", role="operator"), await player("pause_boss", role="admin")
    schedule = (await client.post(URL, json=_body(), headers=operator.headers)).json()
    paused = await client.post(f"{URL}/{schedule['id']}/pause", json={"paused": True, "reason": "holiday"},
                               headers=operator.headers)
    assert paused.status_code == 200 and paused.json()["paused"] and paused.json()["next_starts_at"] is None
    director: TournamentDirector = app.state.tournaments
    assert await director.create_scheduled() == [] and await _tournaments(app) == []
    resumed = await client.post(f"{URL}/{schedule['id']}/pause", json={"paused": False, "reason": "back"},
                                headers=operator.headers)
    assert resumed.json()["paused"] is False
    assert len(await director.create_scheduled()) == 1

    assert (await client.delete(f"{URL}/{schedule['id']}", headers=operator.headers)).status_code == 422  # no reason
    deleted = await client.delete(f"{URL}/{schedule['id']}", params={"reason": "season over"}, headers=operator.headers)
    assert deleted.status_code == 204
    assert (await client.get(URL, headers=operator.headers)).json() == []
    gone = await client.delete(f"{URL}/{schedule['id']}", params={"reason": "again"}, headers=operator.headers)
    assert gone.status_code == 404 and gone.json()["code"] == "schedule_not_found"
    assert len(await _tournaments(app)) == 1  # what it created stays
    actions = [e["action"] for e in (await client.get("/api/admin/audit", params={"target_type": "schedule"},
                                                      headers=boss.headers)).json()]
    assert actions == ["schedule.delete", "schedule.resume", "schedule.pause", "schedule.create"]


@pytest.mark.parametrize("recurrence", [
    {"frequency": "weekly"},                        # weekly needs its days
    {"frequency": "daily", "weekdays": ["MO"]},     # daily takes none
    {"frequency": "weekly", "weekdays": ["MO", "MO"]},
    {"frequency": "weekly", "weekdays": ["XX"]},
    {"frequency": "monthly"},
    {"time": "24:00"}, {"time": "8:00"},
    {"timezone": "Mars/Olympus"}, {"timezone": "../etc"},
    {"lead_minutes": 1}, {"lead_minutes": 10**6}, {"lead_minutes": "60"},
    {"when": "always"},
])
async def test_strict_input(client, player, recurrence):
    operator = await player("strict_op", role="operator")
    response = await client.post(URL, json=_body(**recurrence), headers=operator.headers)
    assert response.status_code == 422, response.text
    assert (await client.get(URL, headers=operator.headers)).json() == []


async def test_bad_settings_and_roles(client, player):
    operator, alice = await player("set_op", role="operator"), await player("set_alice")
    for overrides in ({"player_limit": 7}, {"name": "x" * 50}, {"starts_at": "2030-01-01T00:00:00Z"},
                      {"options": {"cap": 999}}):
        response = await client.post(URL, json=_body() | overrides, headers=operator.headers)
        assert response.status_code == 422, (overrides, response.text)
    assert (await client.post(URL, json=_body(), headers=alice.headers)).status_code == 403
    assert (await client.get(URL, headers=alice.headers)).status_code == 403
