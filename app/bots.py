"""Server bots (機器人): practice-table seats and 托管 (auto-play), at a chosen level.

The levels are the engine's registered policies ``easy`` / ``normal`` / ``strong`` (engine.bots);
``BotLevel`` declares them once for the REST option of practice tables, the 托管 setting
(``TableSettings.auto_play_level``) and the docs.  Each table has its own random stream.
"""

from __future__ import annotations

import random
import secrets
from typing import Literal, get_args

from engine.actions import Action
from engine.bots import get_policy
from engine.state import HandState

BotLevel = Literal["easy", "normal", "strong"]
"""A bot level: ``easy`` claims everything, ``normal`` plays tile efficiency, ``strong`` adds value and defence."""

BOT_LEVELS: tuple[str, ...] = get_args(BotLevel)
DEFAULT_BOT_LEVEL: BotLevel = "normal"


class TableBots:
    """Decides for every bot (and 托管) seat of one table.  ``seed`` makes a table's bots repeatable (tests)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(secrets.token_hex(8) if seed is None else seed)

    def choose(self, hand: HandState, seat: int, level: str = DEFAULT_BOT_LEVEL) -> Action:
        """The action of the ``level`` policy for ``seat`` (a legal one: the policies guarantee it)."""
        return get_policy(level)(hand, seat, self.rng)
