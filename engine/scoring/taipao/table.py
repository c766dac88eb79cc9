"""The 台炮 rules (規則表): one named rule per scoring item, exclusions as data.

The items themselves are registered in ``rules.RULES``, a ``RuleTable`` (``engine.scoring.rule_table``, the
registry all variants share) of this module's ``Rule`` record.  A rule has a stable ASCII ``key`` (also its
room-option key), its ``names`` (from ``engine.scoring.names``), a default value (an int, or a tuple for
items valued by a count: 財神 1-4 tiles, flowers 1-4 per group, 杀猪 level), a ``layer`` and a ``scope``:

* layer ``base`` is B (基础台, every player) and ``bonus`` is X (和家特有台, the winner only), docs/rules/taipao.md#scoring;
* scope ``seat`` reads only the tiles held, ``shape`` one reading of the hand (a split with its 財神
  faces), ``win`` how the hand was won, ``special`` is the whole X of a special win (plain 杀猪, 花胡).

A rule function returns the 台 it scores (0 = it does not apply); ``replaces`` lists items it supersedes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.scoring.names import ItemName
from engine.scoring.rule_table import RuleTable
from engine.scoring.situation import KongKind, WinKind

BASE = "base"
BONUS = "bonus"
SEAT = "seat"
SHAPE = "shape"
WIN = "win"
SPECIAL = "special"


class Win(NamedTuple):
    """How the hand was won."""

    kind: WinKind
    kong_kind: KongKind | None
    kong_tile: int | None
    heavenly: bool
    earthly: bool


@dataclass(frozen=True, slots=True)
class Rule:
    """One 台炮 scoring item: ``fn`` returns the 台 it scores (0 = it does not apply)."""

    key: str
    names: ItemName
    default: int | tuple[int, ...]
    layer: str
    scope: str
    fn: Callable[..., int]
    replaces: tuple[str, ...] = ()
    needs: str = ""  # a field of what the rule reads (Held, Shape or Win) that must be truthy (a fast skip)
    kinds: frozenset[WinKind] = frozenset()  # a win rule that scores only for these win kinds (empty: any)
    order: int = 0  # position in ``RULES`` (display order)
    unit: str = "tai"  # every 台炮 item scores 台


def layered_rule(table: RuleTable[Rule]) -> Callable[..., Callable[[Callable[..., int]], Callable[..., int]]]:
    """The decorator that registers a 台炮 rule in ``table``:
    ``@rule(key, default, layer, scope, replaces=(), needs="", kinds=())`` over the item's function."""

    def rule(
        key: str, default: int | tuple[int, ...], layer: str, scope: str,
        replaces: tuple[str, ...] = (), needs: str = "", kinds: Iterable[WinKind] = (),
    ) -> Callable[[Callable[..., int]], Callable[..., int]]:
        name = table.names_of(key)  # KeyError if engine.scoring.names has none

        def register(fn: Callable[..., int]) -> Callable[..., int]:
            table.add(Rule(key, name, default, layer, scope, fn, replaces, needs, frozenset(kinds), len(table)))
            return fn

        return register

    return rule


def by_scope(rules: Iterable[Rule], scope: str, layer: str | None = None) -> tuple[Rule, ...]:
    """The rules of ``scope`` (and of ``layer``, when given), in table order."""
    return tuple(r for r in rules if r.scope == scope and (layer is None or r.layer == layer))


Hit = tuple[Rule, int]
Active = tuple[tuple[Rule, Any], ...]  # (rule, room value) for the rules a room has switched on


def for_kind(rules: Active, kind: WinKind) -> Active:
    """The win rules that can score for a win of ``kind`` (the others are skipped, see ``Rule.kinds``)."""
    return tuple((r, v) for r, v in rules if not r.kinds or kind in r.kinds)


Grouped = tuple[tuple[str, Active], ...]  # runs of rules that need the same ``Held`` field


def grouped(rules: Active) -> Grouped:
    """``rules`` in runs that need the same ``Held`` field, in table order (``evaluate_held`` skips a run
    whose field is empty)."""
    out: list[tuple[str, list[tuple[Rule, Any]]]] = []
    for r, v in rules:
        if out and out[-1][0] == r.needs:
            out[-1][1].append((r, v))
        else:
            out.append((r.needs, [(r, v)]))
    return tuple((needs, tuple(rs)) for needs, rs in out)


def evaluate_held(groups: Grouped, h: Any) -> list[Hit]:
    """(rule, 台) for every rule that scores on the tiles held; a run whose field is empty is skipped."""
    out: list[Hit] = []
    for needs, rules in groups:
        if needs and not getattr(h, needs):
            continue
        for r, v in rules:
            got = r.fn(h, v)
            if got:
                out.append((r, got))
    return out


def evaluate(rules: Active, h: Any, extra: Any) -> list[Hit]:
    """(rule, 台) for every active rule that scores; ``extra`` is the shape or the win."""
    out: list[Hit] = []
    for r, v in rules:
        if r.needs and not getattr(extra, r.needs):
            continue
        got = r.fn(h, extra, v)
        if got:
            out.append((r, got))
    return out
