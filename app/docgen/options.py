"""docs/options.md: every table option of every variant, from ``engine.options.option_table``."""

from __future__ import annotations

import json
from typing import Any

from app.docgen.note import GENERATED_NOTE
from app.game.rooms import ROOMS
from app.game.variants import VARIANT_INFO
from engine import options as engine_options
from engine.variants import Option

INTRO = """\
# Table options

{note}

`POST /api/rooms/{{room}}/tables` and `POST /api/practice` take `{{"variant": …, "options": {{…}}}}`; every
option left out keeps its default.  An unknown name is `unknown_option`; a wrong type is `option_wrong_type`;
a value outside its range or choices is `option_out_of_range` with `params` naming the option and its
`minimum` / `maximum` or `choices` (docs/errors.md).  `GET /api/variants` publishes this same table.  The
engine's `Match` enforces it too.  Floats must be finite; a list option takes exactly `length` integers, each
within the range.

Bounds on the scoring values keep the largest payment of one hand (the *payment bound* below, in points; coins
= points × the room's coins per point, at most {max_cpp}) far inside the ledger's 64-bit integers.
"""


def _allowed(option: Option) -> str:
    if option.choices:
        return " / ".join(_show(c) for c in option.choices)
    if option.kind is bool:
        return "true / false"
    if option.kind is list:
        return f"{option.length} × {_show(option.low)}–{_show(option.high)}"
    return f"{_show(option.low)}–{_show(option.high)}"


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value, ensure_ascii=False)


def render() -> str:
    max_cpp = max(room.coins_per_point for room in ROOMS.values())
    out = [INTRO.format(note=GENERATED_NOTE.format(source="`engine/options.py`"), max_cpp=max_cpp)]
    for key, info in VARIANT_INFO.items():
        variant = key.value
        out += [f"## {info.name} (`{variant}`)", "",
                f"Payment bound: {engine_options.payment_bound(variant):,} points per payer per hand.", "",
                "| option | type | default | allowed | meaning |", "|---|---|---|---|---|"]
        for name, option in engine_options.option_table(variant).items():
            out.append(f"| `{name}` | {option.type_name} | `{_show(option.default)}` | {_allowed(option)} | "
                       f"{option.doc.replace('|', '/')} |")
        out.append("")
    return "\n".join(out)
