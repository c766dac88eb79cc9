"""Checks for the restart tests: what each seat saw, across restarts, is one consistent hand.

Each settled hand's record (seed + actions, ``hands``) is replayed with the engine.  For every connection of a
seat the engine events it received for that hand must be the replay's events (as that seat may see them), in
order and without a gap, starting either at the hand's first event or at a snapshot whose view is the
replayed hand's view after some prefix of its actions.  Across connections (a kill or drain in between) a
later connection must start at or after where the earlier one stopped: an event a seat was sent is never
lost by a restart, so no event went out before its action was in the journal, and the resumed hand is the
very hand that was played.
"""

from __future__ import annotations

import json
from typing import Any

from engine.actions import Action
from engine.state import HandState
from engine.variants import find_variant


def _norm(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _replay(hand: Any, seat: int) -> tuple[list[dict[str, Any]], list[tuple[int, Any]]]:
    """The hand's events as ``seat`` sees them, and (events so far, seat view) after the deal and each action."""
    result = hand.result
    state = HandState.deal(find_variant(hand.variant), seed=hand.seed, dealer=int(result.get("dealer", 0)),
                           round_wind=int(result.get("round_wind", 0)),
                           dealer_streak=int(result.get("dealer_streak", 0)), options=result.get("options") or {})
    steps = [(len(state.events), _norm(state.view(seat)))]
    for data in hand.actions:
        state.apply(Action.from_json(dict(data)))
        steps.append((len(state.events), _norm(state.view(seat))))
    return [_norm(e.for_seat(seat)) for e in state.events], steps


def segments(trace: list[tuple[int, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Split a seat's trace into runs of one hand on one connection, each opened by a snapshot or not."""
    out: list[dict[str, Any]] = []
    for conn, kind, msg in trace:
        if kind == "snapshot":
            if msg["view"] is None:
                continue
            out.append({"conn": conn, "hand_no": msg["table"]["hand_no"], "view": msg["view"], "events": []})
            continue
        last = out[-1] if out else None
        if last is None or last["conn"] != conn or last["hand_no"] != msg["hand_no"]:
            last = {"conn": conn, "hand_no": msg["hand_no"], "view": None, "events": []}
            out.append(last)
        last["events"].append(msg["event"])
    return out


def check_seat(trace: list[tuple[int, str, dict[str, Any]]], hands: dict[int, Any]) -> set[int]:
    """Check one seat's trace against the settled hands (``hand_no`` → ``hands`` row); returns the hand
    numbers it checked.  Hands without a record (still in play, or voided) are skipped."""
    seat = next(msg["table"]["seat"] for _c, kind, msg in trace if kind == "snapshot")
    checked: set[int] = set()
    reached: dict[int, int] = {}  # hand_no -> events seen so far (end of the last segment)
    replays: dict[int, tuple[list[dict[str, Any]], list[tuple[int, Any]]]] = {}
    for seg in segments(trace):
        hand = hands.get(seg["hand_no"])
        if hand is None:
            continue
        if seg["hand_no"] not in replays:
            replays[seg["hand_no"]] = _replay(hand, seat)
        events, steps = replays[seg["hand_no"]]
        where = f"seat {seat} hand {seg['hand_no']} connection {seg['conn']}"
        if seg["view"] is None:
            start = 0
        else:
            starts = [n for n, view in steps if view == seg["view"]]
            assert starts, f"{where}: the snapshot is no state of the settled hand"
            later = [n for n in starts if n >= reached.get(seg["hand_no"], 0)]
            assert later, f"{where}: the snapshot is from before events the seat had already seen"
            start = min(later)
        assert start >= reached.get(seg["hand_no"], 0), f"{where}: starts at event {start}, before what it saw"
        got = seg["events"]
        seqs = [e["seq"] for e in got]  # an event's seq is its place in the hand, from 1
        assert seqs == list(range(start + 1, start + 1 + len(got))), f"{where}: a gap or a repeat: {seqs}"
        assert got == events[start:start + len(got)], f"{where}: an event differs from the settled hand's"
        reached[seg["hand_no"]] = start + len(got)
        checked.add(seg["hand_no"])
    return checked
