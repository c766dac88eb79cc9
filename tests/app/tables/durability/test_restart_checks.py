"""The restart tests' trace check (``restart_checks``) passes a consistent story and catches a broken one: an
event a seat saw that a restart lost, a gap, and a snapshot that is no state of the settled hand."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from engine.bots import greedy_policy
from engine.state import HandState
from engine.variants import find_variant
from tests.app.support.restart_checks import check_seat

SEAT = 1


def _hand() -> tuple[SimpleNamespace, list[tuple[int, Any, list[dict[str, Any]]]]]:
    """A played 天台 hand as its ``hands`` record, and after the deal and each action: (events so far, the
    seat's view, its events so far), as the server would have sent them."""
    variant = find_variant("tiantai")
    state = HandState.deal(variant, seed="restart-checks")
    rng = random.Random(3)

    def now() -> tuple[int, Any, list[dict[str, Any]]]:
        events = [json.loads(json.dumps(e.for_seat(SEAT))) for e in state.events]
        return len(state.events), json.loads(json.dumps(state.view(SEAT))), events

    steps = [now()]
    while not state.is_over:
        state.apply(greedy_policy(state, state.awaiting()[0], rng))
        steps.append(now())
    record = SimpleNamespace(variant="tiantai", seed="restart-checks", actions=[a.to_json() for a in state.actions],
                             result={"dealer": 0, "round_wind": 0, "dealer_streak": 0, "options": {}})
    return record, steps


def _snapshot(view: Any) -> dict[str, Any]:
    return {"table": {"hand_no": 1, "seat": SEAT}, "view": view}


def _events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"hand_no": 1, "event": e} for e in events]


def _trace(first: list[dict[str, Any]], snap: Any, second: list[dict[str, Any]]) -> list[tuple[int, str, Any]]:
    trace: list[tuple[int, str, Any]] = [(1, "snapshot", {"table": {"hand_no": 0, "seat": SEAT}, "view": None})]
    trace += [(1, "event", m) for m in _events(first)]
    trace.append((2, "snapshot", _snapshot(snap)))
    return trace + [(2, "event", m) for m in _events(second)]


def test_a_resumed_hand_that_goes_on_where_the_seat_was_passes() -> None:
    record, steps = _hand()
    _n, _view, everything = steps[-1]
    k = len(steps) // 2
    seen, view, _ = steps[k]
    trace = _trace(everything[:seen], view, everything[seen:])
    assert check_seat(trace, {1: record}) == {1}


def test_an_event_the_restart_lost_is_caught() -> None:
    record, steps = _hand()
    _n, _view, everything = steps[-1]
    k = len(steps) // 2
    seen, _v, _ = steps[k]
    earlier, view, _ = next(s for s in reversed(steps[:k]) if s[0] < seen)  # resumed from before what it saw
    with pytest.raises(AssertionError, match="before"):
        check_seat(_trace(everything[:seen], view, everything[earlier:]), {1: record})


def test_a_gap_and_a_foreign_snapshot_are_caught() -> None:
    record, steps = _hand()
    _n, _view, everything = steps[-1]
    seen, view, _ = steps[len(steps) // 2]
    with pytest.raises(AssertionError, match="gap"):
        check_seat(_trace(everything[:seen], view, everything[seen + 1:]), {1: record})
    with pytest.raises(AssertionError, match="no state"):
        check_seat(_trace(everything[:seen], {**view, "wall_remaining": -1}, everything[seen:]), {1: record})
