"""Bot policies (機器人): one module per policy, registered here by name.

A policy answers "what does this seat do now?" from the hand state: ``policy(state, seat, rng) -> Action``.
It must return one of ``state.legal_actions(seat)`` and use only ``rng`` for randomness, so a simulation
replays bit for bit.  Policies are used by ``python -m engine simulate``, the benchmarks, the server's
practice tables and 托管 (auto-play).  Adding a policy is one module that calls ``engine.bots.registry.register``.
"""

from __future__ import annotations

# Importing a policy module registers it.  Keep one line per module.
import engine.bots.stress  # noqa: F401  (the stress-test policies of issue 8)
from engine.bots import easy, normal, strong
from engine.bots.easy import greedy_policy, isolation, random_policy
from engine.bots.registry import POLICIES, Policy, get_policy, register

__all__ = ["POLICIES", "Policy", "easy", "get_policy", "greedy_policy", "isolation", "normal", "random_policy", "register",
           "strong"]
