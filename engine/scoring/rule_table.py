"""The rule table (規則表): every variant's scoring items as one ordered registry of small named rules.

A rule is one scoring item (計分項目), written as one small function and registered with its stable ASCII
``key`` (also its room-option key; its 繁體 / 简体 / English names come from ``engine.scoring.names``), its
default value, and ``replaces``: the items it supersedes when it applies (e.g. 門清自摸 replaces 門清 and
自摸).  Every value is a room option under the rule's key; 0 switches the item off.

``RuleTable`` is the one registry type.  What a rule reads differs by variant, so the table is generic over
its rule record:

* ``CountedRule`` (天台, 台灣): the function counts how many times the item applies to one reading of the
  hand; the item scores that count times its value (``counted_rule``, ``counted_hits``);
* 台炮 keeps its own record (``engine.scoring.taipao.table.Rule``: layers B / X, scopes) in a
  ``RuleTable`` of the same type, and shares ``drop_replaced``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.scoring.names import ItemName, item_name
from engine.scoring.result import ScoreItem


class ScoringRule(Protocol):
    """What every rule record has: its key, its names, its default value, its unit (``"tai"`` 台 or
    ``"hu"`` 胡) and the items it replaces."""

    @property
    def key(self) -> str: ...

    @property
    def names(self) -> ItemName: ...

    @property
    def default(self) -> Any: ...

    @property
    def unit(self) -> str: ...

    @property
    def replaces(self) -> tuple[str, ...]: ...


R = TypeVar("R", bound=ScoringRule)
F = TypeVar("F")


class RuleTable(Generic[R]):
    """An ordered registry of one variant's scoring rules (規則表), in display order; keys are unique."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.rules: list[R] = []

    def names_of(self, key: str) -> ItemName:
        """The names of item ``key`` of this variant, from ``engine.scoring.names`` (KeyError if none)."""
        return item_name(self.variant, key)

    def add(self, rule: R) -> R:
        """Append ``rule``; ValueError if its key is taken."""
        if any(r.key == rule.key for r in self.rules):
            raise ValueError(f"duplicate rule key {rule.key!r}")
        self.rules.append(rule)
        return rule

    def __iter__(self) -> Iterator[R]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def defaults(self) -> dict[str, Any]:
        """Every item key → its default value, in table order."""
        return {r.key: r.default for r in self.rules}

    def active(self, values: Mapping[str, Any], rules: Iterable[R] | None = None) -> tuple[tuple[R, Any], ...]:
        """(rule, room value) for the rules (default: all of them) the room has not switched off (value 0),
        in table order."""
        return tuple((r, values[r.key]) for r in (self.rules if rules is None else rules) if values[r.key])


def drop_replaced(hits: list[tuple[R, Any]]) -> list[tuple[R, Any]]:
    """Remove from (rule, value) ``hits`` the items that another hit replaces (e.g. 清一色 replaces 混一色)."""
    dropped = [k for r, _ in hits if r.replaces for k in r.replaces]
    if not dropped:
        return hits
    return [(r, v) for r, v in hits if r.key not in dropped]


# -- counted rules (天台, 台灣) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CountedRule(Generic[F]):
    """A scoring item that applies ``count(features)`` times to one reading of the hand (0 = not at all);
    it scores that count times the room's value, in ``unit`` (胡 or 台)."""

    key: str
    names: ItemName
    default: int
    unit: str
    count: Callable[[F], int]
    replaces: tuple[str, ...] = ()



def counted_rule(
    table: RuleTable[CountedRule[F]],
) -> Callable[..., Callable[[Callable[[F], int]], Callable[[F], int]]]:
    """The decorator that registers a counted rule in ``table``:
    ``@rule(key, default, unit, replaces=())`` over ``def item(features) -> int``."""

    def rule(
        key: str, default: int, unit: str, replaces: tuple[str, ...] = ()
    ) -> Callable[[Callable[[F], int]], Callable[[F], int]]:
        names = table.names_of(key)

        def register(fn: Callable[[F], int]) -> Callable[[F], int]:
            table.add(CountedRule(key, names, default, unit, fn, replaces))
            return fn

        return register

    return rule


def counted_hits(
    features: F, active: Sequence[tuple[CountedRule[F], int]]
) -> list[tuple[CountedRule[F], int]]:
    """(rule, count × value) for every active rule that applies to ``features`` and that no other applying
    rule replaces, in table order."""
    found: list[tuple[CountedRule[F], int]] = []
    replacing = False
    for r, v in active:
        n = r.count(features)
        if n:
            found.append((r, n * v))
            replacing = replacing or bool(r.replaces)
    return drop_replaced(found) if replacing else found


def items_of(hits: Iterable[tuple[CountedRule[Any], int]]) -> tuple[ScoreItem, ...]:
    """The score items (計分項目) of counted ``hits``, each with its names, value and unit."""
    return tuple(ScoreItem(r.key, r.names, v, r.unit) for r, v in hits)
