"""台灣 worked hands with exact payments (docs/rules/taiwan.md, docs/rules/taiwan.md#payment), errors, and a property.

pay = 底 5 + 台 × (hand 台 + (dealer involved ? 1 + 2n : 0)); the numbers below are worked by hand.
Default table: dealer 0, open_seat 0 (seat 0 東, 1 南, 2 西, 3 北), 東風圈.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from taiwan_situations import PING, fill, tw

from engine.melds import Meld, MeldKind
from engine.scoring import Declaration, SeatHand, Situation, WinKind, score
from engine.tiles import TILES, Tile, parse_tiles, tile

KONGER = ("111222333444z5z", ("pong 777s@0",), "", None)


def pays(s: Situation) -> list[tuple[int, int, int, str]]:
    return sorted((p.payer, p.payee, p.points, p.reason) for p in score(s).payments)


D, S, R = "discard", "self_draw", "rob_kong"
HANDS = [
    # W1 門清 1 + 平胡 2 = 3; seat 2 pays 5 + 3 = 8.
    ("W1 平胡 on a discard", dict(), [(2, 1, 8, D)]),
    # W2 the dealer discards: 5 + 3 + 莊家 1 = 9.
    ("W2 dealer discards", dict(discarder=0), [(0, 1, 9, D)]),
    # W3 dealer discards on 連莊 2: 5 + 3 + 1 + 2·2 = 13.
    ("W3 連二拉二", dict(discarder=0, streak=2), [(0, 1, 13, D)]),
    # W4 seat 1 self-draws: 門清自摸 3; dealer 5 + 3 + 1 = 9, the others 8.
    ("W4 non-dealer 自摸", dict(kind=S), [(0, 1, 9, S), (2, 1, 8, S), (3, 1, 8, S)]),
    # W5 the dealer (東, 東風圈) self-draws with a 東 pung: 門清自摸 3 + 風牌 2 = 5; each 5 + 5 + 1 = 11.
    ("W5 dealer 自摸 東 pung", dict(concealed="123456m789p23455s111z", tile_="5s", winner=0, kind=S),
     [(1, 0, 11, S), (2, 0, 11, S), (3, 0, 11, S)]),
    # W6 seat 3 北 with 1f 4f 8f: 正花 2 + 門清 1 = 3 (flowers: no 平胡); seat 1 pays 8.
    ("W6 正花", dict(concealed="123456789m345678p99s", tile_="6p", winner=3, discarder=1, flowers="148f"),
     [(1, 3, 8, D)]),
    # W7 seat 2 西 with 春夏秋冬: 花槓 1 + 正花 秋 1 + 門清 1 = 3; seat 3 pays 8.
    ("W7 花槓 + 正花", dict(winner=2, discarder=3, flowers="1234f"), [(3, 2, 8, D)]),
    # W8 [pong 中] [akong 8p] 777p 333s 999m 66z on the dealer's 9m: 999m is not 暗 → 三暗刻 2 (777p, 333s,
    #    暗槓) + 碰碰胡 4 + 中 1 = 7; dealer 5 + 7 + 1 = 13.
    ("W8 碰碰胡 三暗刻", dict(concealed="999m777p333s66z", tile_="9m", discarder=0,
                              melds=("pong 555z@3", "akong 8888p")), [(0, 1, 13, D)]),
    # W9 the same self-drawn: 四暗刻 4 + 自摸 1 + 碰碰胡 4 + 中 1 = 10; dealer 16, others 15.
    ("W9 四暗刻 自摸", dict(concealed="999m777p333s66z", tile_="9m", kind=S, melds=("pong 555z@3", "akong 8888p")),
     [(0, 1, 16, S), (2, 1, 15, S), (3, 1, 15, S)]),
    # W10 seat 2 小三元 4 + 混一色 4 + 門清 1 = 9; seat 3 pays 14.
    ("W10 小三元", dict(concealed="123456789m555z666z77z", tile_="7z", winner=2, discarder=3), [(3, 2, 14, D)]),
    # W11 seat 3 大三元 8 + 門清自摸 3 + 混一色 4 + 三暗刻 2 = 17; dealer 23, others 22.
    ("W11 大三元", dict(concealed="123456m99m555z666z777z", tile_="9m", winner=3, kind=S),
     [(0, 3, 23, S), (1, 3, 22, S), (2, 3, 22, S)]),
    # W12 seat 1 [pong 東] [pong 南] 333z 44z 123m 789m on 3m: 小四喜 4 + 混一色 4 = 8; seat 2 pays 13.
    ("W12 小四喜", dict(concealed="123789m333z44z", tile_="3m", melds=("pong 111z@0", "pong 222z@3")),
     [(2, 1, 13, D)]),
    # W13 the dealer: 東南西北 發 pungs + 中 pair, self-drawn: 大四喜 8 + 字一色(清一色) 8 + 發 1 + 碰碰胡 4
    #     + 五暗刻 16 + 門清自摸 3 = 40; each 5 + 40 + 1 = 46.
    ("W13 大四喜 字一色 五暗刻", dict(concealed="111222333444666z55z", tile_="5z", winner=0, kind=S),
     [(1, 0, 46, S), (2, 0, 46, S), (3, 0, 46, S)]),
    # W14 seat 2 全求人 2 on seat 1's 8p; 5 + 2 = 7.
    ("W14 全求人", dict(concealed="88p", tile_="8p", winner=2, discarder=1,
                       melds=("chow 123m@1", "pong 555p@0", "chow 789s@1", "pong 999m@3", "kong 4444s@0")),
     [(1, 2, 7, D)]),
    # W15 seat 3 [akong 7p] wins on the replacement: 門清自摸 3 + 槓上開花 1 = 4; dealer 10, others 9.
    ("W15 槓上開花", dict(concealed="123456789m234s99p", tile_="4s", winner=3, kind="kong_replacement",
                          melds=("akong 7777p",)),
     [(0, 3, 10, "kong_replacement"), (1, 3, 9, "kong_replacement"), (2, 3, 9, "kong_replacement")]),
    # W16 seat 1 robs seat 3's 加槓 of 7s: 門清 1 + 平胡 2 + 搶槓 1 = 4; the konger pays 9.
    ("W16 搶槓", dict(kind=R, discarder=3, others={3: KONGER}), [(3, 1, 9, R)]),
    # W17 seat 2 海底 自摸 with a chow: 自摸 1 + 海底 1 = 2; dealer 8, others 7.
    ("W17 海底撈月", dict(concealed="123456789m56788s", melds=("chow 234p@1",), winner=2, kind=S, last_tile=True),
     [(0, 2, 8, S), (1, 2, 7, S), (3, 2, 7, S)]),
    # W18 人胡 seat 3 on the dealer's first discard: 人胡 8 + 平胡 2 = 10; dealer 5 + 10 + 1 = 16.
    ("W18 人胡", dict(winner=3, discarder=0, human=True), [(0, 3, 16, D)]),
    # W19 天胡: 16; each 5 + 16 + 1 = 22.
    ("W19 天胡", dict(winner=0, kind=S, heavenly=True), [(1, 0, 22, S), (2, 0, 22, S), (3, 0, 22, S)]),
    # W20 地胡 seat 2: 16; dealer 22, others 21.
    ("W20 地胡", dict(winner=2, kind=S, earthly=True), [(0, 2, 22, S), (1, 2, 21, S), (3, 2, 21, S)]),
    # W21 八仙過海 seat 1: 8 台, all pay; dealer 14, others 13.
    ("W21 八仙過海", dict(concealed="123456789m234p5678s", tile_=None, kind="eight_flowers", flowers="12345678f"),
     [(0, 1, 14, "eight_flowers"), (2, 1, 13, "eight_flowers"), (3, 1, 13, "eight_flowers")]),
    # W22 七搶一 seat 2 (7 flowers) against seat 3 (1): seat 3 alone pays 5 + 8 = 13.
    ("W22 七搶一", dict(concealed="123456789m234p5678s", tile_=None, kind="seven_rob_one", flowers="1234567f",
                       winner=2, others={3: ("1112223334445556z", (), "8f", None)}),
     [(3, 2, 13, "seven_rob_one")]),
    # W23 七搶一 where the dealer holds the single flower: 5 + 8 + 1 = 14.
    ("W23 七搶一 dealer pays", dict(concealed="123456789m234p5678s", tile_=None, kind="seven_rob_one",
                                   flowers="2345678f", winner=2, others={0: ("1112223334445556z", (), "1f", None)}),
     [(0, 2, 14, "seven_rob_one")]),
    # W24 the winner had declared 眼牌 (+1 → 4, seat 2 pays 9); seat 3 also declared: penalty 1.
    ("W24 眼牌", dict(declaration="eye", others={3: ("111222333444z5556z", (), "", "eye")}),
     [(2, 1, 9, D), (3, 1, 1, "eye_penalty")]),
    # W25 Miji winner: 門清 1 + 平胡 2 + Miji 8 = 11; seat 2 pays 16.
    ("W25 Miji", dict(declaration="miji"), [(2, 1, 16, D)]),
    # W26 the dealer declared 眼牌 and lost: penalty 1 × 台 only (no 底, no 莊家台).
    ("W26 dealer's 眼牌 penalty", dict(others={0: ("111222333444z5556z", (), "", "eye")}),
     [(0, 1, 1, "eye_penalty"), (2, 1, 8, D)]),
    # W27 底 10, 台 2: W1 → 10 + 2 × 3 = 16.
    ("W27 stakes 10/2", dict(options={"di": 10, "tai_value": 2}), [(2, 1, 16, D)]),
    # W28 W4 on 連莊 1: dealer 5 + 3 + 1 + 2 = 11, others 8.
    ("W28 自摸 連一", dict(kind=S, streak=1), [(0, 1, 11, S), (2, 1, 8, S), (3, 1, 8, S)]),
    # W29 seed L31: seat 1 is 北 (open_seat 2), 西風圈, 北 and 西 pungs: 風牌 2 + 門清 1 = 3 on seat 3's 9p → 8.
    ("W29 隨開門 example", dict(concealed="123456m789p88s333z444z", tile_="9p", open_seat=2, round_wind=2,
                                discarder=3), [(3, 1, 8, D)]),
]


@pytest.mark.parametrize(("case", "kw", "expected"), HANDS, ids=[h[0] for h in HANDS])
def test_worked_hand(case: str, kw: dict, expected: list[tuple[int, int, int, str]]) -> None:
    s = tw(**kw)
    assert pays(s) == sorted(expected)
    assert sum(score(s).net) == 0


def test_at_least_twenty_worked_hands() -> None:
    assert len(HANDS) >= 20


def test_w13_items() -> None:
    s = tw("111222333444666z55z", tile_="5z", winner=0, kind=S)
    r = score(s).seats[0]
    assert {i.key: i.value for i in r.items} == {
        "concealed_self_draw": 3, "dragon": 1, "five_concealed_pungs": 16, "all_pungs": 4,
        "big_four_winds": 8, "full_flush": 8, "dealer": 1,
    }
    assert r.totals == {"tai": 40, "dealer_tai": 1}


def test_drawn_hand_pays_nothing_even_with_eye() -> None:
    seats = tuple(SeatHand(tuple(parse_tiles(PING[:-2] + "s")), declaration=Declaration.EYE) for _ in range(4))
    r = score(Situation("taiwan", seats, 0))
    assert r.payments == () and r.net == [0, 0, 0, 0]


# -- impossible situations and bad options ------------------------------------------------------------


def _replace(s: Situation, **kw: object) -> Situation:
    from dataclasses import replace

    return replace(s, **kw)


@pytest.mark.parametrize(("kw", "message"), [
    (dict(winners=(1, 3)), "截胡"),
    (dict(open_seat=None), "open_seat"),
    (dict(discarder=None), "discarder"),
    (dict(discarder=1), "discarder"),
    (dict(win_kind=WinKind.SPLIT_DEAL), "not a 台灣 win"),
    (dict(win_kind=WinKind.KILL_PIG, discarder=None), "not a 台灣 win"),
    (dict(winning_tile=tile("1z")), "winning tile"),
    (dict(heavenly=True), "天胡"),
    (dict(earthly=True), "地胡"),
    (dict(human=True, win_kind=WinKind.SELF_DRAW, discarder=None), "人胡"),
    (dict(win_kind=WinKind.EIGHT_FLOWERS, discarder=None), "八仙過海"),
    (dict(win_kind=WinKind.SEVEN_ROB_ONE, discarder=None), "七搶一"),
    (dict(options={"accept_eye_declaration": False}), None),
    (dict(options={"di": -1}), "≥ 0"),
    (dict(options={"tai_value": "1"}), "integer"),
    (dict(options={"accept_eye_declaration": 1}), "true or false"),
    (dict(options={"pinhu": 2}), "unknown taiwan scoring option"),
    (dict(dealer=4), "dealer"),
    (dict(round_wind=4), "round_wind"),
    (dict(dealer_streak=-1), "dealer_streak"),
])
def test_impossible(kw: dict, message: str | None) -> None:
    s = _replace(tw(), **kw)
    if message is None:  # accept_eye_declaration off is fine without declarations
        score(s)
        return
    with pytest.raises(ValueError, match=message):
        score(s)


def test_eye_declaration_in_a_room_that_refuses_it() -> None:
    s = _replace(tw(declaration="eye"), options={"accept_eye_declaration": False})
    with pytest.raises(ValueError, match="accept_eye_declaration"):
        score(s)


def test_not_a_winning_hand() -> None:
    seats = list(tw().seats)
    seats[1] = SeatHand(tuple(parse_tiles("123456789m234p56789s")))
    with pytest.raises(ValueError, match="not form a winning hand"):
        score(_replace(tw(), seats=tuple(seats)))


def test_wrong_tile_count() -> None:
    seats = list(tw().seats)
    seats[1] = SeatHand(tuple(parse_tiles("123456789m56788s")))
    with pytest.raises(ValueError, match="14 tiles"):
        score(_replace(tw(), seats=tuple(seats)))


# -- property: payments balance and follow the formula ------------------------------------------------

SETS = [("chow", k) for k in range(27) if k % 9 <= 6] + [("pung", k) for k in range(34)]


@st.composite
def winning_situations(draw: st.DrawFn) -> Situation:
    used = [0] * 42
    groups: list[tuple[str, int]] = []
    while len(groups) < 5:
        kind, k = draw(st.sampled_from(SETS))
        need = [k, k + 1, k + 2] if kind == "chow" else [k] * 3
        if all(used[t] + need.count(t) <= 4 for t in set(need)):
            for t in need:
                used[t] += 1
            groups.append((kind, k))
    pair = draw(st.sampled_from([k for k in range(34) if used[k] <= 2]))
    used[pair] += 2
    winner = draw(st.integers(0, 3))
    melds: list[Meld] = []
    concealed: list[Tile] = [TILES[pair]] * 2
    for kind, k in groups:
        tiles = [TILES[t] for t in ([k, k + 1, k + 2] if kind == "chow" else [k] * 3)]
        if draw(st.integers(0, 3)) == 0:
            src = (winner - 1) % 4 if kind == "chow" else (winner + 2) % 4
            melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PONG, tuple(tiles), tiles[0], src))
        else:
            concealed.extend(tiles)
    win_kind = draw(st.sampled_from([WinKind.SELF_DRAW, WinKind.DISCARD, WinKind.ROB_KONG,
                                     WinKind.KONG_REPLACEMENT, WinKind.FLOWER_REPLACEMENT]))
    discarder = (winner + draw(st.integers(1, 3))) % 4 if win_kind in (WinKind.DISCARD, WinKind.ROB_KONG) else None
    flowers = tuple(TILES[34 + i] for i in sorted(draw(st.sets(st.integers(0, 7), max_size=6))))
    decl = draw(st.sampled_from([None, None, Declaration.EYE, Declaration.MIJI]))
    seats = []
    for i in range(4):
        if i == winner:
            seats.append(SeatHand(tuple(sorted(concealed)), tuple(melds), flowers, decl))
        else:
            seats.append(SeatHand(fill(used, 16), declaration=draw(st.sampled_from([None, Declaration.EYE]))))
    options = draw(st.sampled_from([{}, {"di": 10, "tai_value": 2}, {"single_wait": 1, "last_discard": 1}]))
    return Situation("taiwan", tuple(seats), draw(st.integers(0, 3)), (winner,),
                     draw(st.sampled_from(sorted(set(concealed)))), win_kind, discarder,
                     dealer_streak=draw(st.integers(0, 3)), round_wind=draw(st.integers(0, 3)),
                     open_seat=draw(st.integers(0, 3)), last_tile=draw(st.booleans()), options=options)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(winning_situations())
def test_payments_balance_and_follow_the_formula(s: Situation) -> None:
    r = score(s)
    assert sum(r.net) == 0
    w = s.winners[0]
    hand_tai = r.seats[w].totals["tai"]
    di, tv = s.options.get("di", 5), s.options.get("tai_value", 1)
    for p in r.payments:
        assert p.payee == w and p.points > 0
        if p.reason == "eye_penalty":
            assert p.points == tv and s.seats[p.payer].declaration is not None
        else:
            dealer = 1 + 2 * s.dealer_streak if s.dealer in (p.payer, w) else 0
            assert p.points == di + tv * (hand_tai + dealer)
    main = [p for p in r.payments if p.reason != "eye_penalty"]
    assert len(main) == (3 if s.discarder is None else 1)
