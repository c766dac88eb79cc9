"""天台 scoring items, one row of docs/rules/tiantai.md#scoring at a time: where it scores and a near miss.

Seats (ESN, dealer 0): seat 0 東 (正花 1f 5f), seat 1 南 (2f 6f), seat 2 北 (4f 8f).  Values are checked
against the table, never against the implementation.
"""

from __future__ import annotations

import pytest

from engine.melds import Meld, MeldKind
from engine.scoring import SeatHand, Situation, WinKind, score
from engine.scoring.json_io import situation_from_json, situation_to_json
from engine.tiles import N_KINDS, Tile, counts_of, parse_tiles, tile

KINDS_TT = [*range(0, 18), *range(27, 34)]


def _melds(specs: tuple[str, ...], seat: int) -> tuple[Meld, ...]:
    """"pong 2m@1", "kong 5p@2", "akong 1z", "kong+ 3m@1" (added)."""
    out = []
    for spec in specs:
        kind, rest = spec.split(" ")
        tiles_s, _, src = rest.partition("@")
        added = kind.endswith("+")
        mk = MeldKind(kind.rstrip("+"))
        tiles = tuple(parse_tiles(tiles_s))
        out.append(Meld(mk, tiles, None if mk is MeldKind.AKONG else tiles[0],
                        int(src) if src else None, added))
    return tuple(out)


def fill(used: list[int], n: int) -> tuple[Tile, ...]:
    """n tiles that keep every kind at ≤ 4 copies, taken from the honours end down."""
    out: list[Tile] = []
    for k in reversed(KINDS_TT):
        while used[k] < 4 and len(out) < n:
            used[k] += 1
            out.append(Tile(k))
    return tuple(sorted(out))


def tt(
    concealed: str, *, tile_: str | None, kind: str = "self_draw", winner: int = 0, dealer: int = 0,
    discarder: int | None = None, melds: tuple[str, ...] = (), flowers: str = "", options: dict | None = None,
    **flags: bool,
) -> Situation:
    """A 天台 situation with one winner; the other seats get valid filler tiles."""
    win = SeatHand(tuple(parse_tiles(concealed)), _melds(melds, winner), tuple(parse_tiles(flowers)))
    used = counts_of([*win.concealed, *(t for m in win.melds for t in m.tiles)])
    seats = []
    for i in range(3):
        seats.append(win if i == winner else SeatHand(fill(used, 13)))
    assert len(used) == N_KINDS
    return Situation(
        "tiantai", tuple(seats), dealer, (winner,), None if tile_ is None else tile(tile_), WinKind(kind),
        discarder, options=options or {}, **flags,
    )


def items(s: Situation, seat: int | None = None) -> dict[str, int]:
    r = score(s)
    w = s.winners[0] if seat is None else seat
    return {i.key: i.value for i in r.seats[w].items}


def totals(s: Situation) -> dict[str, int]:
    return score(s).seats[s.winners[0]].totals


def test_helper_situations_are_valid() -> None:
    s = tt("123456789m23499p", tile_="4p", kind="discard", winner=1, discarder=2)
    assert situation_from_json(situation_to_json(s)) == s


# -- 胡數 table ---------------------------------------------------------------------------------------

# Each row: (case id citing docs/rules/tiantai.md#scoring, situation kwargs, key, expected value or None = absent)
H_CASES = [
    ("底胡 20 [seed 000:L60]", dict(concealed="123456789m23499p", tile_="4p"), "base", 20),
    ("明刻 2-8 = 2", dict(concealed="123456789m99p", melds=("pong 2p@1",), tile_="9p"), "exposed_pung", 2),
    ("明刻 么九 = 4", dict(concealed="123456789m99p", melds=("pong 1p@1",), tile_="9p"), "exposed_pung_yao", 4),
    ("明刻 near miss: a 暗刻 is not 明刻", dict(concealed="123456789m22299p", tile_="9p"), "exposed_pung", None),
    ("暗刻 2-8 = 4", dict(concealed="123456789m22299p", tile_="9p"), "concealed_pung", 4),
    ("暗刻 么九 = 8", dict(concealed="123456789m99p111z", tile_="9p"), "concealed_pung_yao", 8),
    ("暗刻 completed by the winning discard counts 2 (明刻)",
     dict(concealed="123456789m22299p", tile_="2p", kind="discard", winner=1, discarder=2),
     "exposed_pung", 2),
    ("暗刻 completed by the winning discard: no 暗刻 item",
     dict(concealed="123456789m22299p", tile_="2p", kind="discard", winner=1, discarder=2),
     "concealed_pung", None),
    ("暗刻 completed by a self-draw keeps 4", dict(concealed="123456789m22299p", tile_="2p"), "concealed_pung", 4),
    ("暗刻 么九 completed by the discard counts 4",
     dict(concealed="123456789m99p777z", tile_="7z", kind="discard", winner=1, discarder=0),
     "exposed_pung_yao", 4),
    ("明槓 2-8 = 8", dict(concealed="123456789m99p", melds=("kong 5p@2",), tile_="9p"), "exposed_kong", 8),
    ("補槓 is a 明槓", dict(concealed="123456789m99p", melds=("kong+ 5p@2",), tile_="9p"), "exposed_kong", 8),
    ("明槓 么九 = 16", dict(concealed="123456789m99p", melds=("kong 3z@2",), tile_="9p"), "exposed_kong_yao", 16),
    ("暗槓 2-8 = 16", dict(concealed="123456789m99p", melds=("akong 5p",), tile_="9p"), "concealed_kong", 16),
    ("暗槓 么九 = 32", dict(concealed="123456789m99p", melds=("akong 9m",), tile_="9p"), "concealed_kong_yao", 32),
    ("中發白 pair = 2", dict(concealed="123456789m234p66z", tile_="4p"), "dragon_pair", 2),
    ("near miss: pair of another wind", dict(concealed="123456789m234p33z", tile_="4p"), "dragon_pair", None),
    ("own seat wind pair = 2 (seat 0 東)", dict(concealed="123456789m234p11z", tile_="4p"), "seat_wind_pair", 2),
    ("near miss: 西 pair is nobody's seat wind (ESN)",
     dict(concealed="123456789m234p33z", tile_="4p"), "seat_wind_pair", None),
    ("seat 2 is 北 (A-1)", dict(concealed="123456789m234p44z", tile_="4p", winner=2), "seat_wind_pair", 2),
    ("each flower = 4", dict(concealed="123456789m23499p", tile_="4p", flowers="37f"), "flower", 8),
    ("自摸 = 2", dict(concealed="123456789m23499p", tile_="4p"), "self_draw", 2),
    ("near miss: no 自摸 on a discard",
     dict(concealed="123456789m23499p", tile_="4p", kind="discard", winner=1, discarder=0), "self_draw", None),
    ("near miss: 搶槓 is not 自摸 (A-10)",
     dict(concealed="123456789m23499p", tile_="4p", kind="rob_kong", winner=1, discarder=0), "self_draw", None),
    ("卡張 middle (46→5)", dict(concealed="123456789m45699p", tile_="5p"), "closed_wait", 2),
    ("卡張 edge (12→3)", dict(concealed="123456789m12399p", tile_="3p"), "closed_wait", 2),
    ("卡張 edge (89→7)", dict(concealed="123456789m78999p", tile_="7p", kind="discard", winner=1, discarder=0),
     "closed_wait", 2),
    ("near miss: 23→4 is two-sided", dict(concealed="123456789m23499p", tile_="4p"), "closed_wait", None),
    ("near miss: 2 of 234 (+55) is two-sided", dict(concealed="123456789m23455p", tile_="2p"), "pair_wait", None),
    ("單吊: 4567 + 4 (seed 000:L45)", dict(concealed="123456789m44567p", tile_="4p"), "pair_wait", 2),
    ("near miss: 雙碰 is not 單吊", dict(concealed="123456789m22299p", tile_="2p"), "pair_wait", None),
]


@pytest.mark.parametrize(("case", "kw", "key", "value"), H_CASES, ids=[c[0] for c in H_CASES])
def test_hu_table(case: str, kw: dict, key: str, value: int | None) -> None:
    """docs/rules/tiantai.md#hu-items 胡數 table."""
    assert items(tt(**kw)).get(key) == value


# -- 台 table ------------------------------------------------------------------------------------------

T_CASES = [
    ("清一色 = 3 [seed 000:L40]", dict(concealed="11123456789999m", tile_="9m"), "full_flush", 3),
    ("清一色 excludes 混一色", dict(concealed="11123456789999m", tile_="9m"), "half_flush", None),
    ("near miss: honours make it 混一色", dict(concealed="123456789m111z55z", tile_="9m"),
     "full_flush", None),
    ("D-5: an all-honours hand counts as 清一色", dict(concealed="111z222z333z555z66z", tile_="6z"), "full_flush", 3),
    ("D-5: ... and not as 混一色", dict(concealed="111z222z333z555z66z", tile_="6z"), "half_flush", None),
    ("混一色 = 1 [seed 000:L41]", dict(concealed="123456789m111z55z", tile_="9m"), "half_flush", 1),
    ("near miss: two suits", dict(concealed="123456789m111z55p", tile_="5p"), "half_flush", None),
    ("對對胡 = 1 [seed 000:L42]", dict(concealed="222555m888p777z99m", tile_="7z"),
     "all_pungs", 1),
    ("near miss: one chow", dict(concealed="222555m888p123p99m", tile_="3p"), "all_pungs", None),
    ("牌胡 = 1 (_23_ wins 1/4, seed 000:L45)", dict(concealed="123456789m23499p", tile_="4p"), "pinghu", 1),
    ("牌胡: 44_56_ wins 7", dict(concealed="123456789m44567p", tile_="7p"), "pinghu", 1),
    ("牌胡 near miss: 4567 winning 4 is 單吊", dict(concealed="123456789m44567p", tile_="4p"), "pinghu", None),
    ("牌胡 near miss: 卡張", dict(concealed="123456789m45699p", tile_="5p"), "pinghu", None),
    ("牌胡 near miss: edge", dict(concealed="123456789m12399p", tile_="3p"), "pinghu", None),
    ("牌胡 near miss: dragon pair (seed 000:L46)", dict(concealed="123456789m234p66z", tile_="4p"), "pinghu", None),
    ("牌胡 near miss: own seat wind pair", dict(concealed="123456789m234p11z", tile_="4p"), "pinghu", None),
    ("牌胡: another wind's pair is fine", dict(concealed="123456789m234p33z", tile_="4p"), "pinghu", 1),
    ("牌胡 near miss: a pung", dict(concealed="123456m22299p567p", tile_="7p"), "pinghu", None),
    ("牌胡 near miss: a melded pong", dict(concealed="123456m567p99p", melds=("pong 1z@1",), tile_="7p"),
     "pinghu", None),
    ("dragon pung = 1 each", dict(concealed="123m456p555z666z99p", tile_="3m"), "dragon_pung", 2),
    ("dragon kong counts", dict(concealed="123m456p789p99p", melds=("kong 7z@1",), tile_="3m"), "dragon_pung", 1),
    ("near miss: dragon pair is not a pung", dict(concealed="123456789m234p66z", tile_="4p"), "dragon_pung", None),
    ("own seat wind pung = 1 (seed 000:L33)", dict(concealed="123456789m111z99p", tile_="3m"),
     "seat_wind_pung", 1),
    ("seat 1 南 kong", dict(concealed="123456789m99p", melds=("akong 2z",), tile_="3m", winner=1),
     "seat_wind_pung", 1),
    ("near miss: 南 pung for seat 0", dict(concealed="123456789m222z99p", tile_="3m"), "seat_wind_pung", None),
    ("near miss: 西 pung, ESN has no 西 seat", dict(concealed="123456789m333z99p", tile_="3m", winner=2),
     "seat_wind_pung", None),
    ("正花 = 1 each (東 ↔ 1f 5f)", dict(concealed="123456789m23499p", tile_="4p", flowers="15f"), "seat_flower", 2),
    ("正花 of 北 seat 2 ↔ 4f 8f", dict(concealed="123456789m23499p", tile_="4p", flowers="48f", winner=2),
     "seat_flower", 2),
    ("near miss: other seats' flowers", dict(concealed="123456789m23499p", tile_="4p", flowers="2367f"),
     "seat_flower", None),
    ("complete set 春夏秋冬 = 1", dict(concealed="123456789m23499p", tile_="4p", flowers="1234f"),
     "flower_set", 1),
    ("both sets = 2", dict(concealed="123456789m23499p", tile_="4p", flowers="12345678f"), "flower_set", 2),
    ("near miss: 3 of a set", dict(concealed="123456789m23499p", tile_="4p", flowers="123f"), "flower_set", None),
    ("槓上開花 after a kong", dict(concealed="123456789m99p", melds=("kong 5p@2",), tile_="9p",
                                  kind="kong_replacement"), "kong_bloom", 1),
    ("槓上開花 after a flower (A-13)", dict(concealed="123456789m23499p", tile_="4p", flowers="3f",
                                        kind="flower_replacement"), "kong_bloom", 1),
    ("near miss: plain 自摸", dict(concealed="123456789m23499p", tile_="4p"), "kong_bloom", None),
    ("搶槓胡 = 1", dict(concealed="123456789m23499p", tile_="4p", kind="rob_kong", winner=1, discarder=2),
     "rob_kong", 1),
    ("near miss: a discard win", dict(concealed="123456789m23499p", tile_="4p", kind="discard", winner=1,
                                      discarder=2), "rob_kong", None),
    ("海底撈月 = 1", dict(concealed="123456789m23499p", tile_="4p", last_tile=True), "last_tile", 1),
    ("near miss: 海底 discard earns nothing (docs/rules/tiantai.md#last-tile)",
     dict(concealed="123456789m23499p", tile_="4p", kind="discard", winner=1, discarder=2, last_tile=True),
     "last_tile", None),
]


@pytest.mark.parametrize(("case", "kw", "key", "value"), T_CASES, ids=[c[0] for c in T_CASES])
def test_tai_table(case: str, kw: dict, key: str, value: int | None) -> None:
    """docs/rules/tiantai.md#tai-items 台 table."""
    assert items(tt(**kw)).get(key) == value


def test_unit_of_items() -> None:
    r = score(tt("123456789m23499p", tile_="4p", flowers="1f"))
    units = {i.key: i.unit for i in r.seats[0].items}
    assert units == {"base": "hu", "flower": "hu", "self_draw": "hu", "pinghu": "tai", "seat_flower": "tai"}


# -- final score -------------------------------------------------------------------------------------


def test_rounding_up_to_ten() -> None:
    # H = 20 + 2 (中 pair) + 2 (自摸) = 24, T = 0 → 24 → 30
    assert totals(tt("123456789m234p55z", tile_="4p")) == {"hu": 24, "tai": 0, "raw": 24, "score": 30}


def test_exact_multiple_is_not_raised() -> None:
    # H = 20, T = 1 (牌胡) on a discard → 40 exactly
    assert totals(tt("123456789m23499p", tile_="4p", kind="discard", winner=1, discarder=2))["score"] == 40


def test_cap_default_300() -> None:
    # 清一色 3 台: H = 20 + 8 (111m) + 8 (999m) + 2 單吊 + 2 自摸 = 40 → 320 → capped 300
    s = tt("11123456788999m", tile_="8m")
    t = totals(s)
    assert (t["hu"], t["tai"], t["raw"], t["score"]) == (40, 3, 320, 300)
    assert score(s).notes == ("seat 0: 320 胡 capped at 300",)


@pytest.mark.parametrize("cap", [100, 200, 300])
def test_cap_option(cap: int) -> None:
    assert totals(tt("11123456788999m", tile_="8m", options={"cap": cap}))["score"] == min(cap, 320)


def test_heavenly_is_the_cap() -> None:
    s = tt("123456789m23499p", tile_="4p", heavenly=True)
    assert totals(s) == {"score": 300}
    assert items(s) == {"heavenly": 300}


def test_earthly_is_half_the_cap() -> None:
    s = tt("123456789m23499p", tile_="4p", kind="discard", winner=1, discarder=0, earthly=True)
    assert totals(s) == {"score": 150}


def test_earthly_with_cap_200() -> None:
    s = tt("123456789m23499p", tile_="4p", kind="discard", winner=1, discarder=0, earthly=True,
           options={"cap": 200})
    assert totals(s) == {"score": 100}


# -- A-15 maximisation ---------------------------------------------------------------------------------


def test_two_sided_reading_beats_pair_wait() -> None:
    """345p + 55p winning on 5p: 牌胡 reading (20 × 2 = 40) beats 單吊 (22 → 30)."""
    s = tt("123456789m34555p", tile_="5p", kind="discard", winner=1, discarder=0)
    assert items(s) == {"base": 20, "pinghu": 1}
    assert totals(s)["score"] == 40


def test_pair_wait_reading_when_no_pinghu() -> None:
    """Same shape with a pung elsewhere (no 牌胡): two-sided H = 24 → 30, 單吊 H = 26 → 30; equal
    scores, the higher raw reading (單吊) is shown."""
    s = tt("222456789m34555p", tile_="5p", kind="discard", winner=1, discarder=0)
    assert totals(s)["raw"] == 26
    assert items(s).get("pair_wait") == 2


def test_edge_reading_beats_two_sided_reading() -> None:
    """123m + 345m winning on 3m (A-15): 3 as the edge of 12+3 gives 卡張 +2.

    H = 20 + 8 (999p 暗刻) + 2 自摸 + 2 卡張 = 32 → 40; the 45+3 reading would give 30 → 30.
    """
    s = tt("123345m11678999p", tile_="3m")
    assert items(s).get("closed_wait") == 2
    assert totals(s) == {"hu": 32, "tai": 0, "raw": 32, "score": 40}
