"""Claim windows (吃碰槓胡) after a discard, and the 搶槓 window after an added kong.

The window collects one answer from every entitled seat, then resolves by priority
胡 > 碰 = 槓 > 吃; several winners only where the variant allows 一炮多響, otherwise the first
counterclockwise from the discarder (截胡).  Robbing a kong is always first-counterclockwise.
``resolve_window`` says who takes the tile; the hand's flow (``engine.state``) carries it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.actions import Action, ActionKind, act
from engine.legal import keeps_a_discard, kong_keeps_the_reserve
from engine.phase import ClaimWindow
from engine.tiles import HONOUR_BASE, TILES, Tile
from engine.variants.base import PassLock

if TYPE_CHECKING:
    from engine.board import HandBoard

PRIORITY: Final = {ActionKind.WIN: 3, ActionKind.KONG: 2, ActionKind.PONG: 2, ActionKind.CHOW: 1,
            ActionKind.PASS: 0}


# A win and a pass, by seat: offered in every window, built once (``act`` interns them anyway).
_WIN: Final = [act(ActionKind.WIN, seat) for seat in range(4)]
_PASS: Final = [act(ActionKind.PASS, seat) for seat in range(4)]


def _win_allowed(state: HandBoard, seat: int, t: Tile) -> bool:
    return t not in state.seats[seat].no_win and t in state.winning_tiles(seat)


def _meld_options(state: HandBoard, seat: int, t: Tile, from_seat: int) -> list[Action]:
    s = state.seats[seat]
    if s.declaration is not None or t in state.wildcards:  # a locked hand (聽 / 眼牌) claims nothing
        return []
    out: list[Action] = []
    if not keeps_a_discard(s, 2):  # D-7: a 吃 or 碰 would leave only 財神 (and a 明槓 needs 3 natural tiles)
        return out
    held = s.counts[t]
    if held >= 2 and t not in s.no_pong:
        out.append(act(ActionKind.PONG, seat, t))
    if held == 3 and kong_keeps_the_reserve(state):
        out.append(act(ActionKind.KONG, seat, t))
    if t < HONOUR_BASE and seat == (from_seat + 1) % state.n and state.variant.has_chow:
        out.extend(_chows(state, seat, t))
    return out


def _runs_with(t: int) -> list[tuple[tuple[Tile, ...], int, int]]:
    """The chows containing suited tile ``t``: (the run, the two other tiles)."""
    rank, base = t % 9, t - t % 9
    out: list[tuple[tuple[Tile, ...], int, int]] = []
    for start in range(max(0, rank - 2), min(6, rank) + 1):
        run = tuple(TILES[base + start + i] for i in range(3))
        a, b = (x for x in run if x != t)
        out.append((run, a, b))
    return out


_CHOW_RUNS: Final = [_runs_with(t) if t < 27 else [] for t in range(34)]


def _chows(state: HandBoard, seat: int, t: Tile) -> list[Action]:
    """Every chow containing ``t`` made with two natural (non-財神) tiles of the same suit."""
    s = state.seats[seat]
    counts, wild = s.counts, s.wild
    return [act(ActionKind.CHOW, seat, t, run) for run, a, b in _CHOW_RUNS[t]
            if counts[a] and counts[b] and a not in wild and b not in wild]


def open_discard_window(state: HandBoard, from_seat: int, t: Tile, win_only: bool) -> ClaimWindow:
    w = ClaimWindow("discard", from_seat, t)
    n = state.n
    seats = state.seats
    left_of_next = (from_seat + 1) % n
    for k in range(1, n):
        seat = (from_seat + k) % n
        s = seats[seat]
        opts: list[Action] = [_WIN[seat]] if _win_allowed(state, seat, t) else []
        # most seats hold neither a pair of the tile nor sit to the discarder's right: skip cheaply
        if not win_only and (s.counts[t] >= 2 or seat == left_of_next):
            opts.extend(_meld_options(state, seat, t, from_seat))
        if opts:
            _offer(state, w, seat, opts)
    return w


def open_rob_window(state: HandBoard, konger: int, t: Tile) -> ClaimWindow:
    """搶槓 (docs/rules/tiantai.md#robbing, docs/rules/taiwan.md#robbing): only an added kong can be robbed."""
    w = ClaimWindow("rob", konger, t)
    for k in range(1, state.n):
        seat = (konger + k) % state.n
        if _win_allowed(state, seat, t):
            _offer(state, w, seat, [_WIN[seat]])
    return w


def _offer(state: HandBoard, w: ClaimWindow, seat: int, opts: list[Action]) -> None:
    if not opts:
        return
    opts.append(_PASS[seat])
    w.options[seat] = opts
    win = _WIN[seat]
    if opts[0] is win and state.seats[seat].reveals_others:
        w.answers[seat] = win  # C-9: a 眼牌 declarer's win is declared for them


@dataclass(frozen=True)
class Verdict:
    """How a closed window ends: its ``winners`` (胡), else the ``claim`` that takes the tile (吃碰槓), else
    neither (everybody passed: the next seat draws, or a robbed-at kong completes)."""

    winners: tuple[int, ...] = ()
    claim: Action | None = None

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, winners: tuple[int, ...] = (), claim: Action | None = None) -> None:
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "claim", claim)


_NOBODY: Final = Verdict()
"""Everybody passed (frozen, so one instance serves every such window)."""


def resolve_window(state: HandBoard) -> Verdict:
    """Close the open window once every entitled seat has answered (docs/rules/tiantai.md#multiple-wins, docs/rules/tiantai.md#own-turn, docs/rules/tiantai.md#robbing, docs/rules/taiwan.md#robbing).

    Sets the pass locks (過胡 / 過水 / 過碰) and, when somebody wins, takes the tile from the river (or the
    konger's hand when robbed); the caller goes on from the verdict.
    """
    w = state.window
    assert w is not None
    _apply_pass_locks(state, w)
    order = [(w.from_seat + k) % state.n for k in range(1, state.n)]
    winners = [s for s in order if w.answers.get(s, _PASS[s]).kind is ActionKind.WIN]
    if winners:
        if w.kind == "rob" or not state.variant.multiple_winners:
            winners = winners[:1]
        if w.kind == "rob":
            state.seats[w.from_seat].remove(w.tile)
        else:
            state.seats[w.from_seat].river.pop()
        return Verdict(winners=tuple(winners))
    if w.kind == "rob":
        return _NOBODY
    best = max((a for a in w.answers.values()), key=lambda a: PRIORITY[a.kind], default=None)
    if best is not None and best.kind is not ActionKind.PASS:
        return Verdict(claim=best)
    return _NOBODY


def _apply_pass_locks(state: HandBoard, w: ClaimWindow) -> None:
    """過胡 / 過水 and 過碰: a seat that was offered a win or pong and did not take it."""
    v = state.variant
    for seat, opts in w.options.items():
        chosen = w.answers.get(seat)
        kinds = {a.kind for a in opts}
        took = chosen.kind if chosen is not None else ActionKind.PASS
        s = state.seats[seat]
        if ActionKind.WIN in kinds and took is not ActionKind.WIN and v.pass_win_lock is not PassLock.NONE:
            s.no_win.add(w.tile)
        if ActionKind.PONG in kinds and took is ActionKind.PASS and v.pass_pong_lock:
            s.no_pong.add(w.tile)
