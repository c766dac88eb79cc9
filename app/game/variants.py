"""The three variants and the table options a player may set when opening a table (RULES.md §8).

Each option has a spec (type, default, range or choices).  A table's options are the defaults overlaid with
what the player sent; an unknown name or a bad value is refused, never silently dropped.

Extending: when the engine publishes its own option defaults (every 台/胡 value is a room option), make
``default_options`` merge them in and add their specs to ``VARIANT_OPTIONS``; nothing else here changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Variant(StrEnum):
    TIANTAI = "tiantai"  # 天台麻將, 3 players
    TAIPAO = "taipao"  # 台炮麻将, 4 players
    TAIWAN = "taiwan"  # 台灣16張, 4 players


@dataclass(frozen=True, slots=True)
class VariantInfo:
    key: Variant
    name: str
    seats: int


VARIANTS: dict[Variant, VariantInfo] = {
    Variant.TIANTAI: VariantInfo(Variant.TIANTAI, "天台麻將", seats=3),
    Variant.TAIPAO: VariantInfo(Variant.TAIPAO, "台炮麻将", seats=4),
    Variant.TAIWAN: VariantInfo(Variant.TAIWAN, "台灣16張", seats=4),
}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    kind: type  # bool, int or float
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] | None = None

    def check(self, name: str, value: Any) -> Any:
        # bool is a subclass of int in Python; `rounds: true` must not pass as 1.
        if self.kind is bool:
            ok = isinstance(value, bool)
        elif self.kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok:
            raise OptionError(f"option {name!r} must be a {self.kind.__name__}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(f"option {name!r} must be one of {list(self.choices)}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {name!r} must be at least {self.minimum:g}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {name!r} must be at most {self.maximum:g}")
        return self.kind(value)


class OptionError(ValueError):
    """A table option the server does not accept; the message is shown to the player."""


# Options every variant has.  rounds = 圈 per game.
COMMON_OPTIONS: dict[str, OptionSpec] = {
    "rounds": OptionSpec(int, 4, minimum=1, maximum=4),
    "turn_seconds": OptionSpec(int, 30, minimum=5, maximum=120),
}

# The allow-list per variant, with RULES.md defaults.
VARIANT_OPTIONS: dict[Variant, dict[str, OptionSpec]] = {
    Variant.TIANTAI: {
        "claim_seconds": OptionSpec(int, 3, minimum=1, maximum=30),
        "cap": OptionSpec(int, 300, choices=(100, 200, 300)),
        "discard_multiplier": OptionSpec(float, 1.5, choices=(1.0, 1.5)),
        "draw_keeps_dealer_if_no_kong": OptionSpec(bool, False),
    },
    Variant.TAIPAO: {
        "claim_seconds": OptionSpec(int, 10, minimum=1, maximum=30),
        "eight_flower_win": OptionSpec(bool, False),
        "four_winds_pay_all": OptionSpec(bool, False),  # 四风齐包赔
    },
    Variant.TAIWAN: {
        "claim_seconds": OptionSpec(int, 10, minimum=1, maximum=30),
        "base_points": OptionSpec(int, 5, minimum=1, maximum=100),  # 底
        "tai_points": OptionSpec(int, 1, minimum=1, maximum=100),  # 台
        "accept_eye_declaration": OptionSpec(bool, True),  # 眼牌 and Miji
        "lone_wait": OptionSpec(bool, False),  # 獨聽, 1 台
        "last_discard_win": OptionSpec(bool, False),  # 河底撈魚, 1 台
    },
}


def option_specs(variant: Variant) -> dict[str, OptionSpec]:
    return COMMON_OPTIONS | VARIANT_OPTIONS[variant]


def default_options(variant: Variant) -> dict[str, Any]:
    return {name: spec.default for name, spec in option_specs(variant).items()}


def validate_options(variant: Variant, options: dict[str, Any]) -> dict[str, Any]:
    """The table's full options: defaults overlaid with ``options``.  Raises OptionError."""
    specs = option_specs(variant)
    unknown = sorted(set(options) - set(specs))
    if unknown:
        raise OptionError(f"unknown option(s) for {variant.value}: {', '.join(unknown)}")
    return default_options(variant) | {name: specs[name].check(name, value) for name, value in options.items()}
