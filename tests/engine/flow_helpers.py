"""Shared helpers for the hand-flow tests (tests/engine/test_flow_*.py).

Scenarios are set up with ``engine.rigging.build_wall`` so that every hand, draw and tail tile is chosen;
``do`` applies an action after checking that the engine offers it, and ``check_all`` runs the engine's own
invariants after every step.

The test modules import it like any module (``from tests.engine.flow_helpers import ...``); it holds no
fixtures, so tests/engine has no conftest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine.actions import Action, ActionKind, Declare, IllegalAction, Refusal
from engine.events import Event
from engine.invariants import check_all
from engine.rigging import build_wall, deal_positions
from engine.state import HandState, Phase
from engine.tiles import TILES, Tile, parse_tiles
from engine.variants import Variant, find_variant

TIANTAI = find_variant("tiantai")
TAIPAO = find_variant("taipao")
TAIWAN = find_variant("taiwan")
ALL_VARIANTS = (TIANTAI, TAIPAO, TAIWAN)

K = ActionKind


def t(code: str) -> Tile:
    """One tile from notation."""
    (x,) = parse_tiles(code)
    return x


def ts(code: str) -> list[Tile]:
    return parse_tiles(code)


def rig(variant: Variant, hands: Sequence[str], draws: Sequence[str] = (), tail: str = "", *,
        dealer: int = 0, options: dict[str, Any] | None = None, seed: int | str = 0,
        head_at: dict[int, str] | None = None) -> HandState:
    """Deal a hand from a rigged wall.  ``head_at`` puts chosen tiles at absolute wall indices (by swapping
    them with an undealt, unchosen copy), e.g. the 海底 tile."""
    wall = build_wall(variant, dealer=dealer, hands=hands, draws=draws, tail=tail)
    if head_at:
        wall = place(variant, wall, dealer, len(parse_tiles(" ".join(draws))), len(parse_tiles(tail)),
                     head_at)
    state = HandState.deal(variant, seed=seed, dealer=dealer, options=options, wall=wall)
    check_all(state)
    return state


def place(variant: Variant, wall: list[Tile], dealer: int, n_draws: int, n_tail: int,
          at: dict[int, str]) -> list[Tile]:
    wall = list(wall)
    dealt = max(p for ps in deal_positions(variant, dealer) for p in ps) + 1
    free = set(range(dealt + n_draws, len(wall) - n_tail)) - set(at)
    for index, code in at.items():
        want = t(code)
        if wall[index] == want:
            continue
        j = next((j for j in sorted(free) if wall[j] == want), None)
        if j is None:
            raise ValueError(f"no free copy of {code} to put at {index}")
        wall[index], wall[j] = wall[j], wall[index]
    return wall


def act(state: HandState, kind: ActionKind, seat: int, tile: str | Tile | None = None,
        tiles: str = "", declare: Declare | None = None) -> Action:
    tl = t(tile) if isinstance(tile, str) else tile
    return Action(kind, seat, tl, tuple(parse_tiles(tiles)), declare)


def do(state: HandState, kind: ActionKind, seat: int, tile: str | Tile | None = None, tiles: str = "",
       declare: Declare | None = None) -> list[Event]:
    """Apply an action that must be legal now; check the invariants afterwards."""
    a = act(state, kind, seat, tile, tiles, declare)
    legal = state.legal_actions(seat)
    assert a in legal, f"{a} not legal for seat {seat}; legal: {[str(x) for x in legal]}"
    events = state.apply(a)
    check_all(state)
    return events


def kinds(state: HandState, seat: int) -> set[ActionKind]:
    return {a.kind for a in state.legal_actions(seat)}


def offers(state: HandState, seat: int, kind: ActionKind, tile: str | None = None) -> bool:
    return any(a.kind is kind and (tile is None or a.tile == t(tile)) for a in state.legal_actions(seat))


def pass_all(state: HandState) -> None:
    """Everyone with an open claim option passes."""
    while state.phase in (Phase.CLAIMS, Phase.ROB):
        seats = state.awaiting()
        assert seats
        do(state, K.PASS, seats[0])


def discard(state: HandState, seat: int, tile: str, *, pass_claims: bool = True) -> list[Event]:
    """Discard; then (by default) everyone passes the claim window."""
    events = do(state, K.DISCARD, seat, tile)
    if pass_claims:
        pass_all(state)
    return events


def hand(state: HandState, seat: int) -> str:
    """A seat's concealed tiles in compact notation (sorted)."""
    from engine.tiles import format_tiles

    return format_tiles(state.seats[seat].tiles())


def run_defaults(state: HandState, until: Callable[[HandState], bool], *, auto_play: bool = False,
                 limit: int = 5000, check: bool = False) -> None:
    """Answer every prompt with the timeout action (docs/rules/timing.md#timeout) until ``until(state)``."""
    for _ in range(limit):
        if until(state) or state.phase is Phase.ENDED:
            return
        seat = state.awaiting()[0]
        a = state.default_action(seat, auto_play)
        assert a is not None
        state.apply(a)
        if check:
            check_all(state)
    raise AssertionError("run_defaults did not reach its goal")


def snapshot(state: HandState) -> str:
    """Everything observable and internal about a hand, as one comparable string."""
    seats = []
    for s in state.seats:
        seats.append({
            "counts": list(s.counts), "melds": [str(m) + repr((m.claimed, m.from_seat, m.added)) for m in s.melds],
            "flowers": [str(x) for x in s.flowers], "river": [str(x) for x in s.river],
            "aside": [str(x) for x in s.set_aside], "drawn": str(s.drawn), "decl": str(s.declaration),
            "no_pong": sorted(s.no_pong), "no_win": sorted(s.no_win), "draws": s.draws,
            "discards": s.discards_made,
        })
    w = state.window
    data = {
        "views": [state.view(s) for s in [*range(state.n), None]],
        "events": [[e.seq, e.type, dict(e.public), {k: dict(v) for k, v in e.private.items()}]
                   for e in state.events],
        "actions": [a.to_json() for a in state.actions],
        "wall": [state.wall.head, state.wall.tail, [str(x) for x in state.wall.tiles]],
        "phase": state.phase.value, "current": state.current, "seats": seats,
        "context": repr(state.context), "kongs": state.kongs, "discards_total": state.discards_total,
        "window": None if w is None else [w.kind, w.from_seat, str(w.tile),
                                          {k: [str(a) for a in v] for k, v in w.options.items()},
                                          {k: str(a) for k, a in w.answers.items()}],
        "result": None if state.result is None else repr(state.result),
    }
    return json.dumps(data, sort_keys=True, default=str)


def assert_refused(state: HandState, action: Action, reason: Refusal) -> None:
    """The action raises IllegalAction with ``reason`` and leaves the state exactly as it was."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.reason is reason
    assert info.value.action == action
    assert snapshot(state) == before


def event_types(events: Sequence[Event]) -> list[str]:
    return [e.type for e in events]


class _Result:
    """Just what ``Match.record`` reads of a finished hand (a real HandResult needs a whole scored hand)."""

    def __init__(self, winners: tuple[int, ...], kongs: int = 0) -> None:
        self.winners, self.kongs = winners, kongs

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def dealer_won(self, dealer: int) -> bool:
        return dealer in self.winners


class FinishedHand:
    """A stand-in for a finished ``HandState`` when testing dealer rotation and 圈 in ``Match``."""

    def __init__(self, winners: tuple[int, ...], kongs: int = 0) -> None:
        self.result = _Result(winners, kongs)


__all__ = [
    "ALL_VARIANTS", "FinishedHand", "K", "TAIPAO", "TAIWAN", "TIANTAI", "TILES", "Declare", "Phase", "Refusal", "act",
    "assert_refused", "discard", "do", "event_types", "hand", "kinds", "offers", "pass_all", "place", "rig",
    "run_defaults", "snapshot", "t", "ts",
]

