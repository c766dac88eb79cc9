"""Server bots for practice tables: the engine's greedy policy with a per-table random stream."""

from __future__ import annotations

import random
import secrets

from engine.actions import Action
from engine.bots import greedy_policy
from engine.state import HandState


class TableBots:
    """Decides for every bot seat of one table.  ``seed`` makes a table's bots repeatable (tests)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(secrets.token_hex(8) if seed is None else seed)

    def choose(self, hand: HandState, seat: int) -> Action:
        return greedy_policy(hand, seat, self.rng)
