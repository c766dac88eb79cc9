"""Issue 8 "Item names": one name per scoring item in 繁體 with 简体 and English beside it, kept as data next to
the item keys (engine.scoring.names) and carried by every ScoreItem and its JSON."""

from __future__ import annotations

import pytest

from engine.scoring.names import ITEM_NAMES, ItemName, item_name
from engine.scoring.taipao.rules import RULES as TAIPAO_RULES
from engine.scoring.taiwan.options import SPECIAL_ITEMS as TAIWAN_SPECIALS
from engine.scoring.taiwan.rules import RULES as TAIWAN_RULES
from engine.scoring.tiantai.rules import RULES as TIANTAI_RULES
from engine.scoring.tiantai.scorer import FLAT_ITEMS as TIANTAI_FLATS

SCORED_KEYS = {
    "tiantai": {r.key for r in TIANTAI_RULES} | set(TIANTAI_FLATS),
    "taipao": {r.key for r in TAIPAO_RULES},
    "taiwan": {r.key for r in TAIWAN_RULES} | set(TAIWAN_SPECIALS),
}
# Characters that exist only in one script: a 繁體 name must not use the left ones, a 简体 name the right ones.
SIMPLIFIED_ONLY = set("杠财汇对风发门张单会齐绿杀猪数连庄罚独听捞鱼过抢几")
TRADITIONAL_ONLY = set("槓財匯對風發門張單會齊綠殺豬數連莊罰獨聽撈魚過搶幾")


@pytest.mark.parametrize("variant", sorted(ITEM_NAMES))
def test_every_scored_item_has_exactly_one_name_entry(variant):
    """Each key a scorer can emit has names, and the table names nothing that is not scored."""
    assert set(ITEM_NAMES[variant]) == SCORED_KEYS[variant]


@pytest.mark.parametrize("variant", sorted(ITEM_NAMES))
def test_names_are_distinct_and_each_column_keeps_to_its_script(variant):
    names = ITEM_NAMES[variant]
    for column in ("zh_hant", "zh_hans", "en"):
        values = [getattr(n, column) for n in names.values()]
        assert len(set(values)) == len(values), f"{variant}: two items share a {column} name"
        assert all(v.strip() == v and v for v in values)
    for key, n in names.items():
        assert not set(n.zh_hant) & SIMPLIFIED_ONLY, (key, n.zh_hant)
        assert not set(n.zh_hans) & TRADITIONAL_ONLY, (key, n.zh_hans)


def test_the_same_win_has_the_same_name_in_every_variant():
    """Issue 8: 搶槓 (台灣) vs 搶槓胡 (天台) and 抢杠胡 beside 財神 (台炮) are one name now."""
    assert item_name("tiantai", "rob_kong") == item_name("taiwan", "rob_kong")
    assert item_name("taipao", "qianggang").zh_hant == item_name("taiwan", "rob_kong").zh_hant == "搶槓胡"
    assert item_name("tiantai", "kong_bloom") == item_name("taiwan", "kong_bloom")
    assert item_name("tiantai", "last_tile") == item_name("taiwan", "last_tile")


def test_regional_terms_follow_the_seeds():
    """简体 names use the seeds' words: 台炮 对对和 / 财神汇 / 杠; 天台 對對胡; 台灣 碰碰胡."""
    assert item_name("taipao", "duiduihe") == ItemName("對對和", "对对和", "All pungs")
    assert item_name("taipao", "caishenhui").zh_hans == "财神汇"
    assert item_name("taipao", "kong").zh_hans == "明杠" and item_name("taipao", "kong").zh_hant == "明槓"
    assert item_name("tiantai", "all_pungs").zh_hant == "對對胡"
    assert item_name("taiwan", "all_pungs").zh_hant == "碰碰胡"


def test_unknown_item_names_both_the_key_and_the_variant():
    with pytest.raises(KeyError, match="'nope'.*'taipao'"):
        item_name("taipao", "nope")
