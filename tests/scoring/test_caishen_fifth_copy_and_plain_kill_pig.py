"""docs/rules/README.md#decisions "Amendments of 2026-12-05" that concern scoring and that the code already did:
F-5 (a 財神 may read as a fifth copy) and F-9 (plain 杀猪 scores its value alone).  F-4 (one-face hands) is in
tests/scoring/test_one_face_hands.py.  Expected values come from the rule book, never the code."""

from __future__ import annotations

from typing import Any

import pytest
from taipao_situations import hand

from engine.scoring import Situation, WinKind, score
from engine.tiles import parse_tiles

FILL = "1122334455667788m"  # a 台炮 seat with B = 0 under 財神 9p 9s


def items_of(res: Any, seat: int) -> dict[str, int]:
    return {i.key: i.value for i in res.seats[seat].items}


# --- F-5: a 財神 stands for any face, even one whose four copies are all in sight ----------------------------

F5_CASES = [
    # (why, winner's concealed, another seat's concealed, an item the winner must score)
    ("docs/rules/taipao.md#caishen-use F-5: 中中 + a 財神 make a 中 pung while seat 2 holds the other two 中: the 財神 "
     "is a fifth 中", "123456789m 123p 44p 55z 9p", "22334455667788s55z", ("pung_special", 1)),
    ("docs/rules/taipao.md#caishen-use F-5: the same hand with one 中 elsewhere (a fourth copy): the same reading",
     "123456789m 123p 44p 55z 9p", "122334455667788s5z", ("pung_special", 1)),
    ("docs/rules/taipao.md#caishen-use F-5: four 1s held and a 財神 as a fifth: 111s pung + 1s 財神 pair",
     "123456789m 123p 1111s 9p", FILL, ("zimo", 1)),
]


@pytest.mark.parametrize(("why", "winner", "other", "item"), F5_CASES, ids=[c[0][:60] for c in F5_CASES])
def test_f5_a_caishen_may_read_as_a_fifth_copy(why: str, winner: str, other: str, item: tuple[str, int]) -> None:
    seats = (hand(FILL), hand(winner), hand(other), hand(FILL))
    s = Situation("taipao", seats, 0, (1,), win_kind=WinKind.SELF_DRAW, winning_tile=parse_tiles(winner)[0],
                  wildcards=tuple(parse_tiles("9p 9s")), options={})
    got = items_of(score(s), 1)
    assert got.get(item[0]) == item[1], (why, got)


# --- F-9: plain 杀猪 scores its value alone; 杀猪胡 adds the 財神 台 and every other item --------------------------

F9_SEATS = [("111222333m444p5566z", "12f7z"), ("555m123456p2233789s1z", ""), ("666777888999m456s2z", ""),
            ("777888999p111s3344z", "5f")]


def _kill_pig(wildcards: str, winner_concealed: str, kind: str, winning_tile: str | None = None) -> Any:
    seats = [hand(c, flowers=f) for c, f in F9_SEATS]
    seats[1] = hand(winner_concealed)
    s = Situation("taipao", tuple(seats), 0, (1,), win_kind=WinKind(kind),
                  winning_tile=parse_tiles(winning_tile)[0] if winning_tile else None,
                  wildcards=tuple(parse_tiles(wildcards)), options={})
    return score(s)


F9_CASES = [
    # (why, 財神 faces, winner's concealed, win kind, winning tile, the winner's items exactly / at least)
    ("docs/rules/taipao.md#winner-items F-9: plain 杀猪 with 3 + 1 財神 scores 13 alone: no 財神 台, no B",
     "5m1z", "555m123456p2233789s1z", "kill_pig", None, {"shazhu": 13}, True),
    ("docs/rules/taipao.md#winner-items F-9: plain 杀猪 with 3 + 2 財神: 30 alone",
     "5m1z", "555m123456p223378s11z", "kill_pig", None, {"shazhu": 30}, True),
    ("docs/rules/taipao.md#winner-items F-9: same-face mode, 2 財神: 13 alone",
     "5m", "55m123456p223378999s", "kill_pig", None, {"shazhu": 13}, True),
    ("docs/rules/taipao.md#winner-items F-9: 杀猪胡 (a normal win with the holding) adds the 財神 台 (5m ×3: 8, "
     "1z ×1: 3) and the other items", "5m1z", "555m123456p2347899s1z", "self_draw", "9s",
     {"shazhuhu": 13, "caishen_suit": 8, "caishen_honour": 3, "zimo": 1}, False),
]


@pytest.mark.parametrize(("why", "faces", "concealed", "kind", "tile", "expected", "exact"), F9_CASES,
                         ids=[c[0][:60] for c in F9_CASES])
def test_f9_plain_kill_pig_scores_its_value_alone(why: str, faces: str, concealed: str, kind: str,
                                                  tile: str | None, expected: dict[str, int], exact: bool) -> None:
    got = items_of(_kill_pig(faces, concealed, kind, tile), 1)
    if exact:
        assert got == expected, why
    else:
        assert {k: got.get(k) for k in expected} == expected, (why, got)
