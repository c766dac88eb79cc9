"""Names a player reads, in the client's three languages: 简体中文, 繁體中文 and English.

Every name the server owns (rooms, rank titles) is kept as data next to its key, in all three at once; the
browser picks the one of the player's language.  The 简体 and 繁體 columns are chosen by hand (regional terms
differ), and ``tests/test_i18n_tables.py`` checks with OpenCC that each pair corresponds.
"""

from __future__ import annotations

from typing import Literal

from engine.scoring.names import ItemName

# The languages of the client, as BCP 47 tags (the account's ``language`` and the browser's lang attribute).
Language = Literal["zh-Hans", "zh-Hant", "en"]
LANGUAGES: tuple[Language, ...] = ("zh-Hans", "zh-Hant", "en")


# One name in 繁體, 简体 and English: the engine's value type for scoring-item names serves rooms and titles too
# (positional order zh_hant, zh_hans, en; ``to_json`` gives the shape the API serves).
Names = ItemName
