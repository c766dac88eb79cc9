"""The name of every scoring item (計分項目名稱), per variant, in 繁體, 简体 and English.

Item **keys** are stable ASCII (they are also the room-option keys and what clients match on); the names
are data, kept here next to each key and nowhere else.  The scorers attach them to every ``ScoreItem``, the
protocol sends them (``name`` = 繁體, ``names`` = all three), and ``docs/scoring.md`` lists them.

The 简体 and 繁體 columns are chosen by hand, not converted: regional terms follow the seeds (台炮's seed is
written in 简体 and says 杠 and 对对和; 天台's seed says 槓 and 對對胡; 台灣's says 碰碰胡).  One concept has one
name within a variant, and the same win has the same name across variants (搶槓胡, 槓上開花, 海底撈月).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ItemName:
    """A name in 繁體 (``zh_hant``), 简体 (``zh_hans``) and English (``en``): every scoring item's, and the
    server's room and title names too."""

    zh_hant: str
    zh_hans: str
    en: str

    def to_json(self) -> dict[str, str]:
        """``{"zh_hans": …, "zh_hant": …, "en": …}``: the shape the API serves."""
        return {"zh_hans": self.zh_hans, "zh_hant": self.zh_hant, "en": self.en}


N = ItemName

TIANTAI: dict[str, ItemName] = {
    # 胡數 (docs/rules/tiantai.md#hu-items)
    "base": N("底胡", "底胡", "Base"),
    "exposed_pung": N("明刻", "明刻", "Exposed pung"),
    "exposed_pung_yao": N("明刻(么九字)", "明刻(幺九字)", "Exposed pung of terminals or honours"),
    "concealed_pung": N("暗刻", "暗刻", "Concealed pung"),
    "concealed_pung_yao": N("暗刻(么九字)", "暗刻(幺九字)", "Concealed pung of terminals or honours"),
    "exposed_kong": N("明槓", "明杠", "Exposed kong"),
    "exposed_kong_yao": N("明槓(么九字)", "明杠(幺九字)", "Exposed kong of terminals or honours"),
    "concealed_kong": N("暗槓", "暗杠", "Concealed kong"),
    "concealed_kong_yao": N("暗槓(么九字)", "暗杠(幺九字)", "Concealed kong of terminals or honours"),
    "dragon_pair": N("中發白對", "中发白对", "Dragon pair"),
    "seat_wind_pair": N("座風對", "座风对", "Seat-wind pair"),
    "flower": N("花", "花", "Flower"),
    "self_draw": N("自摸", "自摸", "Self-drawn"),
    "closed_wait": N("卡張", "卡张", "Closed or edge wait"),
    "pair_wait": N("單吊", "单吊", "Pair wait"),
    # 台 (docs/rules/tiantai.md#tai-items)
    "full_flush": N("清一色", "清一色", "Full flush"),
    "half_flush": N("混一色", "混一色", "Half flush"),
    "all_pungs": N("對對胡", "对对胡", "All pungs"),
    "pinghu": N("牌胡", "牌胡", "All chows, two-sided wait"),
    "dragon_pung": N("中發白刻", "中发白刻", "Dragon pung"),
    "seat_wind_pung": N("座風碰槓", "座风碰杠", "Seat-wind pung or kong"),
    "seat_flower": N("正花", "正花", "Seat flower"),
    "flower_set": N("花全套", "花全套", "Complete flower set"),
    "kong_bloom": N("槓上開花", "杠上开花", "Win on a replacement tile"),
    "rob_kong": N("搶槓胡", "抢杠胡", "Robbing a kong"),
    "last_tile": N("海底撈月", "海底捞月", "Win on the last tile"),
    # flat scores (A-8, docs/rules/tiantai.md#eight-flowers)
    "heavenly": N("天胡", "天胡", "Heavenly hand"),
    "earthly": N("地胡", "地胡", "Earthly hand"),
    "eight_flowers": N("八花", "八花", "Eight flowers"),
}

TAIPAO: dict[str, ItemName] = {
    # B: every seat (docs/rules/taipao.md#scoring)
    "caishen_suit": N("財神(數牌)", "财神(数牌)", "Wild tiles, suit face"),
    "caishen_honour": N("財神(字花)", "财神(字花)", "Wild tiles, honour or flower face"),
    "caishen_same": N("財神(同面)", "财神(同面)", "Wild tiles, same face"),
    "flowers": N("花", "花", "Flowers"),
    "white": N("白板", "白板", "White dragons (bonus)"),
    "kong": N("明槓", "明杠", "Exposed kong"),
    "akong": N("暗槓", "暗杠", "Concealed kong"),
    "kong_special": N("明槓(門風/中/發)", "明杠(门风/中/发)", "Exposed kong of own wind, red or green"),
    "akong_special": N("暗槓(門風/中/發)", "暗杠(门风/中/发)", "Concealed kong of own wind, red or green"),
    "pung_special": N("刻子(門風/中/發)", "刻子(门风/中/发)", "Pung of own wind, red or green"),
    "wind_pair": N("門風對", "门风对", "Own-wind pair"),
    # X: the winner only
    "zimo": N("自摸", "自摸", "Self-drawn"),
    "tianhu": N("天胡", "天胡", "Heavenly hand"),
    "dihu": N("地胡", "地胡", "Earthly hand"),
    "yingpai": N("硬牌", "硬牌", "No wild tiles"),
    "pinghu": N("平胡", "平胡", "All chows"),
    "lvyise": N("綠一色", "绿一色", "All green"),
    "qingyise": N("清一色", "清一色", "Full flush"),
    "hunyise": N("混一色", "混一色", "Half flush"),
    "duiduihe": N("對對和", "对对和", "All pungs"),
    "sifeng": N("四風會齊", "四风会齐", "Four winds"),
    "gangkai": N("槓上開花(明)", "杠上开花(明)", "Win on an exposed-kong replacement"),
    "gangkai_concealed": N("槓上開花(暗)", "杠上开花(暗)", "Win on a concealed-kong replacement"),
    "gangkai_special": N("槓上開花(中/發/門風)", "杠上开花(中/发/门风)", "Kong replacement win, kong of red, green or own wind"),
    "qianggang": N("搶槓胡", "抢杠胡", "Robbing a kong"),
    "caishenhui": N("財神匯", "财神汇", "Three wild tiles as a set"),
    "shazhuhu": N("殺豬胡", "杀猪胡", "Pig-killing win"),
    "fenpai": N("分牌", "分牌", "Win on a split-deal tile"),
    # special wins: the whole X
    "shazhu": N("殺豬", "杀猪", "Pig-killing (any shape)"),
    "huahu": N("花胡", "花胡", "Eight flowers"),
}

TAIWAN: dict[str, ItemName] = {
    "self_draw": N("自摸", "自摸", "Self-drawn"),
    "concealed": N("門清", "门清", "Concealed hand"),
    "concealed_self_draw": N("門清自摸", "门清自摸", "Concealed self-drawn"),
    "wind": N("風牌", "风牌", "Wind pung"),
    "seat_flower": N("花牌", "花牌", "Seat flower"),
    "flower_kong": N("花槓", "花杠", "Complete flower set"),
    "dragon": N("三元牌", "三元牌", "Dragon pung"),
    "last_tile": N("海底撈月", "海底捞月", "Win on the last tile"),
    "kong_bloom": N("槓上開花", "杠上开花", "Win on a replacement tile"),
    "rob_kong": N("搶槓胡", "抢杠胡", "Robbing a kong"),
    "pinghu": N("平胡", "平胡", "All chows"),
    "three_concealed_pungs": N("三暗刻", "三暗刻", "Three concealed pungs"),
    "four_concealed_pungs": N("四暗刻", "四暗刻", "Four concealed pungs"),
    "five_concealed_pungs": N("五暗刻", "五暗刻", "Five concealed pungs"),
    "all_exposed": N("全求人", "全求人", "All melds exposed"),
    "all_pungs": N("碰碰胡", "碰碰胡", "All pungs"),
    "small_three_dragons": N("小三元", "小三元", "Small three dragons"),
    "big_three_dragons": N("大三元", "大三元", "Big three dragons"),
    "half_flush": N("混一色", "混一色", "Half flush"),
    "small_four_winds": N("小四喜", "小四喜", "Small four winds"),
    "big_four_winds": N("大四喜", "大四喜", "Big four winds"),
    "full_flush": N("清一色", "清一色", "Full flush"),
    "eye": N("眼牌", "眼牌", "Eye declaration"),
    "miji": N("咪幾", "咪几", "Miji"),
    "human": N("人胡", "人胡", "Human hand"),
    "heavenly": N("天胡", "天胡", "Heavenly hand"),
    "earthly": N("地胡", "地胡", "Earthly hand"),
    "single_wait": N("獨聽", "独听", "Single wait"),
    "last_discard": N("河底撈魚", "河底捞鱼", "Win on the last discard"),
    "eight_flowers": N("八仙過海", "八仙过海", "All eight flowers"),
    "seven_rob_one": N("七搶一", "七抢一", "Seven flowers rob the eighth"),
    "dealer": N("莊家", "庄家", "Dealer"),
    "dealer_streak": N("連莊", "连庄", "Dealer streak"),
    "eye_penalty": N("眼牌罰台", "眼牌罚台", "Eye declaration penalty"),
}

ITEM_NAMES: dict[str, dict[str, ItemName]] = {"tiantai": TIANTAI, "taipao": TAIPAO, "taiwan": TAIWAN}
"""Every variant's item names, by variant name then item key."""


def item_name(variant: str, key: str) -> ItemName:
    """The names of ``variant``'s item ``key``; ``KeyError`` naming both when there is none."""
    try:
        return ITEM_NAMES[variant][key]
    except KeyError:
        raise KeyError(f"no name for scoring item {key!r} of variant {variant!r}") from None
