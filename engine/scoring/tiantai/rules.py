"""天台 scoring items: 胡數 (H) and 台 (T), docs/rules/tiantai.md#scoring.

One small named function per item, registered in ``RULES`` (an ``engine.scoring.rule_table.RuleTable``)
with its option key, default value and unit.  It returns how many times the item applies (the value is
multiplied by it).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.scoring.readings import CLOSED, EDGE, PAIR, TWO_SIDED
from engine.scoring.rule_table import CountedRule, RuleTable, counted_rule
from engine.scoring.situation import WinKind
from engine.scoring.tiantai.features import Shape
from engine.scoring.tile_sets import DRAGONS

HU = "hu"
TAI = "tai"

RULES: RuleTable[CountedRule[Shape]] = RuleTable("tiantai")
rule = counted_rule(RULES)

# -- 胡數 H ------------------------------------------------------------------------------------------


@rule("base", 20, HU)
def base(s: Shape) -> int:
    """seed 000:L60: the winner adds 20 底胡."""
    return 1


def _sets(key: str) -> Callable[[Shape], int]:
    def count(s: Shape) -> int:
        return s.sets.get(key, 0)

    count.__doc__ = f"number of {key} sets"
    return count


# 刻 / 槓 胡, by exposure and 么九 (docs/rules/tiantai.md#hu-items): one named rule per kind of set
exposed_pung = rule("exposed_pung", 2, HU)(_sets("exposed_pung"))  # incl. a 暗刻 completed by the winning discard
exposed_pung_yao = rule("exposed_pung_yao", 4, HU)(_sets("exposed_pung_yao"))
concealed_pung = rule("concealed_pung", 4, HU)(_sets("concealed_pung"))
concealed_pung_yao = rule("concealed_pung_yao", 8, HU)(_sets("concealed_pung_yao"))
exposed_kong = rule("exposed_kong", 8, HU)(_sets("exposed_kong"))
exposed_kong_yao = rule("exposed_kong_yao", 16, HU)(_sets("exposed_kong_yao"))
concealed_kong = rule("concealed_kong", 16, HU)(_sets("concealed_kong"))
concealed_kong_yao = rule("concealed_kong_yao", 32, HU)(_sets("concealed_kong_yao"))


@rule("dragon_pair", 2, HU)
def dragon_pair(s: Shape) -> int:
    return int(s.pair in DRAGONS)


@rule("seat_wind_pair", 2, HU)
def seat_wind_pair(s: Shape) -> int:
    return int(s.pair == s.hand.seat_wind)


@rule("flower", 4, HU)
def flower(s: Shape) -> int:
    """Each flower held."""
    return s.hand.n_flowers


@rule("self_draw", 2, HU)
def self_draw(s: Shape) -> int:
    """Self-drawn, including 槓上開花, 海底 (not 搶槓: A-10)."""
    return int(s.hand.self_drawn)


@rule("closed_wait", 2, HU)
def closed_wait(s: Shape) -> int:
    """Winning tile in the middle of a chow (46→5) or at an edge (12→3, 89→7)."""
    return int(s.wait in (CLOSED, EDGE))


@rule("pair_wait", 2, HU)
def pair_wait(s: Shape) -> int:
    return int(s.wait == PAIR)


# -- 台 T --------------------------------------------------------------------------------------------


@rule("full_flush", 3, TAI, replaces=("half_flush",))
def full_flush(s: Shape) -> int:
    """One suit only, no honours (seed 000:L40); or honours only (docs/rules/tiantai.md#tai-items D-5: harder than either 一色)."""
    h = s.hand
    return int(h.suits in (1, 2, 4) and not h.honours or h.suits == 0 and bool(h.honours))


@rule("half_flush", 1, TAI)
def half_flush(s: Shape) -> int:
    """One suit plus honours, both required (seed 000:L41)."""
    h = s.hand
    return int(h.honours and h.suits in (1, 2, 4))


@rule("all_pungs", 1, TAI)
def all_pungs(s: Shape) -> int:
    """All sets are pungs/kongs (seed 000:L42)."""
    return int(s.chows == 0)


@rule("pinghu", 1, TAI)
def pinghu(s: Shape) -> int:
    """seed 000:L45-46: 4 chows, no pung/kong, pair not 中發白/own wind, two-sided completion."""
    return int(
        s.chows == 4
        and s.wait == TWO_SIDED
        and s.pair not in DRAGONS
        and s.pair != s.hand.seat_wind
    )


@rule("dragon_pung", 1, TAI)
def dragon_pung(s: Shape) -> int:
    """Each pung/kong of 中, 發 or 白."""
    return s.dragon_pungs


@rule("seat_wind_pung", 1, TAI)
def seat_wind_pung(s: Shape) -> int:
    """Pung/kong of the own seat wind (seed 000:L33)."""
    return s.seat_wind_pungs


@rule("seat_flower", 1, TAI)
def seat_flower(s: Shape) -> int:
    return s.hand.n_seat_flowers


@rule("flower_set", 1, TAI)
def flower_set(s: Shape) -> int:
    """Each complete set 春夏秋冬 / 梅蘭菊竹."""
    return s.hand.n_flower_sets


@rule("kong_bloom", 1, TAI)
def kong_bloom(s: Shape) -> int:
    """Won on a tail replacement after a kong or a flower (docs/rules/tiantai.md#kong-bloom, A-13)."""
    return int(s.hand.win_kind in (WinKind.KONG_REPLACEMENT, WinKind.FLOWER_REPLACEMENT))


@rule("rob_kong", 1, TAI)
def rob_kong(s: Shape) -> int:
    return int(s.hand.win_kind is WinKind.ROB_KONG)


@rule("last_tile", 1, TAI)
def last_tile(s: Shape) -> int:
    """Self-drawn on the last drawable tile (docs/rules/tiantai.md#last-draw-win)."""
    return int(s.hand.last_tile and s.hand.self_drawn)
