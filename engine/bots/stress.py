"""Stress policies (壓力測試機器人): players that push the hand flow into its rarely reached corners.

They are not meant to play well.  Each one exaggerates one habit so that simulations reach the states a real
table reaches only now and then (docs/rules/common.md#always-a-move D-7: every awaited seat must always have a move):

* ``claimer`` takes every 槓 / 碰 / 吃 it is offered, even when it could win instead (the D-7 freeze came from a
  seat that chose a pong over a win);
* ``nowin`` never declares a win (胡 / 杀猪) unless nothing else is legal, so hands run into 流局, 分牌 and 黄牌;
* ``declarer`` declares 聽 / 眼牌 / Miji whenever a discard may carry one (hands locked early);
* ``konger`` kongs whenever it can and otherwise plays like ``easy``.

Discards are the loneliest tile (as ``easy``) with random ties, so hands still progress towards wins.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind, Declare
from engine.bots.easy import greedy_policy, isolation
from engine.bots.registry import register

if TYPE_CHECKING:
    from engine.state import HandState

_WINS = (ActionKind.WIN, ActionKind.KILL_PIG)
_CLAIMS = (ActionKind.KONG, ActionKind.PONG, ActionKind.CHOW)


def _first_of(legal: Sequence[Action], kinds: Sequence[ActionKind]) -> Action | None:
    """The first legal action of the first kind in ``kinds`` that is offered."""
    for kind in kinds:
        for a in legal:
            if a.kind is kind:
                return a
    return None


def _loneliest_discard(state: HandState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """A plain discard of the least useful tile (random among equals), or None when no discard is legal."""
    plain = [a for a in legal if a.kind is ActionKind.DISCARD and a.declare is None]
    if not plain:
        return None
    counts = state.seats[seat].counts
    return max(plain, key=lambda a: (isolation(counts, a.tile or 0), rng.random()))


@register("claimer")
def claimer_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Claims over wins: 槓 > 碰 > 吃 > 胡 / 杀猪 > discard (also a kong before a self-drawn win)."""
    legal = state.legal_actions(seat)
    return _first_of(legal, (*_CLAIMS, *_WINS)) or _loneliest_discard(state, seat, legal, rng) or legal[0]


@register("nowin")
def nowin_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Never wins unless forced: passes every win, discards instead of 自摸; wins only when nothing else is
    legal (e.g. a hand of nothing but 財神)."""
    legal = state.legal_actions(seat)
    others = [a for a in legal if a.kind not in _WINS]
    if not others:
        return legal[0]
    passing = _first_of(others, (ActionKind.PASS,))
    if passing is not None and rng.random() < 0.7:
        return passing
    return _loneliest_discard(state, seat, others, rng) or rng.choice(others)


_DECLARE_ORDER = (Declare.MIJI, Declare.EYE, Declare.READY)


@register("declarer")
def declarer_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Declares 聽 / 眼牌 / Miji with the first discard that may carry one; otherwise plays like ``easy``."""
    legal = state.legal_actions(seat)
    win = _first_of(legal, _WINS)
    if win is not None:
        return win
    for declare in _DECLARE_ORDER:
        offered = [a for a in legal if a.declare is declare]
        if offered:
            return rng.choice(offered)
    return greedy_policy(state, seat, rng)


@register("konger")
def konger_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Kongs whenever it can (明槓 on a discard, 暗槓, 加槓), even before a win; otherwise plays like ``easy``."""
    legal = state.legal_actions(seat)
    return _first_of(legal, (ActionKind.KONG,)) or greedy_policy(state, seat, rng)
