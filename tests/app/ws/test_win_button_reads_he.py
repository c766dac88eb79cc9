"""F-3: the win button reads 和 in both Chinese scripts and "Win" in English; results may keep 胡 / 自摸 as names
of the hand (docs/rules/common.md#buttons F-3, seed 002:L106 "吃碰杠听和过")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

STRINGS = json.loads((Path(__file__).resolve().parents[3] / "web/js/strings.json").read_text("utf-8"))

# (string key, language, what it must read or begin with)
CASES = [
    ("act.win", "zh-Hans", "和"),
    ("act.win", "zh-Hant", "和"),
    ("act.win", "en", "Win"),
    ("act.win.help", "zh-Hans", "和："),
    ("act.win.help", "zh-Hant", "和："),
    ("hints.suggest_win", "zh-Hans", "建议：和"),
    ("hints.suggest_win", "zh-Hant", "建議：和"),
]


@pytest.mark.parametrize(("key", "language", "words"), CASES)
def test_the_win_button_and_its_help_say_he(key: str, language: str, words: str) -> None:
    text = STRINGS[key][language]
    assert text == words if key == "act.win" else text.startswith(words), (key, language, text)


def test_results_may_keep_hu_and_zimo_as_names_of_the_hand() -> None:
    """The amendment leaves the hand's names alone: a won discard is still 放炮胡 in a result."""
    assert "胡" in STRINGS["win.discard"]["zh-Hans"]
