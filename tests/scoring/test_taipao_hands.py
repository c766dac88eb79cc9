"""台炮 worked hands: full tables with exact payments (docs/rules/taipao.md#settlement (1-4), docs/rules/rooms.md#points: 1 point = 1 台).

Every expected figure is worked out by hand in the comments from the docs/rules/taipao.md#scoring tables.  Seat winds
follow the dealer: dealer 東, dealer+1 南, dealer+2 西, dealer+3 北.  Payments are compared as a multiset of
(payer, payee, points); ``net`` must match too.  Unless a hand says otherwise 財神 = 9p, 9s (two-face).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from taipao_situations import hand

from engine.scoring import KongKind, SeatHand, Situation, WinKind, score
from engine.tiles import parse_tiles, tile

FM = "1122334455667788m"
FP = "1122334455667788p"
FS = "1122334455667788s"


def table(seats: list[SeatHand], *, dealer: int, winner: int | None, kind: str | None = None,
          wild: str = "9p9s", **kw: Any) -> Situation:
    return Situation(
        "taipao", tuple(seats), dealer, () if winner is None else (winner,),
        win_kind=None if kind is None else WinKind(kind), wildcards=tuple(parse_tiles(wild)), **kw,
    )


def check(sit: Situation, bases: list[int], score_w: int | None, pays: list[tuple[int, int, int]],
          net: list[int]) -> None:
    res = score(sit)
    assert [s.totals["base"] for s in res.seats] == bases
    if score_w is not None:
        assert res.seats[sit.winners[0]].totals["score"] == score_w
    assert Counter((p.payer, p.payee, p.points) for p in res.payments) == Counter(pays)
    assert res.net == net
    assert sum(res.net) == 0


# W1 — dealer 0 self-draws 平胡 (docs/rules/taipao.md#settlement (2)).
#   seat 0 東: 123m 456m 789m 234p 567s 11p.  B0 = 0.  X = 自摸 1 + 硬牌 7 + 平胡 13 = 21 ≥ 13 → W = 42.
#   seat 1: flower 夏 → B1 = 1.  seat 2: one 9s (財神 suit ×1 = 2) + 秋 冬 (2 in group 1 = 3) → B2 = 5.
#   seat 3 北: 東東東 (not its wind) 南南 西西 北北 中中 發發 9m9m + one 9p: 北北 is its own-wind pair (+1, D-3),
#   the 財神 turns 中中 or 發發 into a pung (+1) and scores 2 → B3 = 4.
#   Each non-dealer pays 2W = 84.  Pairwise ×1: 1→2 4, 1→3 3, 3→2 1.
#   net: 0 +252; 1 −84−4−3 = −91; 2 −84+4+1 = −79; 3 −84+3−1 = −82.
def test_w1_dealer_pinghu_self_draw() -> None:
    sit = table([
        hand("123m 456m 789m 234p 567s 11p"),
        hand(FP, flowers="2f"),
        hand("112233445566778s 9s", flowers="3f4f"),
        hand("東東東 南南 西西 北北 中中 發發 9m9m 9p"),
    ], dealer=0, winner=0, kind="self_draw")
    check(sit, [0, 1, 5, 4], 42,
          [(1, 0, 84), (2, 0, 84), (3, 0, 84), (1, 2, 4), (1, 3, 3), (3, 2, 1)], [252, -91, -79, -82])


# W2 — non-dealer 2 wins on 3's discard; the dealer's pairwise differences count double (Settlement 1).
#   seat 2 西: 西西西 123m 456m 234p 678s 55s.  B2 = 西 pung 1.  X = 硬牌 7.  T = 8 < 13 → W = 8.
#   seat 0 (dealer): [kong 9m] 3 + 春 梅 (1 + 1) → B0 = 5.   seat 1: B1 = 0.
#   seat 3: 9s9s (財神 suit ×2 = 5), no 北/中/發 to complete → B3 = 5.
#   dealer pays 2W = 16, seats 1 and 3 pay 8.  Pairwise: 0–1 ×2: 1→0 10; 0–3 ×2: equal; 1–3: 1→3 5.
#   net: 2 +32; 0 −16+10 = −6; 1 −8−10−5 = −23; 3 −8+5 = −3.
def test_w2_non_dealer_discard_dealer_pair_doubled() -> None:
    sit = table([
        hand("345m 678m 11p 456p 78p", "kong 9m", flowers="1f5f"),
        hand(FP),
        hand("西西西 123m 456m 234p 678s 55s"),
        hand("9s9s 11223344s 556677s"),
    ], dealer=0, winner=2, kind="discard", discarder=3)
    check(sit, [5, 0, 1, 5], 8, [(0, 2, 16), (1, 2, 8), (3, 2, 8), (1, 0, 10), (1, 3, 5)], [-6, -23, 32, -3])


# W3 — same-face mode (財神 = 中): 杀猪胡 with 2 財神 on a discard.
#   seat 1 南: 中中 123m 456m 789m 234p 567p.  B1 = 財神(同) ×2 = 15 + 門風對 1 = 16: the two bare 財神 are the
#   pair and may stand for the own wind 南 (docs/rules/taipao.md#bare-caishen E-1, D-3).  X = 杀猪胡 13 (same-face 2).  T = 29 → W = 58.
#   seat 0 (dealer) B0 = 0.  seat 2: 秋 菊 (1 + 1) + [pong 發] +1 → B2 = 3.  seat 3 北: [akong 東] 4 → B3 = 4.
#   dealer pays 116, seats 2 and 3 pay 58.  Pairwise: 0–2 ×2: 0→2 6; 0–3 ×2: 0→3 8; 2–3: 2→3 1.
#   net: 1 +232; 0 −116−6−8 = −130; 2 −58+6−1 = −53; 3 −58+8+1 = −49.
def test_w3_same_face_shazhuhu_on_discard() -> None:
    sit = table([
        hand(FS),
        hand("中中 123m 456m 789m 234p 567p"),
        hand("11223344556s 99p", "pong 發", flowers="3f7f"),
        hand("678m 678p 8p 99m 12m 34m", "akong 東"),
    ], dealer=0, winner=1, kind="discard", discarder=2, wild="5z")
    check(sit, [0, 16, 3, 4], 58,
          [(0, 1, 116), (2, 1, 58), (3, 1, 58), (0, 2, 6), (0, 3, 8), (2, 3, 1)], [-130, 232, -53, -49])


# W4 — 黄牌: nobody wins, nothing is paid even though the B differ (Settlement 3, seed 002:L68, L73).
def test_w4_huangpai_pays_nothing() -> None:
    sit = table([
        hand(FS, flowers="1f2f3f4f"), hand(FP), hand("9s9s 11223344s 556677s"), hand(FM),
    ], dealer=0, winner=None)
    check(sit, [10, 0, 5, 0], None, [], [0, 0, 0, 0])


# W5 — plain 杀猪 by non-dealer 3 (9p×3 + 9s): X = 13 only, B not added, doubled → W = 26 (B-12).
#   seat 0 (dealer): [pong 中] +1, 春 1 → B0 = 2.  seat 1: B1 = 0.
#   seat 2 西: 9s9s (5) + 西西 + one 財神 = pung (+1); the other 財神 has nothing to complete → B2 = 6.
#   dealer pays 52, seats 1 and 2 pay 26.  Pairwise: 0–1 ×2: 1→0 4; 0–2 ×2: 0→2 8; 1–2: 1→2 6.
#   net: 3 +104; 0 −52+4−8 = −56; 1 −26−4−6 = −36; 2 −26+8+6 = −12.
W5 = [
    hand("112233445566m 7m", "pong 中", flowers="1f"),
    hand(FS),
    hand("9s9s 西西 112233445566p"),
    hand("9p9p9p 9s 13579m 2468p 1357s"),
]


def test_w5_plain_shazhu_losers_still_settle() -> None:
    sit = table(W5, dealer=0, winner=3, kind="kill_pig")
    check(sit, [2, 0, 6, 0], 26,
          [(0, 3, 52), (1, 3, 26), (2, 3, 26), (1, 0, 4), (0, 2, 8), (1, 2, 6)], [-56, -36, -12, 104])


# W6 — W5 with the 灵溪 option: the losers do not settle among themselves.
def test_w6_plain_shazhu_option_zero_losers() -> None:
    sit = table(W5, dealer=0, winner=3, kind="kill_pig", options={"shazhu_losers_settle": False})
    check(sit, [2, 0, 6, 0], 26, [(0, 3, 52), (1, 3, 26), (2, 3, 26)], [-52, -26, -26, 104])


# W7 — dealer 1; seat 2 (南) wins on the replacement of its 暗杠 南 (杠上开花, seed 002:L28; B-24).
#   B2 = 暗槓(門風) 5.  X = 自摸 1 + 暗开花 8 + own wind +1 + 硬牌 7 = 17.  T = 22 → W = 44.
#   seat 1 (dealer) B1 = 0.  seat 3 (西): 春夏秋冬 → 10.  seat 0 (北): [kong 北] own wind → 4.
#   dealer pays 88, seats 3 and 0 pay 44.  Pairwise: 1–3 ×2: 1→3 20; 1–0 ×2: 1→0 8; 3–0: 0→3 6.
#   net: 2 +176; 1 −88−20−8 = −116; 3 −44+20+6 = −18; 0 −44+8−6 = −42.
def test_w7_gangkai_on_own_wind_concealed_kong() -> None:
    sit = table([
        hand("112233667788s 東", "kong 北"),
        hand(FS),
        hand("123m 456m 789m 234p 55p", "akong 南"),
        hand(FP, flowers="1f2f3f4f"),
    ], dealer=1, winner=2, kind="kong_replacement", kong_kind=KongKind.CONCEALED, kong_tile=tile("南"))
    check(sit, [4, 0, 5, 10], 44,
          [(1, 2, 88), (3, 2, 44), (0, 2, 44), (1, 3, 20), (1, 0, 8), (0, 3, 6)], [-42, -116, 176, -18])


# W8 — dealer wins on a flower replacement: 自摸 only, no 杠上开花 (B-9); flowers also cost 平胡.
#   seat 0: 123m 456m 789m 234p 11s 678s, flowers 春 梅.  B0 = 1 + 1 = 2.  X = 自摸 1 + 硬牌 7 = 8.
#   T = 10 < 13 → W = 10.  Each non-dealer pays 20; all other B are 0.
def test_w8_flower_replacement_is_not_gangkai() -> None:
    sit = table([
        hand("123m 456m 789m 234p 11s 678s", flowers="1f5f"), hand(FP), hand(FS), hand(FM),
    ], dealer=0, winner=0, kind="flower_replacement")
    check(sit, [2, 0, 0, 0], 10, [(1, 0, 20), (2, 0, 20), (3, 0, 20)], [60, -20, -20, -20])


# W9 — seat 1 robs the dealer's 补杠 (抢杠胡 +3, seed 002:L29): 123m 456m 789m 234p 567s 55p.
#   X = 抢杠 3 + 硬牌 7 + 平胡 13 = 23, B1 = 0 → W = 46.  The konger's meld stays a pong of 8m: B0 = 0.
#   seat 2 西: 9p (2), 西西 + 財神 = pung (+1), 蘭 (1) → B2 = 4.  seat 3 北: [kong 中] → 4.
#   dealer pays 92, seats 2 and 3 pay 46.  Pairwise: 0–2 ×2: 0→2 8; 0–3 ×2: 0→3 8; 2–3 equal.
#   net: 1 +184; 0 −92−8−8 = −108; 2 −46+8 = −38; 3 −46+8 = −38.
def test_w9_rob_kong_from_the_dealer() -> None:
    sit = table([
        hand("112233446677p 東", "pong 8m"),
        hand("123m 456m 789m 234p 567s 55p"),
        hand("9p 西西 1122334455s 66s 7s", flowers="6f"),
        hand("1122334455m 67m 9m", "kong 中"),
    ], dealer=0, winner=1, kind="rob_kong", discarder=0)
    check(sit, [0, 0, 4, 4], 46,
          [(0, 1, 92), (2, 1, 46), (3, 1, 46), (0, 2, 8), (0, 3, 8)], [-108, 184, -38, -38])


# W10 — seat 2 (西) wins on seat 1's discard: 東東東 南南南 西西+9s 北北北 中中 111m.
#   The 財神 completes 中 (+1) with 西西 as the own-wind pair (+1, D-3; 東 南 北 pungs + the 西 pair are 四风会齐),
#   which beats completing 西 (+1) with a 中 pair.
#   B2 = 財神 2 + 1 + 1 = 4.  X = 四风会齐 13 + 对对和 7 + 混一色 7 = 27.  T = 31 → W = 62.
#   B0 = 0, B1 = 夏 蘭 (1 + 1) = 2, B3 = 0.
#   Normal: dealer 124, seats 1 and 3 62.  Pairwise: 0–1 ×2: 0→1 4; 0–3 equal; 1–3: 3→1 2.
W10 = [
    hand(FP),
    hand(FS, flowers="2f6f"),
    hand("東東東 南南南 西西 9s 北北北 中中 111m"),
    hand("2233445566778899m"),
]


def test_w10_sifeng_normal_payment() -> None:
    #   net: 2 +248; 0 −124−4 = −128; 1 −62+4+2 = −56; 3 −62−2 = −64.
    sit = table(W10, dealer=0, winner=2, kind="discard", discarder=1)
    check(sit, [0, 2, 4, 0], 62,
          [(0, 2, 124), (1, 2, 62), (3, 2, 62), (0, 1, 4), (3, 1, 2)], [-128, -56, 248, -64])


def test_w10b_sifeng_baopei_discarder_pays_all() -> None:
    #   四风齐包赔 (option): the discarder (seat 1) pays 124 + 62 + 62 = 248 alone; pairwise unchanged.
    #   net: 2 +248; 1 −248+4+2 = −242; 0 −4; 3 −2.
    sit = table(W10, dealer=0, winner=2, kind="discard", discarder=1, options={"sifeng_baopei": True})
    check(sit, [0, 2, 4, 0], 62, [(1, 2, 248), (0, 1, 4), (3, 1, 2)], [-4, -242, 248, -2])


# W11 — dealer 2 天胡 绿一色 with a 財神 standing for 8s (B-13): 22s 234s 234s 666s 88s+9p 發發發.
#   B2 = 財神 9p 2 + 發 pung 1 = 3.  X = 自摸 1 + 天胡 13 + 绿一色 26 (replaces 混一色) = 40.  T = 43 → W = 86.
#   seat 3 南: B3 = 0.  seat 0 西: [pong 西] 1 + 9s9s 5 (nothing for them to complete) → B0 = 6.
#   seat 1 北: 冬 竹 (1 + 1) + 白白 (3) → B1 = 5.
#   Each non-dealer pays 172.  Pairwise ×1: 3→0 6, 3→1 5, 1→0 1.
#   net: 2 +516; 3 −172−6−5 = −183; 0 −172+6+1 = −165; 1 −172+5−1 = −168.
def test_w11_heavenly_lvyise_with_caishen() -> None:
    sit = table([
        hand("9s9s 11223344556p", "pong 西"),
        hand(FP, flowers="4f8f7z7z"),
        hand("22s 234s 234s 666s 88s 9p 發發發"),
        hand(FM),
    ], dealer=2, winner=2, kind="self_draw", heavenly=True)
    check(sit, [6, 5, 3, 0], 86,
          [(3, 2, 172), (0, 2, 172), (1, 2, 172), (3, 0, 6), (3, 1, 5), (1, 0, 1)], [-165, -168, 516, -183])


# W12 — 財神 = 9p and 東 (an honour face).  Seat 3 (北) self-draws 123m 456m 789m 234p 55p + 9p 東 東:
#   the three 財神 form a set by themselves (财神汇 +7), which takes no face (D-2: no +1 as a 北 pung; read
#   as a 北 pung instead it scores +1 but loses 财神汇, T = 11).
#   B3 = 9p×1 2 + 東×2 7 = 9.  X = 自摸 1 + 财神汇 7 = 8.  T = 17 → W = 34.
#   seat 0 (dealer): one 東 (財神 honour 3) completes 中中 (+1) → B0 = 4.  B1 = 0.  seat 2: 梅蘭菊 → 5.
#   dealer pays 68, seats 1 and 2 pay 34.  Pairwise: 0–1 ×2: 1→0 8; 0–2 ×2: 0→2 2; 1–2: 1→2 5.
#   net: 3 +136; 0 −68+8−2 = −62; 1 −34−8−5 = −47; 2 −34+2+5 = −27.
def test_w12_caishenhui_with_honour_face() -> None:
    sit = table([
        hand("東 中中 1122334455s 667s"),
        hand(FP),
        hand(FM, flowers="5f6f7f"),
        hand("123m 456m 789m 234p 55p 9p 東東"),
    ], dealer=0, winner=3, kind="self_draw", wild="9p1z")
    check(sit, [4, 0, 5, 9], 34,
          [(0, 3, 68), (1, 3, 34), (2, 3, 34), (1, 0, 8), (0, 2, 2), (1, 2, 5)], [-62, -47, -27, 136])


# W13 — 分牌 win (+3, not 自摸; seed 002:L68).  Dealer 1; seat 0 is 北 and wins on its 分牌 tile:
#   123m 456m 789m 11p 234s 567s → X = 分牌 3 + 硬牌 7 + 平胡 13 = 23, B0 = 0 → W = 46.
#   seat 1 (dealer) holds 17 tiles (its own 分牌 draw): B1 = 0.  seat 2 南: 南南南 → B2 = 1.
#   seat 3 西: 9p 9s (2 + 2), 西西 its own-wind pair (+1, D-3), 發 single + both 財神 a pung (+1) → B3 = 6.
#   dealer pays 92, seats 2 and 3 pay 46.  Pairwise: 1–2 ×2: 1→2 2; 1–3 ×2: 1→3 12; 2–3: 2→3 5.
#   net: 0 +184; 1 −92−2−12 = −106; 2 −46+2−5 = −49; 3 −46+12+5 = −29.
def test_w13_split_deal_win() -> None:
    sit = table([
        hand("123m 456m 789m 11p 234s 567s"),
        hand(FP + " 東"),
        hand("南南南 中中 2233445566s 7s"),
        hand("9p9s 發 5566778899m 西西 1m"),
    ], dealer=1, winner=0, kind="split_deal")
    check(sit, [0, 0, 1, 6], 46,
          [(1, 0, 92), (2, 0, 46), (3, 0, 46), (1, 2, 2), (1, 3, 12), (2, 3, 5)], [184, -106, -49, -29])


# W14 — a 2-台 discard win: seat 1 holds one 財神 (9s as 9m) and nothing else.  W = 2, not doubled.
#   B0 (dealer) = [akong 發] 5; B2 = 0; B3 = 春 1.
#   dealer pays 4, seats 2 and 3 pay 2.  Pairwise: 0–2 ×2: 2→0 10; 0–3 ×2: 3→0 8; 2–3: 2→3 1.
#   net: 1 +8; 0 −4+10+8 = +14; 2 −2−10−1 = −13; 3 −2−8+1 = −9.  (The dealer ends up ahead.)
def test_w14_small_discard_win_dealer_gains_from_pairs() -> None:
    sit = table([
        hand("1122334455667p", "akong 發"),
        hand("123m 456m 78m 9s 234p 567s 11p"),
        hand(FS),
        hand("2233445566778899m", flowers="1f"),
    ], dealer=0, winner=1, kind="discard", discarder=3)
    check(sit, [5, 2, 0, 1], 2,
          [(0, 1, 4), (2, 1, 2), (3, 1, 2), (2, 0, 10), (3, 0, 8), (2, 3, 1)], [14, 8, -13, -9])


# W15 — 清一色 with the 財神 as the pair partner (5m + 9s): B1 = 2, X = 清一色 13 → T = 15, W = 30.
#   Seat 3 (北) holds pairs of 北 中 發 but no 財神: only 北北, its own-wind pair, scores (+1, D-3); B0 = B2 = 0.
#   dealer 60, seats 2 and 3 pay 30.  Pairwise: 0–3 ×2: 0→3 2; 2–3: 2→3 1.
#   net: 1 +120; 0 −60−2 = −62; 2 −30−1 = −31; 3 −30+2+1 = −27.
def test_w15_qingyise_with_caishen_pair() -> None:
    sit = table([
        hand(FP),
        hand("123m 234m 456m 678m 789m 5m 9s"),
        hand(FS),
        hand("東東南南西西北北中中發發 1s", "chow 345p"),
    ], dealer=0, winner=1, kind="discard", discarder=2)
    check(sit, [0, 2, 0, 1], 30, [(0, 1, 60), (2, 1, 30), (3, 1, 30), (0, 3, 2), (2, 3, 1)], [-62, 120, -31, -27])


# W16 — exactly 12 台 is not doubled.  Dealer 3; seat 2 is 北 and wins on seat 0's discard:
#   [akong 中] 北北北 123m 456m 23p+9p 55s, flowers 春 夏 梅.
#   B2 = 財神 2 + 北 pung 1 + 暗槓 中 5 + flowers (2 in group 1 = 3, 1 in group 2 = 1) = 12.  X = 0.
#   W = 12: dealer pays 24, seats 0 and 1 pay 12; all other B are 0.
W16 = [
    hand(FP),
    hand(FM),
    hand("北北北 123m 456m 23p 9p 55s", "akong 中", flowers="1f2f5f"),
    hand(FS),
]


def test_w16_twelve_tai_not_doubled() -> None:
    sit = table(W16, dealer=3, winner=2, kind="discard", discarder=0)
    check(sit, [0, 0, 12, 0], 12, [(3, 2, 24), (0, 2, 12), (1, 2, 12)], [-12, -12, 48, -24])


def test_w17_threshold_option_10_doubles_twelve() -> None:
    # W16 with double_threshold = 10 (the alternative L56 reading): W = 24 → dealer 48, others 24.
    sit = table(W16, dealer=3, winner=2, kind="discard", discarder=0, options={"double_threshold": 10})
    check(sit, [0, 0, 12, 0], 24, [(3, 2, 48), (0, 2, 24), (1, 2, 24)], [-24, -24, 96, -48])


# W18 — dealer self-draws with 9p×3 + 9s×2 (杀猪胡 level 5 = 30) and the 財神 as a set + pair.
#   123m 456m 789m 234p + 9p9p9p 9s9s: wild set (财神汇 7; it takes no face, D-2) + wild pair, which may stand
#   for the dealer's own wind 東 (門風對 +1, docs/rules/taipao.md#bare-caishen E-1).
#   B0 = 9p×3 8 + 9s×2 5 + 門風對 1 = 14.  X = 自摸 1 + 财神汇 7 + 杀猪胡 30 = 38.  T = 52 → W = 104.
#   B1 = B2 = 0; seat 3 北: 東東東 (not its wind), 南南, 中中, no 財神, 冬 → B3 = 1.
#   Each pays 208.  Pairwise ×1: 1→3 1, 2→3 1.
#   net: 0 +624; 1 −209; 2 −209; 3 −208+2 = −206.
def test_w18_dealer_shazhuhu_three_plus_two() -> None:
    sit = table([
        hand("123m 456m 789m 234p 9p9p9p 9s9s"),
        hand(FS),
        hand(FM),
        hand("東東東 南南 中中 5566778p 8p 1p", flowers="4f"),
    ], dealer=0, winner=0, kind="self_draw")
    check(sit, [14, 0, 0, 1], 104, [(1, 0, 208), (2, 0, 208), (3, 0, 208), (1, 3, 1), (2, 3, 1)],
          [624, -209, -209, -206])


# W19 — same-face mode (財神 = 中); dealer 2 declares plain 杀猪 with 中中 (13 → W = 26).
#   seat 3 南: 中 (財神(同) 7) completes 南南 (+1) → B3 = 8.  seat 0 西: 秋 菊 → 2.
#   seat 1 北: [pong 北] 1; four concealed 2m are a 刻 of no value → B1 = 1.
#   Each non-dealer pays 52.  Pairwise ×1: 0→3 6, 1→3 7, 1→0 1.
#   net: 2 +156; 3 −52+6+7 = −39; 0 −52−6+1 = −57; 1 −52−7−1 = −60.
def test_w19_dealer_plain_shazhu_same_face() -> None:
    sit = table([
        hand("2244668822446688s", flowers="3f7f"),
        hand("2222444466668m", "pong 北"),
        hand("中中 13579m 13579p 1357s 9s"),
        hand("中 南南 1122334455p 66p 7p"),
    ], dealer=2, winner=2, kind="kill_pig", wild="5z")
    check(sit, [2, 1, 0, 8], 26, [(3, 2, 52), (0, 2, 52), (1, 2, 52), (0, 3, 6), (1, 3, 7), (1, 0, 1)],
          [-57, -60, 156, -39])


# W20 — 地胡 on the dealer's first discard, 对对和, 硬牌: seat 1 南 with 111m 222p 333s 南南南 中中中 44m.
#   B1 = 南 pung 1 + 中 pung 1 = 2.  X = 地胡 13 + 硬牌 7 + 对对和 7 = 27.  T = 29 → W = 58.
#   seat 0 (dealer): 春 梅 → 2.  seat 2 西: 西西西 → 1.
#   seat 3 北: 9p9p9s (5 + 2) and singles 北 中 發: 北 + one 財神 = its own-wind pair (+1, D-3), 中 (or 發) +
#   the other two = a pung (+1) → B3 = 9.
#   dealer pays 116, seats 2 and 3 pay 58.  Pairwise: 0–2 ×2: 2→0 2; 0–3 ×2: 0→3 14; 2–3: 2→3 8.
#   net: 1 +232; 0 −116+2−14 = −128; 2 −58−2−8 = −68; 3 −58+14+8 = −36.
def test_w20_earthly_duiduihe() -> None:
    sit = table([
        hand("5566778855667788p", flowers="1f5f"),
        hand("111m 222p 333s 南南南 中中中 44m"),
        hand("西西西 東東 5566778s 8s 1m 9m9m"),
        hand("中 發 北 9p9p9s 234567m 2345p"),
    ], dealer=0, winner=1, kind="discard", discarder=0, earthly=True)
    check(sit, [2, 2, 1, 9], 58,
          [(0, 1, 116), (2, 1, 58), (3, 1, 58), (2, 0, 2), (0, 3, 14), (2, 3, 8)], [-128, 232, -68, -36])


# W21 — dealer wins on the replacement after a 补杠 of 中: 杠上开花 7 + 1 (中), 混一色.
#   seat 0 東: [kong+ 中] 東東東 123m 456m 789m 55m.  B0 = 明槓 中 4 + 東 pung 1 = 5.
#   X = 自摸 1 + 明开花 7 + 中 1 + 硬牌 7 + 混一色 7 = 23.  T = 28 → W = 56.
#   seat 3: 夏 秋 (3) + 白板 ×4 (10) → B3 = 13; B1 = B2 = 0.
#   Each pays 112.  Pairwise ×1: 1→3 13, 2→3 13.
#   net: 0 +336; 1 −125; 2 −125; 3 −112+26 = −86.
def test_w21_dealer_gangkai_after_added_kong_of_zhong() -> None:
    sit = table([
        hand("東東東 123m 456m 789m 55m", "kong+ 中"),
        hand(FP),
        hand(FS),
        hand("22334455667788p 1s1s", flowers="2f3f7z7z7z7z"),
    ], dealer=0, winner=0, kind="kong_replacement", kong_kind=KongKind.ADDED, kong_tile=tile("中"))
    check(sit, [5, 0, 0, 13], 56, [(1, 0, 112), (2, 0, 112), (3, 0, 112), (1, 3, 13), (2, 3, 13)],
          [336, -125, -125, -86])


# W22 — eight-flower win (花胡), a room option (docs/rules/taipao.md#eight-flowers; B-26).  Seat 1 holds all 8 flowers.
#   "lingxi": X = 52, T = 52 → W = 104.  seat 2 holds one 白板 → B2 = 1; the others 0.
#   dealer pays 208, seats 2 and 3 pay 104.  Pairwise: 0–2 ×2: 0→2 2; 3–2: 3→2 1.
#   net: 1 +416; 0 −208−2 = −210; 2 −104+2+1 = −101; 3 −104−1 = −105.
#   "shazhu": X = 13 (the first 杀猪 value) → W = 26: dealer 52, others 26, same pairwise.
#   net: 1 +104; 0 −52−2 = −54; 2 −26+3 = −23; 3 −26−1 = −27.
W22 = [hand(FP), hand(FM, flowers="1f2f3f4f5f6f7f8f"), hand(FS, flowers="7z"), hand(FP)]


@pytest.mark.parametrize(("mode", "w", "pays", "net"), [
    ("lingxi", 104, [(0, 1, 208), (2, 1, 104), (3, 1, 104), (0, 2, 2), (3, 2, 1)], [-210, 416, -101, -105]),
    ("shazhu", 26, [(0, 1, 52), (2, 1, 26), (3, 1, 26), (0, 2, 2), (3, 2, 1)], [-54, 104, -23, -27]),
])
def test_w22_eight_flowers_option(mode: str, w: int, pays: list[tuple[int, int, int]], net: list[int]) -> None:
    sit = table(W22, dealer=0, winner=1, kind="eight_flowers", options={"eight_flowers": mode})
    check(sit, [0, 0, 1, 0], w, pays, net)


# W23 — a loser's B is never doubled (seed 002:L65): seat 3 has B = 20 but pays/receives 20, not 40.
#   Seat 1 wins 平胡 on seat 2's discard: X = 平胡 13 + 硬牌 7 = 20 → W = 40.
#   seat 3 北: 春夏秋冬 10 + 梅蘭菊竹 10 → B3 = 20; B0 = B2 = 0.
#   dealer pays 80, seats 2 and 3 pay 40.  Pairwise: 0–3 ×2: 0→3 40; 2–3: 2→3 20.
#   net: 1 +160; 0 −80−40 = −120; 2 −40−20 = −60; 3 −40+40+20 = +20.
def test_w23_loser_base_not_doubled() -> None:
    sit = table([
        hand(FS), hand("123m 456m 789m 234p 567s 11p"), hand(FP), hand(FM, flowers="1f2f3f4f5f6f7f8f"),
    ], dealer=0, winner=1, kind="discard", discarder=2)
    check(sit, [0, 0, 0, 20], 40, [(0, 1, 80), (2, 1, 40), (3, 1, 40), (0, 3, 40), (2, 3, 20)],
          [-120, 160, -60, 20])
