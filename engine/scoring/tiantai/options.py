"""天台 room options (docs/rules/tiantai.md#scoring, docs/rules/rooms.md#points, docs/rules/timing.md#room-options) with their defaults and checks."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.scoring.option_checks import OptionCache, check_bool, check_int
from engine.scoring.rule_table import CountedRule
from engine.scoring.tiantai.features import Shape
from engine.scoring.tiantai.rules import RULES

# Seat wind offsets (dealer = 0, 下家 = 1, 上家 = 2) → wind index, docs/rules/tiantai.md#seat-winds and A-1.
WIND_ORDERS = {"ESN": (0, 1, 3), "ESW": (0, 1, 2)}

SETTLEMENT_DEFAULTS: dict[str, object] = {
    "cap": 300,  # 滿貫: 100 / 200 / 300
    "discard_multiplier": 1.5,  # 放銃 / 搶槓: the feeder pays this × S
    "heavenly": 1,  # 天胡 S = heavenly × cap
    "earthly": 0.5,  # 地胡 S = earthly × cap
    "three_player_winds": "ESN",  # 上家 = 北 (ESN) or 西 (ESW)
    "eight_flowers": False,  # docs/rules/tiantai.md#eight-flowers: 8 flowers win at the cap (off)
    "hu_per_point": 5,  # docs/rules/rooms.md#points: 1 point = 5 胡
}

OPTION_DEFAULTS: dict[str, object] = {**RULES.defaults(), **SETTLEMENT_DEFAULTS}
KNOWN = frozenset(OPTION_DEFAULTS)


@dataclass(frozen=True)
class Options:
    values: dict[str, int]  # rule key → value
    cap: int
    discard_multiplier: Fraction
    heavenly: Fraction
    earthly: Fraction
    winds: tuple[int, int, int]
    eight_flowers: bool
    hu_per_point: int
    active: tuple[tuple[CountedRule[Shape], int], ...]  # the rules switched on, with their values


def _fraction(key: str, value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"option {key!r} must be a number, got {value!r}")
    f = Fraction(str(value))
    if f <= 0:
        raise ValueError(f"option {key!r} must be > 0, got {value!r}")
    return f


def _build(items: tuple[tuple[str, object], ...]) -> Options:
    raw = {**OPTION_DEFAULTS, **dict(items)}
    values = {k: check_int(k, raw[k]) for k in RULES.defaults()}
    cap = check_int("cap", raw["cap"], low=10)
    if cap % 10:
        raise ValueError(f"option 'cap' must be a multiple of 10, got {cap}")
    winds = raw["three_player_winds"]
    if winds not in WIND_ORDERS:
        raise ValueError(f"option 'three_player_winds' must be 'ESN' or 'ESW', got {winds!r}")
    opts = Options(
        values=values,
        cap=cap,
        discard_multiplier=_fraction("discard_multiplier", raw["discard_multiplier"]),
        heavenly=_fraction("heavenly", raw["heavenly"]),
        earthly=_fraction("earthly", raw["earthly"]),
        winds=WIND_ORDERS[str(winds)],
        eight_flowers=check_bool("eight_flowers", raw["eight_flowers"]),
        hu_per_point=check_int("hu_per_point", raw["hu_per_point"], low=1),
        active=RULES.active(values),
    )
    _check_integral(opts)
    return opts


def _check_integral(o: Options) -> None:
    """Every payment any hand can produce must be a whole number of points (docs/rules/rooms.md#points)."""
    # S is a multiple of 10 up to the cap: k·x is whole for every k exactly when x is, so S = 10 stands
    # for them all and the check costs the same whatever the cap (issue 9: a huge cap froze the server).
    self_paid = [Fraction(10), o.heavenly * o.cap, Fraction(o.cap)]
    fed = [Fraction(10), o.earthly * o.cap]
    amounts = self_paid + [s * o.discard_multiplier for s in fed]
    bad = [a for a in amounts if (a / o.hu_per_point).denominator != 1]
    if bad:
        raise ValueError(
            f"options make a payment of {bad[0]} 胡 that is not a whole number of points "
            f"(hu_per_point={o.hu_per_point}, discard_multiplier={o.discard_multiplier}, cap={o.cap})"
        )


_OPTIONS = OptionCache("tiantai", KNOWN, _build)
DEFAULT = _OPTIONS.default
resolve = _OPTIONS.resolve
