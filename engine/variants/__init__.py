"""The three rule sets, found by name."""

from __future__ import annotations

from engine.variants.base import Option, OptionError, PassLock, Variant, WallEnd
from engine.variants.taipao import TAIPAO
from engine.variants.taiwan import TAIWAN
from engine.variants.tiantai import TIANTAI

VARIANTS: dict[str, Variant] = {v.name: v for v in (TIANTAI, TAIPAO, TAIWAN)}


def find_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; expected one of {sorted(VARIANTS)}") from None


__all__ = ["Option", "OptionError", "PassLock", "VARIANTS", "Variant", "WallEnd", "find_variant"]
