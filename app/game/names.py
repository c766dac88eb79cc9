"""Names a player reads, in the client's three languages: 简体中文, 繁體中文 and English.

Every name the server owns (rooms, rank titles) is kept as data next to its key, in all three at once; the
browser picks the one of the player's language.  The 简体 and 繁體 columns are chosen by hand (regional terms
differ), and ``tests/app/test_names_scripts.py`` checks with OpenCC that each pair corresponds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# The languages of the client, as BCP 47 tags (the account's ``language`` and the browser's lang attribute).
Language = Literal["zh-Hans", "zh-Hant", "en"]
LANGUAGES: tuple[Language, ...] = ("zh-Hans", "zh-Hant", "en")


@dataclass(frozen=True, slots=True)
class Names:
    """One name in 简体 (``zh_hans``), 繁體 (``zh_hant``) and English (``en``)."""

    zh_hans: str
    zh_hant: str
    en: str

    def to_json(self) -> dict[str, str]:
        """``{"zh_hans": …, "zh_hant": …, "en": …}``: the shape the API serves."""
        return {"zh_hans": self.zh_hans, "zh_hant": self.zh_hant, "en": self.en}
