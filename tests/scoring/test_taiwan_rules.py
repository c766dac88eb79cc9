"""台灣 台 items, one row of docs/rules/taiwan.md#tai-table at a time (seed 003), each with a near miss.

Default table: dealer 0, open_seat 0 (so seat 0 東, 1 南, 2 西, 3 北 under 隨開門), 東風圈, no streak.
The base hand ``PING`` = 123456789m 234p 56s 88s + 7s is a 平胡 (waits 4s/7s).
"""

from __future__ import annotations

import pytest
from taiwan_situations import tw

from engine.scoring import KongKind, Situation, score
from engine.tiles import tile


def items(s: Situation) -> dict[str, int]:
    return {i.key: i.value for i in score(s).seats[s.winners[0]].items}


def tai(s: Situation) -> int:
    return score(s).seats[s.winners[0]].totals["tai"]


def test_base_hand() -> None:
    """PING on a discard: 門清 1 + 平胡 2."""
    assert items(tw()) == {"concealed": 1, "pinghu": 2}


CASES = [
    # 自摸 / 門清 / 門清自摸 [seed 003:L15-25, L99-103]
    ("自摸 1 (not 門清: a chow)", dict(concealed="123456789m56788s", melds=("chow 234p@0",), kind="self_draw"),
     "self_draw", 1),
    ("near miss: no 自摸 on a discard", dict(), "self_draw", None),
    ("門清 1 on a discard (L21-25)", dict(), "concealed", 1),
    ("near miss: a pong breaks 門清", dict(concealed="123456789m56788s", melds=("pong 222p@3",), tile_="7s"),
     "concealed", None),
    ("門清 with 暗槓 (C-18)", dict(concealed="123456789m56788s", melds=("akong 2222p",)), "concealed", 1),
    ("門清自摸 3", dict(kind="self_draw"), "concealed_self_draw", 3),
    ("門清自摸 replaces 門清", dict(kind="self_draw"), "concealed", None),
    ("門清自摸 replaces 自摸", dict(kind="self_draw"), "self_draw", None),
    # 風牌 [seed 003:L27-31]
    ("風牌: 門風 南 for seat 1", dict(concealed="123456m789p45688s222z", tile_="9p"), "wind", 1),
    ("風牌: 圈風 東", dict(concealed="123456m789p45688s111z", tile_="9p"), "wind", 1),
    ("風牌: 東 pung for the 開門 seat in 東風圈 = 2", dict(concealed="123456m789p45688s111z", tile_="9p", open_seat=1),
     "wind", 2),
    ("seed L31: left of 開門 (北) in 西風圈: 北 and 西 pungs 1 each",
     dict(concealed="123456m789p88s333z444z", tile_="9p", open_seat=2, round_wind=2), "wind", 2),
    ("near miss: 西 pung for seat 1 in 東風圈", dict(concealed="123456m789p45688s333z", tile_="9p"), "wind", None),
    ("near miss: 隨開門, not the dealer: seat 1 is 東 only when it opens",
     dict(concealed="123456m789p45688s222z", tile_="9p", open_seat=1), "wind", None),
    # 花牌 / 花槓 [seed 003:L33-35, L92-97]
    ("正花: seat 1 南 ↔ 2f 6f", dict(flowers="26f"), "seat_flower", 2),
    ("正花 follows 開門: seat 1 opens → 東 ↔ 1f 5f", dict(flowers="15f", open_seat=1), "seat_flower", 2),
    ("near miss: 1f 5f for seat 1 when seat 0 opens", dict(flowers="15f"), "seat_flower", None),
    ("花槓 1", dict(flowers="5678f"), "flower_kong", 1),
    ("花槓 and 正花 both count (C-7)", dict(flowers="5678f"), "seat_flower", 1),
    ("near miss: 3 of a set", dict(flowers="567f"), "flower_kong", None),
    # 三元牌 [seed 003:L37-41]
    ("三元牌 1 each", dict(concealed="123456m789p555z666z88s", tile_="3m"), "dragon", 2),
    ("near miss: a dragon pair", dict(concealed="123456789m234p567s55z", tile_="4p"), "dragon", None),
    # 海底 / 槓上開花 / 搶槓 [seed 003:L43-47, L56-66]
    ("海底撈月 1", dict(kind="self_draw", last_tile=True), "last_tile", 1),
    ("海底 adds to 自摸 (門清自摸 here)", dict(kind="self_draw", last_tile=True), "concealed_self_draw", 3),
    ("near miss: last tile on a discard (河底 is off)", dict(last_tile=True), "last_tile", None),
    ("槓上開花 after 暗槓", dict(concealed="123456789m56788s", melds=("akong 2222p",), kind="kong_replacement"),
     "kong_bloom", 1),
    ("槓上開花 after a flower", dict(kind="flower_replacement", flowers="1f"), "kong_bloom", 1),
    ("D-4: no 槓上開花 after a kong claimed on a discard (seed L60)",
     dict(concealed="123456789m56788s", melds=("kong 2222p@3",), kind="kong_replacement",
          kong_kind=KongKind.EXPOSED, kong_tile=tile("2p")), "kong_bloom", None),
    ("D-4 near miss: 槓上開花 after a 加槓 onto an own pong",
     dict(concealed="123456789m56788s", melds=("kong+ 2222p@3",), kind="kong_replacement",
          kong_kind=KongKind.ADDED, kong_tile=tile("2p")), "kong_bloom", 1),
    ("near miss: plain 自摸", dict(kind="self_draw"), "kong_bloom", None),
    ("搶槓 1", dict(kind="rob_kong", discarder=3, others={3: ("111222333444z5z", ("pong 777s@0",), "", None)}),
     "rob_kong", 1),
    ("near miss: a discard", dict(), "rob_kong", None),
    # 平胡 [seed 003:L68-78]
    ("平胡 seed L74: 3455s + 2s", dict(concealed="123456789m456p23455s", tile_="2s"), "pinghu", 2),
    ("平胡 seed L74: 3455s + 5s (chow reading)", dict(concealed="123456789m456p34555s", tile_="5s"), "pinghu", 2),
    ("平胡 seed L75: 45556p + 34s wins 5s", dict(concealed="123456789m45556p345s", tile_="5s"), "pinghu", 2),
    ("平胡 seed L76: 3334s wins 2s", dict(concealed="123456789m456p23334s", tile_="2s"), "pinghu", 2),
    ("平胡 seed L76: 3334s wins 5s", dict(concealed="123456789m456p33345s", tile_="5s"), "pinghu", 2),
    ("平胡 seed L77: 1134567s wins 8s", dict(concealed="123456789m11345678s", tile_="8s"), "pinghu", 2),
    ("平胡 with an exposed chow", dict(concealed="123456789m56788s", melds=("chow 234p@0",)), "pinghu", 2),
    ("near miss seed L73: 2345s + 5s has no pair before", dict(concealed="123456789m456p23455s", tile_="5s"),
     "pinghu", None),
    ("near miss: 3334s wins 4s (a pung)", dict(concealed="123456789m456p33344s", tile_="4s"), "pinghu", None),
    ("near miss: two-sided 45m+6m but 3m is held ×4, so only one wait (L72 聽二洞以上)",
     dict(concealed="12233334456m456789p", tile_="6m"), "pinghu", None),
    ("near miss: self-drawn", dict(kind="self_draw"), "pinghu", None),
    ("near miss: a flower", dict(flowers="3f"), "pinghu", None),
    ("near miss: an honour pair", dict(concealed="123456789m234p567s11z", tile_="7s"), "pinghu", None),
    ("near miss: edge 12+3", dict(concealed="123456789m234p12355s", tile_="3s"), "pinghu", None),
    ("near miss: closed 46+5", dict(concealed="123456789m234p45655s", tile_="5s"), "pinghu", None),
    # 暗刻 [seed 003:L80-84, L131-135, L144-148]
    ("三暗刻 2", dict(concealed="222555m456888p123s99s", tile_="3s"), "three_concealed_pungs", 2),
    ("三暗刻 counts 暗槓", dict(concealed="222555m456p123s99s", melds=("akong 8888p",), tile_="3s"),
     "three_concealed_pungs", 2),
    ("near miss: pung completed by the winning discard", dict(concealed="222555m456888p123s99s", tile_="8p"),
     "three_concealed_pungs", None),
    ("self-drawn, the same pung counts", dict(concealed="222555m456888p123s99s", tile_="8p", kind="self_draw"),
     "three_concealed_pungs", 2),
    ("四暗刻 4", dict(concealed="222555m456888p333s99s", tile_="9s"), "four_concealed_pungs", 4),
    ("四暗刻 replaces 三暗刻", dict(concealed="222555m456888p333s99s", tile_="9s"), "three_concealed_pungs", None),
    ("五暗刻 16 (self-drawn)", dict(concealed="222m555m888p333s777s99s", tile_="7s", kind="self_draw"),
     "five_concealed_pungs", 16),
    ("near miss: on a discard it is 四暗刻", dict(concealed="222m555m888p333s777s99s", tile_="7s"),
     "five_concealed_pungs", None),
    ("五暗刻 stacks with 碰碰胡 (C-15)", dict(concealed="222m555m888p333s777s99s", tile_="7s", kind="self_draw"),
     "all_pungs", 4),
    ("五暗刻 stacks with 門清自摸", dict(concealed="222m555m888p333s777s99s", tile_="7s", kind="self_draw"),
     "concealed_self_draw", 3),
    # 全求人 [seed 003:L86-90]
    ("全求人 2", dict(concealed="88p", tile_="8p", melds=("chow 123m@0", "pong 555p@0", "chow 789s@0", "pong 999m@3",
                                                        "kong 4444s@0")), "all_exposed", 2),
    ("near miss: self-drawn (L90)", dict(concealed="88p", tile_="8p", kind="self_draw",
                                         melds=("chow 123m@0", "pong 555p@0", "chow 789s@0", "pong 999m@3",
                                                "kong 4444s@0")), "all_exposed", None),
    ("near miss: an 暗槓 (C-18)", dict(concealed="88p", tile_="8p", melds=("chow 123m@0", "pong 555p@0",
                                                                         "chow 789s@0", "pong 999m@3",
                                                                         "akong 4444s")), "all_exposed", None),
    # 碰碰胡 [seed 003:L105-109]
    ("碰碰胡 4", dict(concealed="222m555m99s", melds=("pong 888p@3", "pong 333s@0", "pong 777z@3"), tile_="9s"),
     "all_pungs", 4),
    ("near miss: one chow", dict(concealed="222m555m99s", melds=("pong 888p@3", "chow 345s@0", "pong 777z@3"),
                                 tile_="9s"), "all_pungs", None),
    # 三元 [seed 003:L111-116, L150-155]
    ("小三元 4", dict(concealed="123456789m555z666z77z", tile_="7z"), "small_three_dragons", 4),
    ("小三元 replaces 三元牌", dict(concealed="123456789m555z666z77z", tile_="7z"), "dragon", None),
    ("near miss: 2 dragon pungs, no dragon pair", dict(concealed="123456789m555z666z88s", tile_="8s"),
     "small_three_dragons", None),
    ("大三元 8", dict(concealed="123456m99m555z666z777z", tile_="9m"),
     "big_three_dragons", 8),
    ("大三元 replaces 三元牌", dict(concealed="123456m99m555z666z777z", tile_="9m"), "dragon", None),
    # 一色 [seed 003:L118-122, L137-142]
    ("混一色 4", dict(concealed="123456789m333z444z55z", tile_="9m"), "half_flush", 4),
    ("near miss: two suits", dict(concealed="123456789m333z444z55p", tile_="5p"), "half_flush", None),
    ("清一色 8", dict(concealed="11123456789999m", tile_="9m", melds=("pong 555m@3",)), "full_flush", 8),
    ("清一色 excludes 混一色", dict(concealed="11123456789999m", tile_="9m", melds=("pong 555m@3",)),
     "half_flush", None),
    ("字一色 is 清一色 (C-19)", dict(concealed="111222333z555z66z", tile_="6z", melds=("pong 777z@3",)),
     "full_flush", 8),
    ("字一色 keeps 風牌", dict(concealed="111222333z555z66z", tile_="6z", melds=("pong 777z@3",)), "wind", 2),
    ("near miss: honours + a suit is 混一色", dict(concealed="123456789m333z444z55z", tile_="9m"), "full_flush", None),
    # 四喜 [seed 003:L124-129, L157-162]
    ("小四喜 4", dict(concealed="123456m111z222z333z44z", tile_="3m"), "small_four_winds", 4),
    ("小四喜 replaces 風牌", dict(concealed="123456m111z222z333z44z", tile_="3m"), "wind", None),
    ("大四喜 8", dict(concealed="123m111z222z333z444z99m", tile_="9m"), "big_four_winds", 8),
    ("大四喜 replaces 風牌", dict(concealed="123m111z222z333z444z99m", tile_="9m"), "wind", None),
    ("near miss: 3 wind pungs, no wind pair", dict(concealed="123456m111z222z333z55z", tile_="3m"),
     "small_four_winds", None),
    # 眼牌 / Miji [seed 003:L49-53, L164-168]
    ("眼牌 1", dict(declaration="eye"), "eye", 1),
    ("Miji 8", dict(declaration="miji"), "miji", 8),
    ("Miji replaces 眼牌", dict(declaration="miji"), "eye", None),
    ("near miss: no declaration", dict(), "eye", None),
    # 人胡 / 天胡 / 地胡 [seed 003:L182-193]
    ("人胡 8", dict(winner=3, discarder=0, human=True), "human", 8),
    ("人胡 replaces 門清", dict(winner=3, discarder=0, human=True), "concealed", None),
    ("天胡 16", dict(winner=0, kind="self_draw", heavenly=True), "heavenly", 16),
    ("天胡 replaces 門清自摸", dict(winner=0, kind="self_draw", heavenly=True), "concealed_self_draw", None),
    ("地胡 16", dict(winner=2, kind="self_draw", earthly=True), "earthly", 16),
    ("地胡 keeps patterns (混一色)", dict(concealed="123456789m333z444z55z", tile_="9m", winner=2, kind="self_draw",
                                        earthly=True), "half_flush", 4),
    # optional items, off by default (C-2)
    ("獨聽 off by default", dict(concealed="123456789m234p567s11s", tile_="1s"), "single_wait", None),
    ("獨聽 as an option (D-10: the hand waited on exactly one kind)", dict(concealed="123456789m234p567s11s", tile_="1s", options={"single_wait": 1}),
     "single_wait", 1),
    ("near miss: 獨聽 option, two waits", dict(options={"single_wait": 1}), "single_wait", None),
    ("獨聽: a two-sided shape whose other side is used up",
     dict(concealed="12233334456m456789p", tile_="6m", options={"single_wait": 1}), "single_wait", 1),
    ("河底撈魚 off by default", dict(last_tile=True), "last_discard", None),
    ("河底撈魚 as an option", dict(last_tile=True, options={"last_discard": 1}), "last_discard", 1),
]


@pytest.mark.parametrize(("case", "kw", "key", "value"), CASES, ids=[c[0] for c in CASES])
def test_tai_table(case: str, kw: dict, key: str, value: int | None) -> None:
    """docs/rules/taiwan.md#tai-table and docs/rules/taiwan.md#exclusions."""
    assert items(tw(**kw)).get(key) == value


def test_flower_wins_exclude_everything() -> None:
    s = tw("123456789m234p5678s", tile_=None, kind="eight_flowers", flowers="12345678f", winner=1)
    assert items(s) == {"eight_flowers": 8}
    s = tw("123456789m234p5678s", tile_=None, kind="seven_rob_one", flowers="1234567f", winner=1,
           others={3: ("1112223334445556z", (), "8f", None)})
    assert items(s) == {"seven_rob_one": 8}


def test_dealer_items_are_shown() -> None:
    """莊家 1 and 連莊 2n appear on the dealer's seat when the dealer pays (docs/rules/taiwan.md#dealer-tai)."""
    r = score(tw(discarder=0, streak=2))
    assert {i.key: i.value for i in r.seats[0].items} == {"dealer": 1, "dealer_streak": 4}
    assert r.seats[0].totals == {"dealer_tai": 5}
    assert r.seats[1].totals == {"tai": 3}


def test_no_dealer_items_when_not_involved() -> None:
    r = score(tw(discarder=2, streak=2))
    assert r.seats[0].items == ()


def test_option_values_override() -> None:
    assert items(tw(options={"pinghu": 3})) == {"concealed": 1, "pinghu": 3}
    assert items(tw(options={"pinghu": 0})) == {"concealed": 1}


def test_concealed_self_draw_off_gives_back_both() -> None:
    """A 0 value switches an item off, and then it replaces nothing."""
    assert items(tw(kind="self_draw", options={"concealed_self_draw": 0})) == {"self_draw": 1, "concealed": 1}
