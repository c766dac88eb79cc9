"""Room options (房間設定): the play options of a variant and every 台 / 胡 value of its scorer.

RULES.md §8: every number and toggle is an option with its default, and seed 003 says
"若非常用台數，請自訂台數". A room sends overrides; ``resolve_room_options`` checks them against both the
play rules and the scorer (unknown keys and bad values raise ``ValueError``) and returns the full set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from engine.variants import Option, OptionError, find_variant


def _scorer_options(variant: str) -> Any:
    return import_module(f"engine.scoring.{variant}.options")


def _scorer_defaults(variant: str) -> dict[str, Any]:
    module = _scorer_options(variant)
    defaults: dict[str, Any] | Callable[[], dict[str, Any]] = (
        module.option_defaults if hasattr(module, "option_defaults") else module.OPTION_DEFAULTS)
    return dict(defaults() if callable(defaults) else defaults)


def option_defaults(variant: str) -> dict[str, Any]:
    """Every option of the variant, play and scoring, with its default."""
    v = find_variant(variant)
    scoring = _scorer_defaults(variant)
    play = {k: o.default for k, o in v.all_options().items()}
    return {**scoring, **play}


def option_specs(variant: str) -> dict[str, Option]:
    """Every option with its type and default; play options also carry their ranges and a doc line.

    Scoring values are checked by the scorer itself (``resolve_room_options``); their 台 / 胡 meaning
    is in docs/scoring.md.
    """
    play = find_variant(variant).all_options()
    scoring = {k: Option(d, type(d), doc="scoring value (docs/scoring.md)")
               for k, d in _scorer_defaults(variant).items() if k not in play}
    return {**scoring, **play}


def resolve_room_options(variant: str, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """The defaults with the room's overrides, checked by the play rules and by the scorer."""
    v = find_variant(variant)
    merged = v.resolve_options(overrides)
    known = set(_scorer_defaults(variant)) | set(v.all_options())
    unknown = sorted(set(overrides or {}) - known)
    if unknown:
        raise OptionError(f"unknown option(s) for {variant}: {', '.join(unknown)}", "unknown",
                          variant=variant, option=unknown[0])
    _scorer_options(variant).resolve(merged)
    return merged
