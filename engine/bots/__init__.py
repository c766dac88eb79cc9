"""Bot policies (機器人): one module per policy, registered here by name.

A policy answers "what does this seat do now?" from the hand state: ``policy(state, seat, rng) -> Action``.
It must return one of ``state.legal_actions(seat)`` and use only ``rng`` for randomness, so a simulation
replays bit for bit.  Policies are used by ``python -m engine simulate``, the benchmarks, the server's
practice tables and 托管 (auto-play).  Adding a policy is one module that calls :func:`register`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.state import HandState

Policy = Callable[["HandState", int, random.Random], "Action"]

POLICIES: dict[str, Policy] = {}
"""Every registered policy by name (``easy`` = ``greedy``, ``random``, ...)."""


def register(*names: str) -> Callable[[Policy], Policy]:
    """Register a policy under one or more names (a decorator)."""

    def add(policy: Policy) -> Policy:
        for name in names:
            if name in POLICIES:
                raise ValueError(f"bot policy {name!r} is registered twice")
            POLICIES[name] = policy
        return policy

    return add


def get_policy(name: str) -> Policy:
    """The policy registered as ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return POLICIES[name]
    except KeyError:
        raise KeyError(f"unknown bot policy {name!r}; known: {', '.join(sorted(POLICIES))}") from None


# Importing a policy module registers it.  Keep one line per module.
import engine.bots.stress  # noqa: E402, F401  (the stress-test policies of issue 8)
from engine.bots import easy, normal, strong  # noqa: E402
from engine.bots.easy import greedy_policy, isolation, random_policy  # noqa: E402

__all__ = ["POLICIES", "Policy", "easy", "get_policy", "greedy_policy", "isolation", "normal", "random_policy", "register",
           "strong"]
