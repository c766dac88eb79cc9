"""Room options of the 台炮 scorer (docs/rules/timing.md#room-options): every item value, plus the settlement options.

Item values use the item key (see ``rules.py``): an int, or a list of ints for count-valued items
(``caishen_suit`` / ``caishen_honour`` / ``caishen_same`` / ``flowers`` / ``white``: 4 values for 1-4
tiles; ``shazhu`` / ``shazhuhu``: 3 values for the 4/5/6 財神 levels).  0 switches an item off.
``shazhuhu`` follows ``shazhu`` unless it is set itself.

Settlement options (docs/rules/taipao.md#settlement, docs/rules/taipao.md#eight-flowers, docs/rules/taipao.md#optional-rules):

* ``double_threshold`` 13 and ``double_factor`` 2: ``W = T * factor`` when ``T >= threshold``;
* ``dealer_multiplier`` 2: what the dealer pays a non-dealer winner, and every non-dealer pays a dealer
  winner, in units of ``W``;
* ``dealer_pair_multiplier`` 2: the pairwise B settlement between the dealer and a non-dealer;
* ``shazhu_losers_settle`` true: the losers settle pairwise after a plain 杀猪 / 花胡 (false: 灵溪);
* ``sifeng_baopei`` false: 四风齐包赔, the discarder pays what all three would pay the winner;
* ``eight_flowers`` "off": 花胡 scored ``huahu`` (52, 灵溪) with "lingxi", or the lowest 杀猪 value
  with "shazhu" (平阳台炮).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.scoring.option_checks import check_bool, check_int, check_known
from engine.scoring.situation import WinKind
from engine.scoring.taipao.loser import covers
from engine.scoring.taipao.rules import RULES
from engine.scoring.taipao.table import (
    BASE,
    BONUS,
    SEAT,
    SHAPE,
    WIN,
    Active,
    Grouped,
    by_scope,
    for_kind,
    grouped,
)

EIGHT_FLOWER_MODES = ("off", "lingxi", "shazhu")
INT_OPTIONS = {"double_threshold": (13, 0), "double_factor": (2, 1), "dealer_multiplier": (2, 1),
               "dealer_pair_multiplier": (2, 0)}  # key: (default, minimum)
BOOL_OPTIONS = {"shazhu_losers_settle": True, "sifeng_baopei": False}


@dataclass(frozen=True, slots=True)
class Options:
    values: dict[str, Any]  # item key → value
    double_threshold: int
    double_factor: int
    dealer_multiplier: int
    dealer_pair_multiplier: int
    shazhu_losers_settle: bool
    sifeng_baopei: bool
    eight_flowers: str
    seat_base: Grouped  # the switched-on rules by scope, in table order
    shape_base: Active
    shape_all: Active
    win_bonus: Active
    win_bonus_for: dict[WinKind, Active]  # ``win_bonus`` by win kind (``Rule.kinds``)
    loser_fast: bool  # every active B rule is covered by ``loser.score_loser_fast``

    def doubled(self, total: int) -> int:
        """W: the winner's T doubled (× ``double_factor``) from ``double_threshold`` 台 on (docs/rules/taipao.md#total)."""
        return total * self.double_factor if total >= self.double_threshold else total


def option_defaults() -> dict[str, Any]:
    """Every scoring option of 台炮 with its default (docs/rules/taipao.md#scoring, docs/rules/timing.md#room-options)."""
    out: dict[str, Any] = {r.key: r.default for r in RULES}
    out.update({k: d for k, (d, _) in INT_OPTIONS.items()})
    out.update(BOOL_OPTIONS)
    out["eight_flowers"] = "off"
    return out


def known_keys() -> frozenset[str]:
    """Every scoring option key of 台炮: the items of ``RULES`` and the settlement options."""
    return frozenset({r.key for r in RULES} | set(INT_OPTIONS) | set(BOOL_OPTIONS) | {"eight_flowers"})


def _value(key: str, default: int | tuple[int, ...], value: object) -> int | tuple[int, ...]:
    if isinstance(default, int):
        return check_int(key, value)
    if not isinstance(value, list | tuple) or len(value) != len(default):
        raise ValueError(f"option {key!r} must be a list of {len(default)} integers, got {value!r}")
    return tuple(check_int(key, x) for x in value)


def build(options: Mapping[str, Any]) -> Options:
    """The room's options checked and resolved (no cache: ``resolve`` caches); ValueError names a bad one."""
    check_known("taipao", options, known_keys(), label="台炮")
    values: dict[str, Any] = {}
    for r in RULES:
        if r.key in options:
            values[r.key] = _value(r.key, r.default, options[r.key])
        else:
            values[r.key] = r.default
    if "shazhuhu" not in options:
        values["shazhuhu"] = values["shazhu"]
    ints = {k: check_int(k, options.get(k, d), low) for k, (d, low) in INT_OPTIONS.items()}
    bools = {k: check_bool(k, options.get(k, d)) for k, d in BOOL_OPTIONS.items()}
    eight = options.get("eight_flowers", "off")
    if eight not in EIGHT_FLOWER_MODES:
        raise ValueError(f"option 'eight_flowers' must be one of {list(EIGHT_FLOWER_MODES)}, got {eight!r}")
    seat_base = grouped(RULES.active(values, by_scope(RULES, SEAT, BASE)))
    shape_base = RULES.active(values, by_scope(RULES, SHAPE, BASE))
    win_bonus = RULES.active(values, by_scope(RULES, WIN, BONUS))
    return Options(
        values=values,
        double_threshold=ints["double_threshold"],
        double_factor=ints["double_factor"],
        dealer_multiplier=ints["dealer_multiplier"],
        dealer_pair_multiplier=ints["dealer_pair_multiplier"],
        shazhu_losers_settle=bools["shazhu_losers_settle"],
        sifeng_baopei=bools["sifeng_baopei"],
        eight_flowers=eight,
        seat_base=seat_base,
        shape_base=shape_base,
        shape_all=RULES.active(values, by_scope(RULES, SHAPE)),
        win_bonus=win_bonus,
        win_bonus_for={k: for_kind(win_bonus, k) for k in WinKind},
        loser_fast=covers(seat_base, shape_base),
    )


def _frozen(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return tuple((type(x).__name__, x) for x in v)
    return v


_CACHE: dict[tuple[Any, ...], Options] = {}


_LAST: list[tuple[tuple[tuple[str, Any], ...], tuple[type, ...], Options]] = []


def resolve(options: Mapping[str, Any]) -> Options:
    """The room's options, validated once per distinct set of overrides."""
    # fast path: the same overrides as the previous call (values compared by type and equality)
    items = tuple(options.items())
    types = tuple([type(v) for _, v in items])
    if _LAST:
        last_items, last_types, last = _LAST[0]
        try:
            if types == last_types and items == last_items:
                return last
        except TypeError:  # pragma: no cover - values that refuse comparison
            pass
    try:
        key = tuple(sorted(
            (k, type(v).__name__, _frozen(v)) for k, v in options.items()
        ))
        got = _CACHE.get(key)
    except TypeError:  # unhashable values: validate (and reject) without caching
        return build(options)
    if got is None:
        got = build(options)
        if len(_CACHE) < 256:
            _CACHE[key] = got
    if all(isinstance(v, _SCALARS) for _, v in items):
        _LAST[:] = [(items, types, got)]
    return got


_SCALARS = (int, float, str, bool, type(None))
