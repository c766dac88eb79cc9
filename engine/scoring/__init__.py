"""Scoring and settlement (計分與結算): one scorer per variant behind ``score(situation)``."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module

from engine.scoring.result import Payment, ScoreItem, ScoreResult, SeatScore
from engine.scoring.situation import Declaration, KongKind, SeatHand, Situation, WinKind

__all__ = [
    "Declaration", "KongKind", "Payment", "ScoreItem", "ScoreResult", "SeatHand", "SeatScore",
    "Situation", "WinKind", "score", "scorer_for",
]

# Each variant package exposes ``score(situation) -> ScoreResult``.
_SCORER_MODULES = {
    "tiantai": "engine.scoring.tiantai",
    "taipao": "engine.scoring.taipao",
    "taiwan": "engine.scoring.taiwan",
}


@cache
def scorer_for(variant: str) -> Callable[[Situation], ScoreResult]:
    """The ``score`` function of ``variant``'s scoring package; ValueError for an unknown variant."""
    try:
        module = import_module(_SCORER_MODULES[variant])
    except KeyError:
        raise ValueError(f"unknown variant {variant!r}") from None
    fn: Callable[[Situation], ScoreResult] = module.score
    return fn


def score(situation: Situation) -> ScoreResult:
    """Score a finished hand under its variant's rules and the room's option overrides."""
    return scorer_for(situation.variant)(situation)
