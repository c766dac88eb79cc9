"""台炮 scoring items, one row of docs/rules/taipao.md#scoring at a time: where it scores and a near miss.

Seats: dealer 0 unless said otherwise, so seat 0 東, 1 南, 2 西, 3 北 (docs/rules/taipao.md#seat-winds).  Unless a test says
otherwise the 財神 faces are 9p and 9s (two-face mode) and the other seats hold 16 plain tiles.  Expected
values come from the tables of docs/rules/taipao.md#scoring and seed 002 (lines cited as `seed 002:Lx`), never from the code.
"""

from __future__ import annotations

from typing import Any

import pytest
from taipao_situations import hand

from engine.scoring import KongKind, SeatHand, Situation, WinKind, score
from engine.tiles import format_tiles, parse_tiles, tile

FILL = "1122334455667788m"  # B = 0 for any seat under 財神 9p 9s
JUNK = "13579m 2468p 1357s"  # 13 tiles that are no win


def padded(prefix: str, n: int = 16) -> str:
    """``prefix`` topped up to ``n`` tiles from FILL."""
    return prefix + " " + format_tiles(parse_tiles(FILL)[: n - len(parse_tiles(prefix))])


def situation(
    seats: dict[int, SeatHand], *, winner: int | None = 1, kind: str = "self_draw", dealer: int = 0,
    wild: str = "9p9s", discarder: int | None = None, options: dict[str, Any] | None = None, **kw: Any,
) -> Situation:
    full = tuple(seats.get(i, hand(FILL)) for i in range(4))
    wk = WinKind(kind) if winner is not None else None
    if discarder is None and wk in (WinKind.DISCARD, WinKind.ROB_KONG):
        discarder = (winner + 1) % 4  # type: ignore[operator]
    return Situation(
        "taipao", full, dealer, () if winner is None else (winner,), win_kind=wk, discarder=discarder,
        wildcards=tuple(parse_tiles(wild)), options=options or {}, **kw,
    )


def items(res: Any, seat: int) -> dict[str, int]:
    return {i.key: i.value for i in res.seats[seat].items}


def win_items(concealed: str, *melds: str, flowers: str = "", seat: int = 1, **kw: Any) -> dict[str, int]:
    res = score(situation({seat: hand(concealed, *melds, flowers=flowers)}, winner=seat, **kw))
    return items(res, seat)


def base_of(concealed: str, *melds: str, flowers: str = "", seat: int = 2, **kw: Any) -> dict[str, int]:
    """Items of a non-winner at ``seat`` (a plain hand wins at seat 1, or nobody wins when seat == 1)."""
    winner = 0 if seat == 1 else 1
    seats = {seat: hand(concealed, *melds, flowers=flowers), winner: hand(PINGHU)}
    return items(score(situation(seats, winner=winner, **kw)), seat)


PINGHU = "123m 456m 789m 234p 567s 11p"  # all chows, no 財神, no flower


# --- B: 財神 per face (docs/rules/taipao.md#caishen-tai; seed 002:L7; B-4, B-5) ------------------------------------------


# From 3 財神 on, a non-winner also makes a pung of 西/中/發 out of three 財神 (B-20, see below).


@pytest.mark.parametrize(("n", "value"), [(1, 2), (2, 5), (3, 8), (4, 11)])
def test_caishen_suit_face_per_count_seed_L7(n: int, value: int) -> None:
    assert base_of(padded("9p" * n))["caishen_suit"] == value


@pytest.mark.parametrize(("n", "value"), [(1, 3), (2, 7), (3, 11), (4, 15)])
def test_caishen_honour_face_per_count_seed_L7(n: int, value: int) -> None:
    got = base_of(padded("東" * n), seat=2, wild="1z9s")  # seat 2 is 西: 東 is not its wind
    assert got["caishen_honour"] == value


def test_caishen_flower_face_counts_as_honour_row() -> None:
    """A flower 財神 stays in the hand (docs/rules/taipao.md#bonus-tiles) and is valued 3 [seed 002:L7]."""
    assert base_of("3f 112233445566778m", wild="3f9s") == {"caishen_honour": 3}


def test_caishen_two_faces_add_per_face_B4() -> None:
    """9p×2 and 9s×1: 5 + 2, not the 3-tile value 8."""
    assert base_of("9p9p9s 1122334455667m")["caishen_suit"] == 7


@pytest.mark.parametrize(("n", "value"), [(1, 7), (2, 15), (3, 23), (4, 31)])
def test_caishen_same_face_mode_B5(n: int, value: int) -> None:
    assert base_of(padded("9s" * n), wild="9s")["caishen_same"] == value


def test_caishen_near_miss_no_copy_held() -> None:
    assert base_of(FILL) == {}


# --- B: flowers and 白板 (seed 002:L8; docs/rules/taipao.md#bonus-tiles; B-7, B-25) --------------------------------------


@pytest.mark.parametrize(("flowers", "value"), [
    ("1f", 1), ("1f2f", 3), ("1f2f3f", 5), ("1f2f3f4f", 10), ("5f6f7f8f", 10), ("1f5f6f", 1 + 3),
])
def test_flowers_per_group_seed_L8(flowers: str, value: int) -> None:
    assert base_of(FILL, flowers=flowers) == {"flowers": value}


def test_flowers_near_miss_two_groups_are_not_one() -> None:
    """春 + 梅 are one tile in each group: 1 + 1, not the 2-tile value 3."""
    assert base_of(FILL, flowers="1f5f") == {"flowers": 2}


@pytest.mark.parametrize(("n", "value"), [(1, 1), (2, 3), (3, 5), (4, 10)])
def test_white_as_its_own_group_B7(n: int, value: int) -> None:
    assert base_of(FILL, flowers="7z" * n) == {"white": value}


def test_white_near_miss_separate_from_flowers() -> None:
    """白 + 春 are two groups of one: 1 + 1 (not one group of two = 3)."""
    assert base_of(FILL, flowers="1f7z") == {"flowers": 1, "white": 1}


def test_white_near_miss_when_white_is_caishen_it_is_a_caishen() -> None:
    assert base_of("白 112233445566778m", wild="7z9s") == {"caishen_honour": 3}
    with pytest.raises(ValueError, match="bonus tile"):
        base_of(FILL, flowers="7z", wild="7z9s")


# --- B: kongs and pungs (seed 002:L9-L16; B-6) ------------------------------------------------------


@pytest.mark.parametrize(("spec", "key", "value"), [
    ("kong 2m", "kong", 3), ("kong+ 2m", "kong", 3), ("akong 2m", "akong", 4),
    ("kong 1z", "kong", 3),  # 東 is not seat 2's wind (西)
    ("kong 3z", "kong_special", 4), ("akong 3z", "akong_special", 5),
    ("kong 中", "kong_special", 4), ("akong 發", "akong_special", 5),
])
def test_kong_values_seed_L9_L14_L16(spec: str, key: str, value: int) -> None:
    got = base_of("1122334455667m", spec, seat=2)
    assert got == {key: value}  # near miss built in: a special kong gets no extra pung +1


def test_kong_near_miss_two_kongs_add() -> None:
    assert base_of("1122334455m", "kong 2p", "akong 2s", seat=2) == {"kong": 3, "akong": 4}


@pytest.mark.parametrize("tiles", ["西西西", "中中中", "發發發"])
def test_pung_of_own_wind_or_dragon_concealed_seed_L10(tiles: str) -> None:
    assert base_of(tiles + " 1122334455667m", seat=2) == {"pung_special": 1}


def test_pung_exposed_counts_seed_L10() -> None:
    assert base_of("1122334455667m", "pong 西", seat=2) == {"pung_special": 1}


@pytest.mark.parametrize("tiles", ["東東東", "南南南", "北北北"])
def test_pung_near_miss_other_winds_score_0_seed_L12(tiles: str) -> None:
    assert base_of(tiles + " 1122334455667m", seat=2) == {}


def test_d3_own_wind_pair_scores_1_for_a_non_winner_seed_L12() -> None:
    """D-3: "每个自家门风对…加一台": seat 2's 西西 pair +1; its 中中 pair (no 財神) still scores 0."""
    assert base_of("西西中中 112233445566m", seat=2) == {"wind_pair": 1}


def test_d3_near_miss_other_wind_and_dragon_pairs_score_0() -> None:
    assert base_of("東東中中 112233445566m", seat=2) == {}


def test_d3_own_wind_pair_scores_1_for_the_winner() -> None:
    """D-3 for the winner: seat 1 (南) wins with 南南 as the pair; a 中中 pair in its place scores nothing."""
    assert win_items("123m 456m 789m 234p 567s 南南", kind="discard")["wind_pair"] == 1
    assert "wind_pair" not in win_items("123m 456m 789m 234p 567s 中中", kind="discard")


def test_d3_own_wind_single_and_a_caishen_make_the_pair() -> None:
    """D-3 with B-20: a non-winner's own-wind single and one 財神 are that pair (+1)."""
    assert base_of("西 9p 11223344556677m", seat=2) == {"caishen_suit": 2, "wind_pair": 1}


def test_undeclared_four_of_a_kind_counts_as_one_pung_seed_L14() -> None:
    """四張 中 never declared: a 刻 (+1), not a kong (no 3/4/5)."""
    assert base_of("中中中中 112233445566m", seat=2) == {"pung_special": 1}


# --- B-20: non-winners place their 財神 freely ------------------------------------------------------


def test_nonwinner_pair_plus_caishen_is_a_pung_B20() -> None:
    got = base_of("中中 9p 1122334455667m", seat=2)
    assert got == {"caishen_suit": 2, "pung_special": 1}


def test_nonwinner_single_plus_two_caishen_is_a_pung_B20() -> None:
    got = base_of("中 9p9s 1122334455667m", seat=2)
    assert got == {"caishen_suit": 4, "pung_special": 1}


def test_nonwinner_caishen_each_used_once_B20() -> None:
    """Pairs of 中, 發 and one 財神: one pung, not two; 財神台 counts the 財神."""
    got = base_of("中中發發 9p 11223344556m", seat=2)
    assert got == {"caishen_suit": 2, "pung_special": 1}
    # with 西西 (own wind) too and two 財神: the pair scores by itself (D-3), the 財神 make 中 and 發 pungs
    got = base_of("西西中中發發 9p9p 11223344m", seat=2)
    assert got == {"caishen_suit": 5, "pung_special": 2, "wind_pair": 1}


def test_d2_nonwinner_three_caishen_alone_make_no_pung() -> None:
    """D-2: three bare 財神 make no pung of the own wind / 中 / 發 for a non-winner."""
    assert base_of(padded("9p9p9p"), seat=2) == {"caishen_suit": 8}


def test_d2_near_miss_one_natural_tile_and_two_caishen_make_the_pung() -> None:
    assert base_of(padded("中 9p9p"), seat=2) == {"caishen_suit": 5, "pung_special": 1}


def test_nonwinner_near_miss_single_with_one_caishen_B20() -> None:
    got = base_of("中 發 9p 1122334455667m", seat=2)
    assert got == {"caishen_suit": 2}


# --- X: 自摸, 天胡, 地胡, 硬牌 (seed 002:L18-L21) --------------------------------------------------


@pytest.mark.parametrize("kind", ["self_draw", "flower_replacement"])
def test_zimo_seed_L18(kind: str) -> None:
    assert win_items(PINGHU, kind=kind)["zimo"] == 1


@pytest.mark.parametrize("kind", ["discard", "rob_kong", "split_deal"])
def test_zimo_near_miss(kind: str) -> None:
    assert "zimo" not in win_items(PINGHU, kind=kind)


def test_tianhu_seed_L19() -> None:
    assert win_items(PINGHU, seat=0, heavenly=True)["tianhu"] == 13
    assert "tianhu" not in win_items(PINGHU, seat=0)


def test_dihu_seed_L20() -> None:
    assert win_items(PINGHU, kind="discard", discarder=0, earthly=True)["dihu"] == 13
    assert "dihu" not in win_items(PINGHU, kind="discard", discarder=0)


def test_yingpai_seed_L21_B11() -> None:
    assert win_items(PINGHU)["yingpai"] == 7


def test_yingpai_near_miss_caishen_as_its_own_face_B11() -> None:
    """9p used as a plain 9p (789p) still is a 財神 held."""
    got = win_items("123m 456m 789m 78p 9p 567s 11p")
    assert "yingpai" not in got and got["caishen_suit"] == 2


# --- X: 平胡 (seed 002:L22; B-10) ---------------------------------------------------------------------


def test_pinghu_seed_L22() -> None:
    assert win_items(PINGHU)["pinghu"] == 13


def test_pinghu_with_exposed_chow_B10() -> None:
    assert win_items("123m 456m 789m 234p 11p", "chow 567s")["pinghu"] == 13


@pytest.mark.parametrize(("concealed", "melds", "flowers"), [
    ("123m 456m 789m 234p 555s 11p", (), ""),  # a pung
    ("123m 456m 789m 234p 11p", ("kong 5s",), ""),  # a kong
    (PINGHU, (), "1f"),  # a flower collected
    (PINGHU, (), "7z"),  # a 白板 collected
    ("123m 456m 789m 234p 56s 9s 11p", (), ""),  # a 財神 held (as 7s or 4s)
])
def test_pinghu_near_misses_B10(concealed: str, melds: tuple[str, ...], flowers: str) -> None:
    assert "pinghu" not in win_items(concealed, *melds, flowers=flowers)


def test_pinghu_maximisation_prefers_the_chow_split_S0() -> None:
    """111222333m is three pungs or three chows; the chow reading scores 平胡 (docs/rules/common.md#best-reading, seed 002:L72)."""
    assert win_items("111222333m 456p 678p 55s")["pinghu"] == 13


# --- X: 绿一色, 清一色, 混一色, 对对和 (seed 002:L23-L26; B-13) -----------------------------------------


GREEN = "22s 234s 234s 666s 888s 發發發"


def test_lvyise_replaces_hunyise_seed_L23_B13() -> None:
    got = win_items(GREEN)
    assert got["lvyise"] == 26 and "hunyise" not in got and "qingyise" not in got


def test_lvyise_replaces_qingyise_B13() -> None:
    got = win_items("234s 234s 234s 234s 666s 88s")
    assert got["lvyise"] == 26 and "qingyise" not in got


def test_lvyise_with_caishen_standing_for_green_B13() -> None:
    got = win_items("22s 234s 234s 666s 88s 9p 發發發")
    assert got["lvyise"] == 26


def test_lvyise_near_miss_one_non_green_tile() -> None:
    got = win_items("22s 234s 234s 666s 789s 發發發")
    assert "lvyise" not in got and got["hunyise"] == 7


QING = "123m 123m 456m 678m 789m 55m"


def test_qingyise_seed_L24() -> None:
    got = win_items(QING)
    assert got["qingyise"] == 13 and "hunyise" not in got


def test_qingyise_with_caishen_standing_in() -> None:
    """The 財神 takes the face it replaces for the pattern test (docs/rules/taipao.md#caishen-use)."""
    assert win_items("123m 123m 456m 678m 789m 5m 9s")["qingyise"] == 13


def test_d5_all_honours_counts_as_qingyise() -> None:
    """D-5: an all-honours hand is harder than either 一色 hand, so it scores 清一色 (and not 混一色)."""
    got = win_items("東東東 南南南 西西西 北北北 中中中 發發", kind="discard")
    assert got["qingyise"] == 13 and "hunyise" not in got


def test_qingyise_near_miss_honour_pair_gives_hunyise_seed_L25() -> None:
    got = win_items("123m 123m 456m 678m 789m 東東")
    assert "qingyise" not in got and got["hunyise"] == 7


def test_hunyise_near_miss_two_suits() -> None:
    got = win_items("123m 123m 456m 678m 東東東 55p")
    assert "hunyise" not in got and "qingyise" not in got


def test_duiduihe_seed_L26() -> None:
    assert win_items("111m 222p 333s 444m 東東東 55p")["duiduihe"] == 7


def test_duiduihe_with_exposed_pung_and_kong() -> None:
    assert win_items("111m 222p 333s 55p", "pong 東", "kong 4m")["duiduihe"] == 7


def test_duiduihe_near_miss_one_chow() -> None:
    assert "duiduihe" not in win_items("123m 222p 333s 444m 東東東 55p")


# --- X: 四风会齐 (seed 002:L27; B-14) ------------------------------------------------------------------


def test_sifeng_three_wind_pungs_and_fourth_pair_B14() -> None:
    assert win_items("東東東 南南南 西西西 北北 123m 456m")["sifeng"] == 13


def test_sifeng_four_wind_pungs_B14() -> None:
    assert win_items("東東東 南南南 西西西 11m 123m", "pong 北")["sifeng"] == 13


def test_sifeng_caishen_stands_in_for_a_wind_B14() -> None:
    assert win_items("東東東 南南南 西西 9s 北北 123m 456m")["sifeng"] == 13


def test_sifeng_two_caishen_alone_are_the_fourth_wind_pair_B14() -> None:
    assert win_items("東東東 南南南 西西西 123m 456m 9p9s")["sifeng"] == 13


def test_sifeng_near_miss_three_wind_pungs_other_pair() -> None:
    assert "sifeng" not in win_items("東東東 南南南 西西西 11m 123m 456m")


def test_sifeng_near_miss_two_pungs_and_pairs() -> None:
    assert "sifeng" not in win_items("東東東 南南南 西西 123m 456m 789m")


# --- X: 杠上开花, 抢杠胡 (seed 002:L28-L29; B-8, B-9) --------------------------------------------------

KONG_REST = "456m 789m 234p 567s 11p"


@pytest.mark.parametrize(("spec", "kong_kind", "value"), [
    ("kong 2m", "kong", 7), ("kong+ 2m", "added", 7), ("akong 2m", "akong", 8),
])
def test_gangkai_seed_L28(spec: str, kong_kind: str, value: int) -> None:
    key = "gangkai_concealed" if kong_kind == "akong" else "gangkai"
    got = win_items(KONG_REST, spec, kind="kong_replacement", kong_kind=KongKind(kong_kind), kong_tile=tile("2m"))
    assert got[key] == value and got["zimo"] == 1  # B-24: 自摸 stacks
    assert "gangkai_special" not in got  # near miss: 2m is not 中/發/own wind


@pytest.mark.parametrize(("spec", "kong_kind", "kt"), [
    ("kong 中", "kong", "中"), ("akong 發", "akong", "發"), ("kong+ 南", "added", "南"),
])
def test_gangkai_special_kong_tile_B8(spec: str, kong_kind: str, kt: str) -> None:
    got = win_items(KONG_REST, spec, kind="kong_replacement", kong_kind=KongKind(kong_kind), kong_tile=tile(kt))
    assert got["gangkai_special"] == 1


def test_gangkai_special_near_miss_other_players_wind() -> None:
    got = win_items(KONG_REST, "kong 東", kind="kong_replacement", kong_kind=KongKind.EXPOSED,
                    kong_tile=tile("東"))
    assert "gangkai_special" not in got and got["gangkai"] == 7


def test_gangkai_near_miss_flower_replacement_B9() -> None:
    got = win_items(PINGHU, flowers="2f", kind="flower_replacement")
    assert not {"gangkai", "gangkai_concealed", "gangkai_special"} & set(got) and got["zimo"] == 1


def test_qianggang_seed_L29() -> None:
    got = win_items(PINGHU, kind="rob_kong")
    assert got["qianggang"] == 3 and "zimo" not in got


def test_qianggang_near_miss_discard() -> None:
    assert "qianggang" not in win_items(PINGHU, kind="discard")


# --- X: 财神汇 (seed 002:L30) --------------------------------------------------------------------------


def test_caishenhui_three_caishen_form_a_set_seed_L30() -> None:
    got = win_items("123m 456m 789m 234p 11p 9p 9s9s")
    assert got["caishenhui"] == 7


def test_caishenhui_near_miss_caishen_needed_one_by_one() -> None:
    """13m 46m 79m each need their own 財神: no set of three 財神 alone."""
    got = win_items("13m 46m 79m 234p 567s 11p 9p 9s9s")
    assert "caishenhui" not in got


def test_d2_caishenhui_set_takes_no_face() -> None:
    """D-2: the three 財神 of 财神汇 stand for nothing, so they are no 南南南 pung (seat 1's wind) as well."""
    got = win_items("123m 456m 789m 234p 11p 9p 9s9s")
    assert got["caishenhui"] == 7 and "pung_special" not in got


def test_d2_near_miss_own_wind_tile_with_two_caishen_is_a_pung_not_caishenhui() -> None:
    """D-2 near miss: 南 + 9p 9s is a 南 pung (+1) completed with 財神, and no 财神汇."""
    got = win_items("123m 456m 789m 234p 11p 南 9p9s")
    assert got["pung_special"] == 1 and "caishenhui" not in got


def test_caishen_never_makes_a_fifth_copy_of_an_honour() -> None:
    """南 中 發 are natural pungs already: the 財神 set cannot be a second one (6 copies)."""
    got = win_items("南南南 中中中 發發發 123m 11m 9p9s9s")
    assert got["pung_special"] == 3 and got["caishenhui"] == 7


# --- X: 杀猪胡 and plain 杀猪 (seed 002:L31-L32; docs/rules/taipao.md#kill-pig; B-12) -----------------------------------


@pytest.mark.parametrize(("concealed", "wild", "value"), [
    ("123m 456m 789m 234p 5s 9p9p9p 9s", "9p9s", 13),  # 3 + 1
    ("123m 456m 789m 234p 9p9p9p 9s9s", "9p9s", 30),  # 3 + 2
    ("123m 456m 789m 23p 9p9p9p 9s9s9s", "9p9s", 100),  # 3 + 3
    ("123m 456m 789m 234p 567p 9s9s", "9s", 13),  # same-face 2
    ("123m 456m 789m 234p 56p 9s9s9s", "9s", 30),  # same-face 3
    ("123m 456m 789m 234p 5p 9s9s9s9s", "9s", 100),  # same-face 4
])
def test_shazhuhu_levels_seed_L31(concealed: str, wild: str, value: int) -> None:
    assert win_items(concealed, wild=wild)["shazhuhu"] == value


def test_shazhuhu_near_miss_two_plus_two() -> None:
    """Two-face 2 + 2: four 財神 but not 3 of one face."""
    assert "shazhuhu" not in win_items("123m 456m 789m 234p 5p 9p9p 9s9s")


def test_shazhu_plain_any_shape_value_only_B12() -> None:
    res = score(situation({1: hand("9p9p9p 9s " + JUNK)}, kind="kill_pig"))
    assert items(res, 1) == {"shazhu": 13}
    assert res.seats[1].totals == {"base": 0, "bonus": 13, "total": 13, "score": 26}


def test_shazhu_plain_near_miss_not_qualifying() -> None:
    with pytest.raises(ValueError, match="杀猪"):
        score(situation({1: hand("9p9p 9s9s " + JUNK)}, kind="kill_pig"))


# --- X: 分牌 (seed 002:L68; B-15) -----------------------------------------------------------------------


def test_fenpai_plus_3_not_zimo_seed_L68() -> None:
    got = win_items(PINGHU, kind="split_deal")
    assert got["fenpai"] == 3 and "zimo" not in got


def test_fenpai_near_miss_normal_self_draw() -> None:
    assert "fenpai" not in win_items(PINGHU)


# --- totals: 13-台 doubling (seed 002:L58; B-2) ----------------------------------------------------------


def test_doubling_at_13_seed_L58() -> None:
    """平胡 13 + 硬牌 7 on a discard: T = 20 ≥ 13 → W = 40."""
    res = score(situation({1: hand(PINGHU)}, kind="discard"))
    assert res.seats[1].totals == {"base": 0, "bonus": 20, "total": 20, "score": 40}


def test_doubling_near_miss_12_is_not_doubled() -> None:
    """B = 財神 9s (2) + 明槓 發 (4) + 明槓 南 (own wind, 4) + flowers 2f, 6f (1 + 1) = 12; X = 0."""
    res = score(situation({1: hand("123m 456m 78m 9s 11p", "kong 發", "kong 南", flowers="2f6f")},
                          kind="discard"))
    assert res.seats[1].totals == {"base": 12, "bonus": 0, "total": 12, "score": 12}


def test_threshold_and_factor_are_options() -> None:
    res = score(situation({1: hand("123m 456m 78m 9s 11p", "kong 發", "kong 南", flowers="2f6f")},
                          kind="discard", options={"double_threshold": 12, "double_factor": 3}))
    assert res.seats[1].totals["score"] == 36


# --- options and errors (docs/rules/timing.md#room-options) --------------------------------------------------------------------------


def test_item_value_option_overrides_and_zero_switches_off() -> None:
    got = win_items(PINGHU, options={"pinghu": 10, "yingpai": 0})
    assert got["pinghu"] == 10 and "yingpai" not in got


def test_table_option_overrides() -> None:
    assert base_of(FILL, flowers="1f2f", options={"flowers": [2, 4, 6, 8]}) == {"flowers": 4}


@pytest.mark.parametrize("options", [
    {"pinghu": "13"}, {"pinghu": True}, {"pinghu": -1}, {"flowers": [1, 2]}, {"double_factor": 0},
    {"sifeng_baopei": 1}, {"eight_flowers": "yes"}, {"no_such_item": 1},
])
def test_invalid_options_raise(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="option"):
        score(situation({1: hand(PINGHU)}, options=options))


def test_play_options_are_accepted() -> None:
    assert win_items(PINGHU, options={"claim_seconds": 10.0})["pinghu"] == 13


@pytest.mark.parametrize(("seats", "kw", "message"), [
    ({1: hand("123m 456m 789m 234p 567s 12p")}, {}, "winning hand"),
    ({1: hand("123m 456m 789m 234p 11p")}, {}, "holds 14 tiles"),
    ({1: hand(PINGHU), 2: hand("1122334455667m")}, {}, "holds 13 tiles"),
    ({1: hand("123m 456m 789m 234p 11p", "pong 9p")}, {}, "財神"),
    ({1: hand("123m 456m 789m 234p 567s 1p 白")}, {}, "bonus tile"),
    ({1: hand(PINGHU, flowers="1m")}, {}, "bonus tile"),
    ({1: hand(PINGHU)}, {"winners": (1, 2)}, "single winner"),
    ({1: hand(PINGHU)}, {"kind": "kong_replacement", "kong_kind": KongKind.EXPOSED}, "kong"),
    ({1: hand(PINGHU)}, {"kind": "kong_replacement"}, "kong_kind"),
    ({1: hand(PINGHU)}, {"heavenly": True}, "天胡"),
    ({0: hand(PINGHU)}, {"winner": 0, "earthly": True, "kind": "discard"}, "地胡"),
    ({1: hand(PINGHU)}, {"kind": "discard", "discarder": 1}, "discarder"),
    ({1: hand(PINGHU)}, {"kind": "seven_rob_one"}, "not a 台炮 win"),
    ({1: hand(PINGHU)}, {"kind": "eight_flowers"}, "eight_flowers"),
])
def test_impossible_situations_raise(seats: dict[int, SeatHand], kw: dict[str, Any], message: str) -> None:
    winners = kw.pop("winners", None)
    sit = situation(seats, **kw)
    if winners is not None:
        sit = Situation(sit.variant, sit.seats, sit.dealer, winners, win_kind=sit.win_kind,
                        wildcards=sit.wildcards)
    with pytest.raises(ValueError, match=message):
        score(sit)


def test_wrong_variant_raises() -> None:
    from engine.scoring.taipao import score as taipao_score

    sit = situation({1: hand(PINGHU)})
    with pytest.raises(ValueError, match="taipao|台炮"):
        taipao_score(Situation("taiwan", sit.seats, 0, (1,), win_kind=WinKind.SELF_DRAW))


def test_shazhuhu_values_follow_the_shazhu_option() -> None:
    got = win_items("123m 456m 789m 234p 5s 9p9p9p 9s", options={"shazhu": [20, 40, 80]})
    assert got["shazhuhu"] == 20


def test_items_carry_chinese_names_and_totals_json() -> None:
    """SeatScore items list the Chinese names; totals hold base/bonus/total/score for the winner."""
    res = score(situation({1: hand("南南南 123m 456m 23p 9p 55s", "kong 中", flowers="2f")}, kind="discard"))
    names = {i.name for i in res.seats[1].items}
    assert {"財神(數牌)", "花", "明槓(門風/中/發)", "刻子(門風/中/發)"} <= names
    data = res.to_json()
    first = data["seats"][1]["items"][0]
    assert first["key"] == "caishen_suit" and first["name"] == "財神(數牌)"
    assert first["names"] == {"zh_hant": "財神(數牌)", "zh_hans": "财神(数牌)", "en": "Wild tiles, suit face"}
    # B = 財神 2 + 花 1 + 明槓 中 4 + 南 pung 1 = 8; X = 0; T = 8 → W = 8
    assert data["seats"][1]["totals"] == {"base": 8, "bonus": 0, "total": 8, "score": 8}
    assert data["seats"][0]["totals"] == {"base": 0, "total": 0}
    assert sum(data["net"]) == 0
