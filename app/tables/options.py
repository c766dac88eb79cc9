"""Table options (app.game.variants, what players set) → engine options (play rules and scorers)."""

from __future__ import annotations

from typing import Any

from app.game.variants import Variant

# (table option, engine option, value converter); options not listed keep their name and value.
_RENAMES: dict[Variant, tuple[tuple[str, str, Any], ...]] = {
    Variant.TIANTAI: (),
    Variant.TAIPAO: (
        ("eight_flower_win", "eight_flowers", lambda on: "lingxi" if on else "off"),
        ("four_winds_pay_all", "sifeng_baopei", bool),
    ),
    Variant.TAIWAN: (
        ("base_points", "di", int),
        ("tai_points", "tai_value", int),
        ("lone_wait", "single_wait", lambda on: 1 if on else 0),
        ("last_discard_win", "last_discard", lambda on: 1 if on else 0),
    ),
}
_COMMON = (("turn_seconds", "discard_seconds", float),)


def engine_options(variant: Variant, options: dict[str, Any]) -> dict[str, Any]:
    out = dict(options)
    for table_key, engine_key, convert in (*_COMMON, *_RENAMES[variant]):
        if table_key in out:
            out[engine_key] = convert(out.pop(table_key))
    return out
