"""Checks of a room's scoring options (房間設定), shared by the three scorers.

A scorer turns the room's option overrides into its own options record once per distinct set
(``OptionCache``); each value is checked with ``check_int`` / ``check_bool``, and a key that neither the
scorer nor the variant's play rules know is refused (``check_known``).  Every failure is a ValueError
naming the option.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

Opts = TypeVar("Opts")


def play_option_keys(variant: str) -> frozenset[str]:
    """Room options of the play rules (timers, rounds...): they reach the scorer too, which ignores them."""
    try:
        from engine.variants import find_variant
    except ImportError:  # pragma: no cover - the play layer is optional for the scorer
        return frozenset()
    return frozenset(find_variant(variant).all_options())


def check_int(key: str, value: object, low: int = 0) -> int:
    """``value`` of option ``key`` as an integer ≥ ``low`` (a bool is not one); ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"option {key!r} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"option {key!r} must be ≥ {low}, got {value!r}")
    return value


def check_bool(key: str, value: object) -> bool:
    """``value`` of option ``key`` as true or false; ValueError otherwise."""
    if not isinstance(value, bool):
        raise ValueError(f"option {key!r} must be true or false, got {value!r}")
    return value


def check_known(variant: str, options: Mapping[str, object], known: frozenset[str], label: str = "") -> None:
    """Every key of ``options`` is a scoring option (``known``) or a play option of ``variant``; else a
    ValueError naming the unknown ones (the variant called ``label`` in the message, default its key)."""
    unknown = set(options) - known
    if unknown and (unknown := unknown - play_option_keys(variant)):
        raise ValueError(
            f"unknown {label or variant} scoring option(s) {sorted(unknown)}; known: {sorted(known)}"
        )


class OptionCache(Generic[Opts]):
    """Resolve a room's options once per distinct set: ``build`` turns (key, value) pairs into the
    scorer's options; an empty mapping is the defaults.  Used by the 天台 and 台灣 scorers."""

    def __init__(self, variant: str, known: frozenset[str],
                 build: Callable[[tuple[tuple[str, object], ...]], Opts]) -> None:
        self.variant, self.known, self.build = variant, known, build
        self.default = build(())
        self._cache: dict[tuple[tuple[str, str, object], ...], Opts] = {}

    def resolve(self, options: Mapping[str, object]) -> Opts:
        """The effective options; ValueError for an unknown key or a bad value."""
        if not options:
            return self.default
        check_known(self.variant, options, self.known)
        # the type name keeps True apart from 1 in the cache key
        key = tuple(sorted((k, type(v).__name__, v) for k, v in options.items() if k in self.known))
        try:
            found = self._cache.get(key)
        except TypeError:
            raise ValueError(f"option values must be scalars, got {dict(options)!r}") from None
        if found is None:
            if len(self._cache) > 256:
                self._cache.clear()
            found = self._cache[key] = self.build(tuple((k, v) for k, _, v in key))
        return found
