"""The scoring machinery the three variants share (issue 31): one rule registry (engine.scoring.rule_table) and
one set of option checks (engine.scoring.option_checks)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.scoring.option_checks import OptionCache, check_bool, check_int, check_known
from engine.scoring.result import ScoreItem
from engine.scoring.rule_table import (
    CountedRule,
    RuleTable,
    counted_hits,
    counted_rule,
    drop_replaced,
    items_of,
)
from engine.scoring.taipao.rules import RULES as TAIPAO_RULES
from engine.scoring.taiwan.rules import RULES as TAIWAN_RULES
from engine.scoring.tiantai.rules import RULES as TIANTAI_RULES


@pytest.mark.parametrize("variant, rules", [("tiantai", TIANTAI_RULES), ("taipao", TAIPAO_RULES),
                                            ("taiwan", TAIWAN_RULES)])
def test_every_variant_registers_its_items_in_one_registry_type(variant, rules):
    assert isinstance(rules, RuleTable) and rules.variant == variant
    keys = [r.key for r in rules]
    assert len(keys) == len(set(keys)) == len(rules) > 0
    assert rules.defaults() == {r.key: r.default for r in rules}
    assert all(r.unit in ("tai", "hu") for r in rules)
    known = set(keys)
    assert all(set(r.replaces) <= known for r in rules), "a rule replaces an item its table does not have"


@dataclass(frozen=True)
class Hand:
    pungs: int
    flush: bool


def _table() -> RuleTable[CountedRule[Hand]]:
    # real taiwan keys, so their names come from engine.scoring.names
    table: RuleTable[CountedRule[Hand]] = RuleTable("taiwan")
    rule = counted_rule(table)
    rule("dragon", 1, "tai")(lambda h: h.pungs)
    rule("half_flush", 4, "tai")(lambda h: int(h.flush))
    rule("full_flush", 8, "tai", replaces=("half_flush",))(lambda h: int(h.flush and h.pungs == 0))
    return table


def test_a_key_is_registered_once_and_must_have_names():
    table = _table()
    with pytest.raises(ValueError, match="duplicate rule key 'dragon'"):
        counted_rule(table)("dragon", 2, "tai")(lambda h: 1)
    with pytest.raises(KeyError):
        counted_rule(table)("no_such_item", 1, "tai")
    assert len(table) == 3


def test_active_keeps_table_order_and_skips_items_switched_off():
    table = _table()
    values = {"dragon": 2, "half_flush": 0, "full_flush": 8}
    assert [(r.key, v) for r, v in table.active(values)] == [("dragon", 2), ("full_flush", 8)]
    only = [r for r in table if r.key != "dragon"]
    assert [(r.key, v) for r, v in table.active(values, only)] == [("full_flush", 8)]


def test_counted_hits_multiply_the_count_and_drop_what_is_replaced():
    table = _table()
    active = table.active(table.defaults())
    assert [(r.key, v) for r, v in counted_hits(Hand(pungs=2, flush=True), active)] == [
        ("dragon", 2), ("half_flush", 4)]
    assert [(r.key, v) for r, v in counted_hits(Hand(pungs=0, flush=True), active)] == [("full_flush", 8)]
    assert counted_hits(Hand(pungs=0, flush=False), active) == []
    hits = counted_hits(Hand(pungs=1, flush=False), active)
    assert items_of(hits) == (ScoreItem("dragon", table.names_of("dragon"), 1, "tai"),)


def test_drop_replaced_keeps_the_hits_when_nothing_replaces():
    rules = {r.key: r for r in _table()}
    plain = [(rules["dragon"], 1), (rules["half_flush"], 4)]
    assert drop_replaced(plain) is plain
    assert drop_replaced([*plain, (rules["full_flush"], 8)]) == [(rules["dragon"], 1), (rules["full_flush"], 8)]


def test_option_values_are_checked_by_type_and_range():
    assert check_int("di", 0) == 0
    with pytest.raises(ValueError, match="'di' must be an integer"):
        check_int("di", True)
    with pytest.raises(ValueError, match="'cap' must be ≥ 10"):
        check_int("cap", 5, low=10)
    assert check_bool("sifeng_baopei", False) is False
    with pytest.raises(ValueError, match="true or false"):
        check_bool("sifeng_baopei", 0)


def test_unknown_options_are_refused_but_play_options_pass():
    known = frozenset({"di"})
    check_known("taiwan", {"di": 1, "discard_seconds": 30}, known)  # a play option reaches the scorer too
    with pytest.raises(ValueError, match=r"unknown 台灣 scoring option\(s\) \['nope'\]"):
        check_known("taiwan", {"nope": 1}, known, label="台灣")


def test_option_cache_builds_once_per_distinct_set():
    built: list[tuple[tuple[str, object], ...]] = []

    def build(items: tuple[tuple[str, object], ...]) -> dict[str, object]:
        built.append(items)
        return {"di": 5, **dict(items)}

    cache = OptionCache("taiwan", frozenset({"di"}), build)
    assert cache.resolve({}) is cache.default
    first = cache.resolve({"di": 1})
    assert cache.resolve({"di": 1}) is first and first == {"di": 1}
    assert cache.resolve({"di": True}) is not first  # True is not 1
    assert built == [(), (("di", 1),), (("di", True),)]
    with pytest.raises(ValueError, match="scalars"):
        cache.resolve({"di": [1]})
