"""台灣 room options (docs/rules/taiwan.md#payment, docs/rules/rooms.md#points, docs/rules/timing.md#room-options) with their defaults and checks."""

from __future__ import annotations

from dataclasses import dataclass

from engine.scoring.option_checks import OptionCache, check_bool, check_int
from engine.scoring.rule_table import CountedRule
from engine.scoring.taiwan.features import Shape
from engine.scoring.taiwan.rules import RULES

# Items outside the shape table: flower wins (exclusive), dealer 台 and the 眼牌 penalty.
SPECIAL_ITEMS = {  # items outside the rule table, with their default 台 (names: engine.scoring.names)
    "eight_flowers": 8,  # 八仙過海, docs/rules/taiwan.md#eight-immortals
    "seven_rob_one": 8,  # 七搶一, docs/rules/taiwan.md#seven-rob-one
    "dealer": 1,  # 莊家, docs/rules/taiwan.md#dealer-tai
    "dealer_streak": 2,  # 連莊, per streak n: 莊家 + 連莊 = 1 + 2n
    "eye_penalty": 1,  # 眼牌罰台, docs/rules/taiwan.md#eye: paid by a non-winning declarer
}
STAKE_DEFAULTS: dict[str, object] = {
    "di": 5,  # 底, in points (docs/rules/rooms.md#points)
    "tai_value": 1,  # 台價, points per 台 (docs/rules/rooms.md#points)
    "accept_eye_declaration": True,  # C-10: False = 不接受眼牌 (no 眼牌 / Miji)
}
OPTION_DEFAULTS: dict[str, object] = {
    **RULES.defaults(),
    **SPECIAL_ITEMS,
    **STAKE_DEFAULTS,
}
KNOWN = frozenset(OPTION_DEFAULTS)


@dataclass(frozen=True)
class Options:
    values: dict[str, int]  # every 台 item (table and special) → value
    di: int
    tai_value: int
    accept_eye_declaration: bool
    active: tuple[tuple[CountedRule[Shape], int], ...]  # the table's rules switched on, with their values


def _build(items: tuple[tuple[str, object], ...]) -> Options:
    raw = {**OPTION_DEFAULTS, **dict(items)}
    values = {k: check_int(k, raw[k]) for k in (*RULES.defaults(), *SPECIAL_ITEMS)}
    return Options(
        values=values,
        di=check_int("di", raw["di"]),
        tai_value=check_int("tai_value", raw["tai_value"]),
        accept_eye_declaration=check_bool("accept_eye_declaration", raw["accept_eye_declaration"]),
        active=RULES.active(values),
    )


_OPTIONS = OptionCache("taiwan", KNOWN, _build)
DEFAULT = _OPTIONS.default
resolve = _OPTIONS.resolve
