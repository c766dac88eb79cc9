"""Room options (房間設定): ONE table of every option of every variant, with its type and range.

docs/rules/timing.md#room-options: every number and toggle is an option with its default, and seed 003 says
"若非常用台數，請自訂台數".  ``option_table(variant)`` is that table: the play options (timers, 圈) of
``engine.variants``, every 台 / 胡 value of the variant's scorer and its settlement values, each an
``Option`` with its type, default and range or choices.  ``resolve_room_options`` checks a room's
overrides against it (``OptionError`` naming the option and its range), then lets the scorer check the
options together (e.g. 天台 payments must be whole points).  ``Match`` resolves through it, the server
validates with it and ``GET /api/variants`` publishes it; docs/options.md is generated from it.

The ranges bound the largest payment one hand can make (``payment_bound``) far inside what the ledger's
BIGINT columns and 積分 hold, and no check or score costs more as a value grows (the 天台 cap is one of
three choices; a 台 count past the cap stops doubling).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import import_module
from typing import Any

from engine.variants import Option, OptionError, find_variant

# The largest value of any 台 / 胡 item of a scorer's rule table, by variant and unit (0 switches it off).
ITEM_MAX: dict[str, int] = {"tiantai:hu": 200, "tiantai:tai": 8, "taipao": 200, "taiwan": 64}
UNIT_NAMES = {"hu": "胡", "tai": "台"}
# No rule counts an item more than this many times in one hand (8 flowers, at most 5 sets, 4 財神).
ITEM_COUNT_MAX = 8
# 台灣 連莊 n is not bounded by the rules; ``payment_bound`` assumes a streak no longer than this.
STREAK_ASSUMED = 100

# The settlement values of each scorer: everything that is not a rule-table item.
SETTLEMENT: dict[str, dict[str, Option]] = {
    "tiantai": {
        "cap": Option(300, int, choices=(100, 200, 300), doc="滿貫 in 胡 (A-9)"),
        "discard_multiplier": Option(1.5, float, choices=(1.0, 1.5, 2.0),
                                     doc="放銃 / 搶槓: the feeder pays this × S (A-10)"),
        "heavenly": Option(1, float, choices=(0.5, 1.0, 1.5, 2.0), doc="天胡 S = heavenly × cap (A-8)"),
        "earthly": Option(0.5, float, choices=(0.5, 1.0), doc="地胡 S = earthly × cap (A-8)"),
        "three_player_winds": Option("ESN", str, choices=("ESN", "ESW"), doc="A-1: 上家 = 北 (ESN) or 西 (ESW)"),
        "eight_flowers": Option(False, bool, doc="docs/rules/tiantai.md#eight-flowers: 8 flowers win at the cap"),
        "hu_per_point": Option(5, int, low=1, high=10, doc="docs/rules/rooms.md#points: 1 point = this many 胡"),
    },
    "taipao": {
        "double_threshold": Option(13, int, low=0, high=1000, doc="W = T × double_factor when T ≥ this (docs/rules/taipao.md#total)"),
        "double_factor": Option(2, int, low=1, high=4, doc="see double_threshold"),
        "dealer_multiplier": Option(2, int, low=1, high=4, doc="the dealer pays / is paid this × W"),
        "dealer_pair_multiplier": Option(2, int, low=0, high=4, doc="pairwise B with the dealer × this"),
        "shazhu_losers_settle": Option(True, bool, doc="losers settle pairwise after 杀猪 / 花胡 (false: 灵溪)"),
        "sifeng_baopei": Option(False, bool, doc="四风齐包赔: the discarder pays for all three"),
        "eight_flowers": Option("off", str, choices=("off", "lingxi", "shazhu"),
                                doc="花胡: off, 52 台 (灵溪) or the lowest 杀猪 value (平阳)"),
    },
    "taiwan": {
        "di": Option(5, int, low=0, high=100, doc="底 in points (docs/rules/rooms.md#points)"),
        "tai_value": Option(1, int, low=0, high=20, doc="台價: points per 台 (docs/rules/rooms.md#points)"),
        "accept_eye_declaration": Option(True, bool, doc="C-10: false = 不接受眼牌 (no 眼牌 / Miji)"),
    },
}


def _scorer_options(variant: str) -> Any:
    return import_module(f"engine.scoring.{variant}.options")


def _scorer_defaults(variant: str) -> dict[str, Any]:
    module = _scorer_options(variant)
    defaults = module.option_defaults() if hasattr(module, "option_defaults") else module.OPTION_DEFAULTS
    return dict(defaults)


def _rule_docs(variant: str) -> dict[str, tuple[str, str]]:
    """Item key → (繁體 name, unit) from the scorer's rule table and ``engine.scoring.names``."""
    from engine.scoring.names import item_name

    rules = import_module(f"engine.scoring.{variant}.rules").RULES  # an engine.scoring.rule_table.RuleTable
    out = {r.key: (r.names.zh_hant, r.unit) for r in rules}
    if variant == "taiwan":
        from engine.scoring.taiwan.options import SPECIAL_ITEMS

        out.update({k: (item_name(variant, k).zh_hant, "tai") for k in SPECIAL_ITEMS})
    return out


def item_units(variant: str) -> dict[str, str]:
    """Every scoring item (計分項目) of ``variant`` → its unit, ``"tai"`` (台) or ``"hu"`` (胡), in the scorer's
    rule-table order: the rules page lists the items from this, with their names and default values."""
    return {key: unit for key, (_, unit) in _rule_docs(variant).items()}


def _item(variant: str, key: str, default: Any, names: dict[str, tuple[str, str]]) -> Option:
    name, unit = names[key]
    high = ITEM_MAX.get(f"{variant}:{unit}", ITEM_MAX.get(variant, 0))
    label = UNIT_NAMES[unit]
    if isinstance(default, tuple):
        return Option(default, list, low=0, high=high, length=len(default),
                      doc=f"{name}: {len(default)} {label} values")
    return Option(default, int, low=0, high=high, doc=f"{name} ({label})")


@cache
def option_table(variant: str) -> dict[str, Option]:
    """Every option of the variant, play and scoring, with its type, default and range or choices."""
    play = find_variant(variant).all_options()
    settlement = SETTLEMENT[variant]
    names = _rule_docs(variant)
    scoring = {k: settlement[k] if k in settlement else _item(variant, k, d, names)
               for k, d in _scorer_defaults(variant).items() if k not in play}
    missing = set(settlement) - set(scoring) - set(play)
    if missing:  # the declaration and the scorer must agree
        raise AssertionError(f"{variant}: declared options the scorer does not know: {sorted(missing)}")
    return {**scoring, **play}


def option_defaults(variant: str) -> dict[str, Any]:
    """Every option of the variant, play and scoring, with its default."""
    return {k: o.default for k, o in option_table(variant).items()}


def option_specs(variant: str) -> dict[str, Option]:
    """The option table (kept under its old name for callers)."""
    return option_table(variant)


def resolve_room_options(variant: str, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """The defaults with the room's overrides, each checked against the option table, then checked
    together by the scorer.  Raises ``OptionError`` naming the option and its range."""
    table = option_table(variant)
    merged = option_defaults(variant)
    for key, value in (overrides or {}).items():
        if key not in table:
            raise OptionError(f"unknown option {key!r} for {variant}", "unknown", variant=variant, option=key)
        merged[key] = table[key].check(key, value)
    try:
        _scorer_options(variant).resolve(merged)
    except OptionError:
        raise
    except ValueError as exc:  # values fine alone that clash together (天台: a payment of a fraction)
        raise OptionError(str(exc), "inconsistent", options=sorted(overrides or {})) from None
    return merged


def payment_bound(variant: str) -> int:
    """An upper bound on the points one seat can owe in one hand with every option at its maximum.

    天台 is capped: S ≤ max(heavenly, earthly × discard_multiplier, discard_multiplier) × cap 胡.
    台炮 and 台灣 add item values: T ≤ Σ item maxima × ``ITEM_COUNT_MAX``; 台炮 W = T × double_factor,
    paid × dealer_multiplier to each of 3 seats under 四风齐包赔, plus pairwise B × dealer_pair_multiplier
    with 2 seats; 台灣 pays 底 + 台價 × (T + 1 + 2n) with n ≤ ``STREAK_ASSUMED``.
    """
    table = option_table(variant)

    def top(key: str) -> float:
        o = table[key]
        return max(o.choices) if o.choices else float(o.high or 0)

    items = sum(top(k) * ITEM_COUNT_MAX for k, o in table.items() if k not in SETTLEMENT[variant]
                and o.kind in (int, list) and k not in find_variant(variant).all_options())
    if variant == "tiantai":
        worst = max(top("heavenly"), top("earthly") * top("discard_multiplier"), top("discard_multiplier"))
        return int(worst * top("cap"))  # in 胡 ≥ points, since hu_per_point ≥ 1
    if variant == "taipao":
        return int(items * top("double_factor") * top("dealer_multiplier") * 3 + items * top("dealer_pair_multiplier") * 2)
    return int(top("di") + top("tai_value") * (items + 1 + 2 * STREAK_ASSUMED))
