"""``python -m engine score``, the situation JSON format (engine/scoring/json_io.py) and docs/scoring.md."""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli_score import main, run
from engine.melds import MeldKind
from engine.scoring import Declaration, WinKind, score
from engine.scoring.json_io import situation_from_json, situation_to_json

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scoring.md"
SCHEMA = ROOT / "docs" / "situation.schema.json"

TIANTAI: dict[str, Any] = {
    "variant": "tiantai", "dealer": 0,
    "seats": [{"concealed": "1188m1166p12366z"}, {"concealed": "123456789m23499p"},
              {"concealed": "556677m345p444z77z"}],
    "winners": [1, 2], "win_kind": "discard", "winning_tile": "4p", "discarder": 0,
}
TAIWAN: dict[str, Any] = {
    "variant": "taiwan", "dealer": 0, "open_seat": 2, "dealer_streak": 1,
    "seats": [{"concealed": "111222m333p444s5566z"}, {"concealed": "123456789m234p56788s"},
              {"concealed": "555m666p999s1122334z"}, {"concealed": "777m8889p123s123477z"}],
    "winners": [1], "win_kind": "self_draw", "winning_tile": "7s",
}
TAIPAO: dict[str, Any] = {
    "variant": "taipao", "dealer": 0, "wildcards": "5m1z",
    "seats": [{"concealed": "111222333m444p5566z", "flowers": "12f7z"},
              {"concealed": "555m123456p2233789s1z"},
              {"concealed": "666777888999m456s2z"},
              {"concealed": "777888999p111s3344z", "flowers": "5f"}],
    "winners": [1], "win_kind": "kill_pig",
}


def edit(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in changes.items():
        if value is ...:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def seat(base: dict[str, Any], i: int, **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    out["seats"][i].update(changes)
    return out


# -- json_io: reading ---------------------------------------------------------------------------------


def test_reads_a_tiantai_situation() -> None:
    s = situation_from_json(TIANTAI)
    assert s.variant == "tiantai" and s.winners == (1, 2) and s.win_kind is WinKind.DISCARD
    assert str(s.winning_tile) == "4p" and s.discarder == 0
    assert len(s.seats[1].concealed) == 14


def test_reads_melds_flowers_and_declarations() -> None:
    obj = seat(TAIWAN, 1, concealed="123456789m56788s",
               melds=[{"kind": "chow", "tiles": "234p", "from": 0, "claimed": "3p"}],
               flowers="26f", declaration="miji")
    s = situation_from_json(obj)
    m = s.seats[1].melds[0]
    assert m.kind is MeldKind.CHOW and m.from_seat == 0 and str(m.claimed) == "3p"
    assert [str(f) for f in s.seats[1].flowers] == ["2f", "6f"]
    assert s.seats[1].declaration is Declaration.MIJI


def test_reads_added_kong_and_akong() -> None:
    obj = seat(TAIWAN, 1, concealed="123456789m56788s",
               melds=[{"kind": "kong", "tiles": "2222p", "from": 3, "added": True}])
    assert situation_from_json(obj).seats[1].melds[0].added
    obj = seat(TAIWAN, 1, concealed="123456789m56788s", melds=[{"kind": "akong", "tiles": "2222p"}])
    assert situation_from_json(obj).seats[1].melds[0].kind is MeldKind.AKONG


def test_chinese_characters_are_accepted() -> None:
    obj = seat(TIANTAI, 0, concealed="1188m1166p東南西發發")
    assert situation_from_json(obj).seats[0].concealed == situation_from_json(TIANTAI).seats[0].concealed


def test_taipao_fields() -> None:
    s = situation_from_json(TAIPAO)
    assert [str(t) for t in s.wildcards] == ["5m", "1z"] and s.win_kind is WinKind.KILL_PIG
    assert "7z" in [str(f) for f in s.seats[0].flowers]


@pytest.mark.parametrize("obj", [TIANTAI, TAIWAN, TAIPAO])
def test_round_trip(obj: dict[str, Any]) -> None:
    s = situation_from_json(obj)
    again = situation_to_json(s)
    assert situation_from_json(again) == s
    assert json.loads(json.dumps(again)) == again


# -- json_io: rejecting -------------------------------------------------------------------------------

BAD = [
    ("not an object", [1, 2], "expected an object"),
    ("unknown top-level key", edit(TIANTAI, winer=[1]), "unknown key"),
    ("unknown variant", edit(TIANTAI, variant="riichi"), "unknown variant"),
    ("missing seats", edit(TIANTAI, seats=...), "missing required key 'seats'"),
    ("unknown seat key", seat(TIANTAI, 0, hand="1m"), r"seats\[0\]: unknown key"),
    ("bad notation", seat(TIANTAI, 0, concealed="1188m1166p12366x"), r"seats\[0\].concealed: bad tile notation 'x'"),
    ("digits without suit", seat(TIANTAI, 0, concealed="1188m1166p1236"), "digits without a suit letter"),
    ("rank out of range", edit(TIANTAI, winning_tile="8z"), "rank 8 does not exist"),
    ("no s suit in tiantai", seat(TIANTAI, 0, concealed="1188m1166s12366z"), r"1s does not exist in tiantai"),
    ("winner short of a tile", seat(TIANTAI, 1, concealed="123456789m2349p"), r"seats\[1\]: holds 13 tiles"),
    ("non-winner with 14", seat(TIANTAI, 0, concealed="1188m1166p123666z"), r"seats\[0\]: holds 14 tiles"),
    ("taiwan non-winner with 13", seat(TAIWAN, 0, concealed="111222m333p444s5z"), "expected 16"),
    ("five copies", seat(TIANTAI, 0, concealed="1188m1166p12777z"), "copies of 7z"),
    ("two copies of a flower", seat(seat(TAIWAN, 0, flowers="1f"), 2, flowers="1f"), "copies of 1f"),
    ("flower in concealed", seat(TAIWAN, 0, concealed="111222m333p444s556z1f"), "bonus tile"),
    ("honour in flowers", seat(TAIWAN, 0, flowers="5z"), "not a bonus tile"),
    ("winner out of range", edit(TIANTAI, winners=[3]), r"winners\[0\]: expected a seat index 0..2"),
    ("winner listed twice", edit(TAIWAN, winners=[1, 1]), "listed twice"),
    ("dealer out of range", edit(TAIWAN, dealer=4), "dealer: must be in 0..3"),
    ("discarder missing", edit(TIANTAI, discarder=...), "discarder: required"),
    ("discarder on a self-draw", edit(TAIWAN, discarder=2), "has no discarder"),
    ("discarder is a winner", edit(TIANTAI, discarder=1), "cannot win on his own discard"),
    ("win_kind missing", edit(TAIWAN, win_kind=...), "win_kind: required"),
    ("unknown win_kind", edit(TAIWAN, win_kind="tsumo"), "is not one of"),
    ("win kind of another variant", edit(TAIWAN, win_kind="kill_pig", winning_tile=...), "not a taiwan win"),
    ("winning tile missing", edit(TAIWAN, winning_tile=...), "winning_tile: required"),
    ("winning tile not held", edit(TAIWAN, winning_tile="9s"), "must include the winning tile 9s"),
    ("two winners in taiwan", edit(TAIWAN, winners=[1, 2]), "several winners"),
    ("two winners on a self-draw", edit(TIANTAI, win_kind="self_draw", discarder=...), "several winners"),
    ("taiwan without open_seat", edit(TAIWAN, open_seat=...), "open_seat: required"),
    ("wildcards outside taipao", edit(TAIWAN, wildcards="5m"), "財神 exist only in taipao"),
    ("three wildcard faces", edit(TAIPAO, wildcards="5m1z2z"), "one face, or two different faces"),
    ("wildcard face as flower", edit(TAIPAO, wildcards="5m7z"), "is a 財神 face"),
    ("declaration outside taiwan", seat(TIANTAI, 0, declaration="eye"), "exist only in taiwan"),
    ("bad declaration", seat(TAIWAN, 0, declaration="riichi"), "is not one of"),
    ("human outside taiwan", edit(TIANTAI, human=True), "人胡 exists only in taiwan"),
    ("flag not a boolean", edit(TIANTAI, last_tile=1), "expected true or false"),
    ("options not an object", edit(TIANTAI, options=[1]), "options: expected an object"),
    ("option value not a scalar", edit(TIANTAI, options={"cap": [300]}), r"options.cap"),
    ("chow in tiantai", seat(TIANTAI, 0, concealed="88m1166p12366z",
                             melds=[{"kind": "chow", "tiles": "123m", "from": 2}]), "no chow"),
    ("chow not from the 上家", seat(TAIWAN, 1, concealed="123456789m56788s",
                                    melds=[{"kind": "chow", "tiles": "234p", "from": 2}]), "上家"),
    ("chow of honours", seat(TAIWAN, 1, concealed="123456789m56788s",
                             melds=[{"kind": "chow", "tiles": "123z", "from": 0}]), "consecutive"),
    ("pong of two tiles", seat(TAIWAN, 1, concealed="123456789m56788s",
                               melds=[{"kind": "pong", "tiles": "22p", "from": 0}]), "3 identical"),
    ("meld from own seat", seat(TAIWAN, 1, concealed="123456789m56788s",
                                melds=[{"kind": "pong", "tiles": "222p", "from": 1}]), "own seat"),
    ("akong with from", seat(TAIWAN, 1, concealed="123456789m56788s",
                             melds=[{"kind": "akong", "tiles": "2222p", "from": 0}]), "akong"),
    ("added pong", seat(TAIWAN, 1, concealed="123456789m56788s",
                        melds=[{"kind": "pong", "tiles": "222p", "from": 0, "added": True}]), "only a kong"),
    ("claimed tile not in meld", seat(TAIWAN, 1, concealed="123456789m56788s",
                                      melds=[{"kind": "pong", "tiles": "222p", "from": 0, "claimed": "3p"}]),
     "not in the meld"),
    ("unknown meld key", seat(TAIWAN, 1, concealed="123456789m56788s",
                              melds=[{"kind": "pong", "tiles": "222p", "source": 0}]), "unknown key"),
    ("kong fields on a plain win", edit(TAIWAN, kong_kind="akong"), "names a kong"),
    ("rob of an exposed kong", edit(TAIWAN, win_kind="rob_kong", discarder=3, kong_kind="kong"), "added kong"),
    ("win fields on a draw", edit(TAIWAN, winners=[]), "a drawn hand"),
    ("flags on a draw", edit(edit(TAIWAN, winners=[], win_kind=..., winning_tile=...), last_tile=True),
     "need a winner"),
    ("wrong seat count", edit(TAIWAN, seats=TAIWAN["seats"][:3]), "exactly 4 seats"),
]


@pytest.mark.parametrize(("case", "obj", "message"), BAD, ids=[b[0] for b in BAD])
def test_rejects(case: str, obj: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        situation_from_json(obj)


def test_one_discard_in_two_hands_counts_once() -> None:
    """一炮多響: 4p is in both winners' hands but is one tile (seat 0 holds no 4p here)."""
    obj = seat(TIANTAI, 0, concealed="1188m1144p12366z")  # 4p: 2 here + 1 shared discard = 3
    assert situation_from_json(obj)
    with pytest.raises(ValueError, match="copies of 4p"):  # 2 + 1 shared + 2 more in seat 2 = 5
        situation_from_json(seat(obj, 2, concealed="556677m3444p444z"))


def test_split_deal_lets_others_hold_their_tile() -> None:
    obj = edit(TAIPAO, win_kind="split_deal", winning_tile="9s")
    obj = seat(obj, 1, concealed="555m123456p2233789s9s")
    obj = seat(obj, 2, concealed="666777888999m456s2z5z")  # 17: holds the 分牌 tile it drew
    assert situation_from_json(obj).win_kind is WinKind.SPLIT_DEAL


# -- the CLI ------------------------------------------------------------------------------------------


def _run(text: str) -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    code = run(io.StringIO(text), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_cli_scores_each_line() -> None:
    code, results = _run(json.dumps(TIANTAI) + "\n" + json.dumps(TAIWAN) + "\n")
    assert code == 0
    assert [r["variant"] for r in results] == ["tiantai", "taiwan"]
    assert results[0]["net"] == [-33, 12, 21]
    assert results[1]["net"] == [-11, 27, -8, -8]
    assert results[1]["payments"][0] == {"payer": 0, "payee": 1, "points": 11, "reason": "self_draw"}


def test_cli_reports_bad_lines_and_goes_on() -> None:
    lines = [
        json.dumps(TIANTAI),
        "{not json",
        "",
        json.dumps(edit(TIANTAI, variant="riichi")),
        json.dumps(seat(TAIWAN, 1, concealed="123456789m234p56789s")),  # not a winning hand
        json.dumps(TAIWAN),
    ]
    code, results = _run("\n".join(lines) + "\n")
    assert code == 1
    assert len(results) == 5  # the blank line is skipped
    assert results[0]["variant"] == "tiantai"
    assert results[1]["line"] == 2 and results[1]["error"].startswith("invalid JSON")
    assert results[2] == {"line": 4, "error": "variant: unknown variant 'riichi'; expected one of "
                                              "['taipao', 'taiwan', 'tiantai']"}
    assert results[3]["line"] == 5 and "winning hand" in results[3]["error"]
    assert results[4]["variant"] == "taiwan"


def test_cli_empty_input_is_ok() -> None:
    assert _run("") == (0, [])


def test_cli_main_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "hands.jsonl"
    f.write_text(json.dumps(TIANTAI) + "\n", encoding="utf-8")
    assert main([str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["net"] == [-33, 12, 21]
    assert main([str(tmp_path / "missing.jsonl")]) == 2


def test_python_dash_m_engine_score() -> None:
    """The real entry point, through engine/__main__.py, with stdin."""
    text = json.dumps(TAIWAN) + "\n" + json.dumps(edit(TAIWAN, seats=[])) + "\n"
    p = subprocess.run([sys.executable, "-m", "engine", "score"], input=text, capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert p.returncode == 1, p.stderr
    assert out[0]["net"] == [-11, 27, -8, -8]
    assert out[1]["line"] == 2 and "seats" in out[1]["error"]


# -- docs/scoring.md ----------------------------------------------------------------------------------


def _doc_examples() -> list[tuple[dict[str, Any], list[int] | None]]:
    text = DOC.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"```json\n(.*?)```\n(?:<!-- net: (\[.*?\]) -->)?", text, re.S):
        out.append((json.loads(m.group(1)), json.loads(m.group(2)) if m.group(2) else None))
    return out


def test_doc_has_examples_for_each_variant() -> None:
    variants = [obj["variant"] for obj, _ in _doc_examples()]
    assert {"tiantai", "taiwan", "taipao"} <= set(variants)


EXAMPLES = _doc_examples()


@pytest.mark.parametrize(("obj", "net"), EXAMPLES, ids=[f"{o['variant']}-{i}" for i, (o, _) in enumerate(EXAMPLES)])
def test_doc_examples_are_valid_and_score_as_stated(obj: dict[str, Any], net: list[int] | None) -> None:
    s = situation_from_json(obj)
    if net is not None:
        assert score(s).net == net


def test_doc_examples_match_the_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema not installed: structural check only")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for obj, _ in _doc_examples():
        validator.validate(obj)
    for obj in (TIANTAI, TAIWAN, TAIPAO):
        validator.validate(obj)
    for bad in (edit(TIANTAI, winer=[1]), edit(TIANTAI, discarder=...), edit(TAIWAN, open_seat=...),
                edit(TAIWAN, wildcards="5m"), seat(TIANTAI, 0, declaration="eye")):
        assert not validator.is_valid(bad)


def test_schema_is_json_and_names_every_top_level_key() -> None:
    """Without jsonschema: the schema and json_io agree on the keys."""
    from engine.scoring.json_io import MELD_KEYS, SEAT_KEYS, TOP_KEYS

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert set(schema["properties"]) == TOP_KEYS
    assert set(schema["$defs"]["seatHand"]["properties"]) == SEAT_KEYS
    assert set(schema["$defs"]["meld"]["properties"]) == MELD_KEYS


@pytest.mark.parametrize("variant", ["tiantai", "taiwan", "taipao"])
def test_doc_lists_every_option_with_its_default(variant: str) -> None:
    from importlib import import_module

    if variant == "taipao":
        from engine.scoring.taipao.options import option_defaults

        defaults = option_defaults()
    else:
        defaults = import_module(f"engine.scoring.{variant}").OPTION_DEFAULTS
    heading = {"tiantai": "### 天台 options", "taiwan": "### 台灣 options", "taipao": "### 台炮 options"}[variant]
    text = DOC.read_text(encoding="utf-8").split(heading, 1)[1].split("\n## ", 1)[0]
    for key, default in defaults.items():
        shown = json.dumps(list(default) if isinstance(default, tuple) else default)
        assert re.search(rf"^\| `{key}` \| {re.escape(shown)} \|", text, re.M), key


def test_doc_names_every_taipao_item_as_the_name_table_does() -> None:
    """The 台炮 option table shows each item's 繁體 and English names from engine.scoring.names."""
    from engine.scoring.names import TAIPAO

    text = DOC.read_text(encoding="utf-8").split("### 台炮 options", 1)[1]
    for key, names in TAIPAO.items():
        assert re.search(rf"^\| `{key}` \| [^|]+ \| {re.escape(names.zh_hant)} \({re.escape(names.en)}\) \|",
                         text, re.M), key
