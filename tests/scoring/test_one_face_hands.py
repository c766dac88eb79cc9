"""F-4: 台炮 one-face hands — one 財神 indicator a flower (docs/rules/taipao.md#one-face F-4).

That face has three live copies; its 財神 台 follow the two-face table (2 / 5 / 8 for a suit face, 3 / 7 / 11 for an
honour face); 杀猪 needs all three live copies (docs/rules/taipao.md#kill-pig) and scores the lowest 杀猪 value;
nothing of same-face mode applies.  Both indicators flowers: no 財神, no 杀猪.  The situation format states the
hand by its turned ``indicators`` (docs/scoring.md).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from engine.scoring import score
from engine.scoring.json_io import situation_from_json
from engine.tiles import is_one_face, parse_tiles
from engine.variants import find_variant

TAIPAO = find_variant("taipao")
SEATS = [{"concealed": "111222333m444p5566z", "flowers": "12f7z"},
         {"concealed": "555m123456p22337899s"},
         {"concealed": "666777888999m456s2z"},
         {"concealed": "777888999p111s3344z", "flowers": "5f"}]


def _facts(wildcards: str, held: str) -> Any:
    counts = [0] * 42
    for t in parse_tiles(held):
        counts[t] += 1
    faces = tuple(parse_tiles(wildcards))
    jokers = sum(counts[f] for f in faces)  # 財神 held, as engine.seat.Seat keeps it
    return SimpleNamespace(wildcards=faces, seats=[SimpleNamespace(counts=counts, jokers=jokers)])


# (the 財神 faces the indicators gave, the 財神 held, whether 杀猪 may be declared)
KILL_PIG_CASES = [
    ("1f5m", "555m", True),  # one-face hand: all three live copies
    ("5m1f", "555m", True),
    ("1f5m", "55m", False),
    ("3f1z", "111z", True),  # an honour face
    ("3f1z", "11z", False),
    ("1f2f", "", False),  # both indicators flowers: no 財神
    ("5m1z", "555m1z", True),  # two-face mode unchanged: 3 + 1
    ("5m1z", "555m", False),
    ("5m", "55m", True),  # same-face mode unchanged: 2
]


@pytest.mark.parametrize(("faces", "held", "allowed"), KILL_PIG_CASES)
def test_kill_pig_in_a_one_face_hand_needs_all_three_live_copies(faces: str, held: str, allowed: bool) -> None:
    assert TAIPAO.can_kill_pig(_facts(faces, held), 0) is allowed


def _situation(**extra: Any) -> dict[str, Any]:
    return {"variant": "taipao", "dealer": 0, "seats": SEATS, "winners": [1], "win_kind": "kill_pig", **extra}


def _items(obj: dict[str, Any], seat: int = 1) -> dict[str, int]:
    result = score(situation_from_json(obj))
    return {i.key: i.value for i in result.seats[seat].items}


def test_plain_kill_pig_in_a_one_face_hand_scores_the_lowest_kill_pig_value_alone() -> None:
    items = _items(_situation(indicators="8f5m"))
    assert items == {"shazhu": 13}  # plain 杀猪: its value alone (F-9), no 財神 台 of either mode


@pytest.mark.parametrize(("indicators", "concealed", "caishen"), [
    ("8f5m", "555m123456p23478999s", ("caishen_suit", 8)),  # three copies of a suit face: 8
    ("4f5m", "55m123456p234789s999s", ("caishen_suit", 5)),  # two copies: 5
    ("6f1z", "111z123456p23478999s", ("caishen_honour", 11)),  # an honour face: 3 / 7 / 11
])
def test_one_face_caishen_tai_follow_the_two_face_table(indicators: str, concealed: str,
                                                        caishen: tuple[str, int]) -> None:
    seats = [dict(s) for s in SEATS]
    seats[1] = {"concealed": concealed}
    items = _items(_situation(indicators=indicators, seats=seats, win_kind="self_draw", winning_tile="9s"))
    assert items.get(caishen[0]) == caishen[1], items
    assert "caishen_same" not in items


def test_the_indicators_field_is_not_same_face_mode() -> None:
    """``indicators`` names what was turned: "5m5m" is same-face mode, "1f5m" a one-face hand."""
    assert situation_from_json(_situation(indicators="5m5m")).wildcards == tuple(parse_tiles("5m"))
    one_face = situation_from_json(_situation(indicators="8f5m"))
    assert one_face.wildcards == tuple(parse_tiles("8f5m"))


@pytest.mark.parametrize(("extra", "field"), [
    ({"indicators": "8f5m", "wildcards": "5m"}, "indicators"),  # one or the other
    ({"indicators": "8f"}, "indicators"),  # two tiles are turned
    ({"indicators": "6f7f8f"}, "indicators"),
    ({"indicators": "8f5m", "variant": "taiwan"}, "indicators"),
])
def test_a_bad_indicators_field_is_refused_naming_it(extra: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError) as refused:
        situation_from_json(_situation(**extra))
    assert field in str(refused.value)


@pytest.mark.parametrize("extra", [
    {"indicators": "7f8f"},  # both flowers: no 財神, so no 杀猪
    {"indicators": "8f5m", "seats": [SEATS[0], {"concealed": "55m123456p223378999s"}, *SEATS[2:]]},  # two copies
])
def test_kill_pig_without_all_three_live_copies_is_refused(extra: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="杀猪|kill"):
        score(situation_from_json(_situation(**extra)))


def test_the_worked_one_face_example_of_docs_scoring_runs_through_the_cli() -> None:
    """docs/scoring.md's one-face example (``indicators`` with a flower) as ``python -m engine score`` reads it."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs/scoring.md").read_text("utf-8")
    found = [m for m in re.finditer(r"```json\n(.*?)```\n<!-- net: (\[.*?\]) -->", text, re.S)
             if '"indicators"' in m.group(1)]
    assert found, "docs/scoring.md has no worked example with indicators"
    example = json.loads(found[0].group(1))
    assert is_one_face(parse_tiles(example["indicators"]))
    run = subprocess.run([sys.executable, "-m", "engine", "score"], input=json.dumps(example), cwd=root,
                         capture_output=True, text=True, timeout=60, check=True)
    out = json.loads(run.stdout)
    assert out["net"] == json.loads(found[0].group(2))
    assert any("one-face" in note for note in out["notes"])
