"""docs/rules/README.md#decisions "Amendments of 2026-12-03" that concern scoring: E-1 (台炮 two bare 財神 as the winner's pair) and
E-2 (台灣 五暗刻 needs 自摸).  Each case cites its amendment; expected values come from docs/rules/, never the code.
The flow amendments (E-3, E-4, E-5, E-8, E-9) are in tests/engine/test_flow_indicators_reserve_miji.py,
E-6 and E-7 in tests/app."""

from __future__ import annotations

from typing import Any

import pytest
from taipao_situations import hand
from taiwan_situations import tw

from engine.scoring import Situation, WinKind, score
from engine.tiles import parse_tiles

FILL = "1122334455667788m"  # a 台炮 seat with B = 0 under 財神 9p 9s


def taipao(concealed: str, *, winner: int, dealer: int = 0, kind: str = "self_draw") -> Situation:
    seats = tuple(hand(concealed) if i == winner else hand(FILL) for i in range(4))
    return Situation("taipao", seats, dealer, (winner,), win_kind=WinKind(kind),
                     discarder=None if kind == "self_draw" else (winner + 1) % 4,
                     wildcards=tuple(parse_tiles("9p 9s")), options={})


def items_of(res: Any, seat: int) -> dict[str, int]:
    return {i.key: i.value for i in res.seats[seat].items}


def paid(res: Any) -> dict[int, int]:
    """What each payer paid the winner."""
    return {p.payer: p.points for p in res.payments}


# --- E-1: 台炮, a pair of two bare 財神 may stand for the winner's own wind ----------------------------

E1_CASES = [
    # (why, concealed, winner, items expected to include / exclude, T, payments by payer)
    ("docs/rules/taipao.md#bare-caishen E-1: the issue's case: 南 self-draws 123456789m 123m 555z with 9p 9s as its pair: 財神 4 + 中 1 + "
     "門風對 1 + 自摸 1 + 混一色 7 = 14, W = 28", "123456789m 123m 555z 9p 9s", 1,
     {"caishen_suit": 4, "pung_special": 1, "wind_pair": 1, "zimo": 1, "hunyise": 7}, 14, {0: 56, 2: 28, 3: 28}),
    ("docs/rules/taipao.md#bare-caishen E-1: the same hand for 西 (seat 2): its own wind is 西", "123456789m 123m 555z 9p 9s", 2,
     {"wind_pair": 1, "hunyise": 7}, 14, None),
    ("docs/rules/taipao.md#bare-caishen E-1 / D-3: an own-wind tile plus one 財神 already scored it (two 財神 must not score less)",
     "123456789m 123m 555z 南 9p", 1, {"wind_pair": 1}, None, None),
]


@pytest.mark.parametrize(("why", "concealed", "winner", "expected", "total", "payments"), E1_CASES,
                         ids=[c[0][:70] for c in E1_CASES])
def test_e1_two_bare_caishen_pair_may_be_the_own_wind(why: str, concealed: str, winner: int,
                                                       expected: dict[str, int], total: int | None,
                                                       payments: dict[int, int] | None) -> None:
    res = score(taipao(concealed, winner=winner))
    got = items_of(res, winner)
    assert {k: got.get(k) for k in expected} == expected, why
    if total is not None:
        assert sum(got.values()) == total, why
    if payments is not None:
        assert paid(res) == payments, why


def test_e1_near_miss_a_non_winners_bare_caishen_take_no_face() -> None:
    """docs/rules/taipao.md#bare-caishen E-1: "a non-winner's bare 財神 take no face (no pair, no pung)": 西 holding 9p 9s and no 西 gets
    only its 財神 (2 + 2), no 門風對."""
    seats = tuple(hand("123456789m 123m 555z 9p 9s") if i == 1
                  else hand("9p 9s 11223344556677m") if i == 2 else hand(FILL) for i in range(4))
    res = score(Situation("taipao", seats, 0, (1,), win_kind=WinKind.SELF_DRAW,
                          wildcards=tuple(parse_tiles("9p 9s")), options={}))
    assert items_of(res, 2) == {"caishen_suit": 4}


def test_e1_near_miss_three_bare_caishen_stay_caishen_hui() -> None:
    """docs/rules/taipao.md#bare-caishen E-1 / D-2: only the three-財神 set of 財神匯 takes no face: 9p 9p 9s with 中中 as the pair is no
    pung of 中 (no extra 中 +1 beyond the natural 中 pung's)."""
    got = items_of(score(taipao("123456789m 555z 66z 9p 9p 9s", winner=1)), 1)
    assert got.get("pung_special") == 1  # 555z only: the 財神 set is not a 發 or 南 pung


# --- E-2: 台灣 五暗刻 needs 自摸 -------------------------------------------------------------------------

FIVE = "222m555m888p333s777s9s"  # five concealed pungs, waiting on 9s (單吊)

E2_CASES = [
    ("docs/rules/taiwan.md#tai-table E-2: five concealed pungs won on a discard (單吊 on the pair) score 四暗刻, not 五暗刻",
     dict(concealed=FIVE + "9s", tile_="9s"),
     {"five_concealed_pungs": None, "four_concealed_pungs": 4, "all_pungs": 4, "concealed": 1}),
    ("docs/rules/taiwan.md#tai-table E-2: the same hand self-drawn scores 五暗刻 16 (seed 003:L148 需自摸)",
     dict(concealed=FIVE + "9s", tile_="9s", kind="self_draw"),
     {"five_concealed_pungs": 16, "four_concealed_pungs": None, "all_pungs": 4}),
]


@pytest.mark.parametrize(("why", "spec", "expected"), E2_CASES, ids=[c[0][:70] for c in E2_CASES])
def test_e2_five_concealed_pungs_need_self_draw(why: str, spec: dict[str, Any],
                                                 expected: dict[str, int | None]) -> None:
    s = tw(**spec)
    got = {i.key: i.value for i in score(s).seats[s.winners[0]].items}
    assert {k: got.get(k) for k in expected} == expected, why


# --- E-3: D-10's "全求人 … 搶槓 qualifies" is struck: it cannot occur -----------------------------------

EXPOSED = ("chow 123m@0", "chow 456m@0", "pong 777p@3", "pong 222s@0", "chow 345s@0")  # 全求人: 單吊 on 9s

E3_CASES = [
    ("docs/rules/taiwan.md#tai-table E-3: 全求人 on a discard scores 2 (D-10)", dict(kind="discard"), {"all_exposed": 2}),
    ("docs/rules/taiwan.md#tai-table E-3: a robbed kong of the 單吊 tile would be a fifth copy: it cannot occur",
     dict(kind="rob_kong", others={2: ("123456789m1234p", ("pong 999s@0",), "", None)}), None),
]


@pytest.mark.parametrize(("why", "spec", "expected"), E3_CASES, ids=[c[0][:70] for c in E3_CASES])
def test_e3_all_exposed_cannot_win_by_robbing_a_kong(why: str, spec: dict[str, Any],
                                                      expected: dict[str, int] | None) -> None:
    if expected is None:
        with pytest.raises(ValueError, match="5 copies of 9s"):
            tw("9s9s", tile_="9s", melds=EXPOSED, **spec)
        return
    s = tw("9s9s", tile_="9s", melds=EXPOSED, **spec)
    got = {i.key: i.value for i in score(s).seats[s.winners[0]].items}
    assert got == expected, why
