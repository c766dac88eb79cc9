"""A table of named scoring rules with data-driven exclusions (規則表).

Each rule is a small function registered with its stable ASCII key (its names are looked up in
``engine.scoring.names``), default value and unit; it returns how many times the item applies to a hand (0 = not at all).  A rule's ``replaces`` names
the items it supersedes when it applies (e.g. 門清自摸 replaces 門清 and 自摸).  Every value is overridable
by the room option with the same key.  Shared by the 天台 and 台灣 scorers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.scoring.names import ItemName, item_name
from engine.scoring.result import ScoreItem
from engine.scoring.situation import Situation

F = TypeVar("F")


@dataclass(frozen=True, slots=True)
class Rule(Generic[F]):
    key: str
    names: ItemName
    default: int
    unit: str
    count: Callable[[F], int]
    replaces: tuple[str, ...] = ()


class RuleTable(Generic[F]):
    """An ordered registry of rules over one feature type ``F``."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.rules: list[Rule[F]] = []

    def rule(
        self, key: str, default: int, unit: str, replaces: tuple[str, ...] = ()
    ) -> Callable[[Callable[[F], int]], Callable[[F], int]]:
        """Register a rule under ``key``; its names come from ``engine.scoring.names`` (KeyError if none)."""
        names = item_name(self.variant, key)

        def register(fn: Callable[[F], int]) -> Callable[[F], int]:
            if any(r.key == key for r in self.rules):
                raise ValueError(f"duplicate rule key {key!r}")
            self.rules.append(Rule(key, names, default, unit, fn, replaces))
            return fn

        return register

    def __iter__(self) -> Iterator[Rule[F]]:
        return iter(self.rules)

    def defaults(self) -> dict[str, int]:
        return {r.key: r.default for r in self.rules}

    def active(self, values: Mapping[str, int]) -> tuple[tuple[Rule[F], int], ...]:
        """(rule, value) for the rules the room has not switched off (value 0), in table order."""
        return tuple((r, values[r.key]) for r in self.rules if values[r.key])

    @staticmethod
    def hits(features: F, active: tuple[tuple[Rule[F], int], ...]) -> list[tuple[Rule[F], int]]:
        """(rule, total value) for every applying rule that no other applying rule replaces."""
        found: list[tuple[Rule[F], int]] = []
        dropped: set[str] = set()
        for r, v in active:
            n = r.count(features)
            if n:
                found.append((r, n * v))
                if r.replaces:
                    dropped.update(r.replaces)
        if dropped:
            return [(r, v) for r, v in found if r.key not in dropped]
        return found


def items_of(hits: list[tuple[Rule[F], int]]) -> tuple[ScoreItem, ...]:
    return tuple(ScoreItem(r.key, r.names, v, r.unit) for r, v in hits)


def total(hits: list[tuple[Rule[F], int]], unit: str) -> int:
    return sum(v for r, v in hits if r.unit == unit)


def play_option_keys(variant: str) -> frozenset[str]:
    """Room options of the play rules (timers, rounds...), passed through to scorers and ignored there."""
    try:
        from engine.variants import find_variant
    except ImportError:  # pragma: no cover - the play layer is optional for the scorer
        return frozenset()
    return frozenset(find_variant(variant).all_options())


def check_int(key: str, value: object, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"option {key!r} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"option {key!r} must be ≥ {low}, got {value!r}")
    return value


def check_bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"option {key!r} must be true or false, got {value!r}")
    return value


def check_known(variant: str, options: Mapping[str, object], known: frozenset[str]) -> None:
    unknown = set(options) - known - play_option_keys(variant)
    if unknown:
        raise ValueError(
            f"unknown {variant} scoring option(s) {sorted(unknown)}; known: {sorted(known)}"
        )


Opts = TypeVar("Opts")


class OptionCache(Generic[Opts]):
    """Resolve a room's options once per distinct set: ``build`` turns (key, value) pairs into the
    scorer's options; an empty mapping is the defaults.  Shared by the 天台 and 台灣 scorers."""

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


def check_winner_tiles(s: Situation, w: int, hand_tiles: int, variant: str) -> None:
    """The winner holds a whole hand (kongs counted as 3) that contains the winning tile."""
    seat = s.seats[w]
    n = len(seat.concealed) + 3 * len(seat.melds)
    if n != hand_tiles:
        raise ValueError(f"winner seat {w} has {n} tiles (kongs counted as 3); a {variant} win needs {hand_tiles}")
    if s.winning_tile is None:
        if not s.heavenly:
            raise ValueError("winning_tile is required for a win (except 天胡)")
    elif s.winning_tile not in seat.concealed:
        raise ValueError(f"winner seat {w}: the winning tile {s.winning_tile} is not among the concealed tiles")

