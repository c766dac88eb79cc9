"""Timer slack (``TableSettings.timer_slack_ms``, ``RealClock``): a table timer far enough off fires on the next
multiple of the slack, so the timers of many tables due within one slack fire in one turn of the event loop;
never early, and a timer due soon is not moved at all."""

from __future__ import annotations

import asyncio
import math

import pytest

from app.tables.hosting.runtime import ProcessRuntime
from app.tables.play.clock import RealClock
from app.tables.settings import TableSettings

pytestmark = pytest.mark.asyncio


async def test_a_far_timer_is_due_on_the_next_multiple_of_the_slack_and_fires_no_earlier():
    clock, loop = RealClock(slack_seconds=0.01), asyncio.get_running_loop()
    fired: list[tuple[str, float]] = []
    now = clock.now()
    wants = {"a": now + 0.2003, "b": now + 0.2071, "c": now + 0.2099}
    handles = {name: clock.call_at(when, lambda n=name: fired.append((n, loop.time()))) for name, when in wants.items()}
    for name, when in wants.items():
        due = handles[name].when()  # type: ignore[attr-defined]  # asyncio's TimerHandle
        assert when <= due < when + 0.01
        assert math.isclose(due / 0.01, round(due / 0.01), abs_tol=1e-6)  # on the grid
    await asyncio.sleep(0.35)
    assert sorted(n for n, _ in fired) == ["a", "b", "c"]
    assert all(t >= wants[n] - 1e-3 for n, t in fired)  # never early (the loop's clock reads in ms at worst)


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.0999])
async def test_a_timer_due_within_ten_slacks_keeps_its_time(delay):
    clock = RealClock(slack_seconds=0.01)
    when = clock.now() + delay
    handle = clock.call_at(when, lambda: None)
    assert handle.when() == when  # type: ignore[attr-defined]
    handle.cancel()


async def test_no_slack_keeps_every_time():
    clock = RealClock()
    when = clock.now() + 5.0003
    handle = clock.call_at(when, lambda: None)
    assert handle.when() == when  # type: ignore[attr-defined]
    handle.cancel()


async def test_the_runtime_clock_takes_the_settings_slack():
    runtime = ProcessRuntime(TableSettings(_env_file=None, timer_slack_ms=7))  # type: ignore[call-arg]
    assert isinstance(runtime.clock, RealClock) and runtime.clock.slack_seconds == pytest.approx(0.007)


async def test_the_slack_is_bounded_by_its_declaration():
    with pytest.raises(ValueError):
        TableSettings(_env_file=None, timer_slack_ms=-1)  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        TableSettings(_env_file=None, timer_slack_ms=51)  # type: ignore[call-arg]
