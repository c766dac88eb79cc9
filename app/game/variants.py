"""The three variants and the table options a player may set when opening a table (docs/rules/timing.md#room-options).

The options themselves are the engine's (``engine.options``): every timer, toggle and 台 / 胡 value, with its
default.  A table's options are the defaults overlaid with what the player sent; an unknown name or a bad value
is refused, never silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.services.errors import ErrorCode, InvalidInput
from engine import options as engine_options
from engine.variants import Option, OptionError


class VariantKey(StrEnum):
    """Which of the three variants (玩法) a table plays: the key the API, the database and the engine's
    ``find_variant`` share.  The engine's rule set for it is ``engine.variants.Variant``."""

    TIANTAI = "tiantai"  # 天台麻將, 3 players
    TAIPAO = "taipao"  # 台炮麻将, 4 players
    TAIWAN = "taiwan"  # 台灣16張, 4 players


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """What the server shows and seats for a variant: its name, seat count and discard row."""

    key: VariantKey
    name: str
    seats: int
    discard_row: int = 6  # 牌池: discards laid left to right, a new row after this many (seed 000: 10 for 天台)


VARIANT_INFO: dict[VariantKey, VariantInfo] = {
    VariantKey.TIANTAI: VariantInfo(VariantKey.TIANTAI, "天台麻將", seats=3, discard_row=10),
    VariantKey.TAIPAO: VariantInfo(VariantKey.TAIPAO, "台炮麻将", seats=4),
    VariantKey.TAIWAN: VariantInfo(VariantKey.TAIWAN, "台灣16張", seats=4),
}


class TableOptionError(InvalidInput):
    """A table option (房間設定) the server does not accept; the message is shown to the player.

    The engine's ``OptionError`` says why the rules refuse it; this is that refusal as a typed client error.
    """


_OPTION_CODES = {"unknown": ErrorCode.UNKNOWN_OPTION, "type": ErrorCode.OPTION_WRONG_TYPE,
                 "range": ErrorCode.OPTION_OUT_OF_RANGE, "inconsistent": ErrorCode.OPTIONS_INCONSISTENT}


def option_specs(variant: VariantKey) -> dict[str, Option]:
    """Every option a table of this variant accepts: the engine's play options and scoring values."""
    return engine_options.option_specs(variant.value)


def default_options(variant: VariantKey) -> dict[str, Any]:
    """Every option of this variant at its default: what a table gets when the player sets nothing."""
    return engine_options.option_defaults(variant.value)


def validate_options(variant: VariantKey, options: dict[str, Any]) -> dict[str, Any]:
    """The table's full options: every default overlaid with ``options``, checked by the engine's play
    rules and scorer (docs/rules/timing.md#room-options).  Raises TableOptionError naming the bad option."""
    try:
        resolved = engine_options.resolve_room_options(variant.value, options)
    except OptionError as exc:
        raise TableOptionError(str(exc), _OPTION_CODES[exc.problem], **exc.params) from None
    except ValueError as exc:  # a scorer's own check (a value its table cannot take)
        raise TableOptionError(str(exc), ErrorCode.OPTIONS_INCONSISTENT) from None
    return default_options(variant) | resolved
