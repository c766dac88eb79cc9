"""The bot policies by name (機器人): ``register`` adds one, ``get_policy`` finds one.

A module of its own so that the policy modules can register themselves without importing the package that
imports them (``engine.bots`` imports every policy module, which would tie it to each in a circle).
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
