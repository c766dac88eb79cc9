"""台灣16張 台 items of seed 003 (docs/rules/taiwan.md#tai-table), one small named function each, registered in ``RULES``
(an ``engine.scoring.rule_table.RuleTable``).

``count`` returns how many times an item applies; ``replaces`` lists what it supersedes (the
"Exclusions" of docs/rules/taiwan.md#exclusions).  Values are room options under the same keys; 0 switches an item off, which is
how the optional items 獨聽 / 河底撈魚 start (C-2).
"""

from __future__ import annotations

from engine.scoring.readings import PAIR, TWO_SIDED
from engine.scoring.rule_table import CountedRule, RuleTable, counted_rule
from engine.scoring.situation import Declaration, KongKind, WinKind
from engine.scoring.taiwan.features import Shape
from engine.scoring.tile_sets import DRAGONS, WINDS

TAI = "tai"
RULES: RuleTable[CountedRule[Shape]] = RuleTable("taiwan")
rule = counted_rule(RULES)
ONE_SUIT = (1, 2, 4)
FIRST_TURN = ("self_draw", "concealed", "concealed_self_draw", "miji", "eye")


@rule("self_draw", 1, TAI)
def self_draw(s: Shape) -> int:
    """seed 003:L15-19 (槓上開花 and 海底 are self-drawn too)."""
    return int(s.hand.self_drawn)


@rule("concealed", 1, TAI)
def concealed(s: Shape) -> int:
    """seed 003:L21-25: no chow/pong/明槓/加槓 (暗槓 allowed, C-18); also on a discard win."""
    return int(s.hand.concealed_hand)


@rule("concealed_self_draw", 3, TAI, replaces=("concealed", "self_draw"))
def concealed_self_draw(s: Shape) -> int:
    """seed 003:L99-103."""
    return int(s.hand.concealed_hand and s.hand.self_drawn)


@rule("wind", 1, TAI)
def wind(s: Shape) -> int:
    """seed 003:L27-31: 1 per match of a wind pung/kong with 圈風 and with 門風 (隨開門)."""
    return s.wind_matches


@rule("seat_flower", 1, TAI)
def seat_flower(s: Shape) -> int:
    """seed 003:L33-35, C-6: each 正花 of the 隨開門 門風."""
    return s.hand.n_seat_flowers


@rule("flower_kong", 1, TAI)
def flower_kong(s: Shape) -> int:
    """seed 003:L92-97: each complete 春夏秋冬 / 梅蘭菊竹; 正花 counted as well (C-7)."""
    return s.hand.n_flower_sets


@rule("dragon", 1, TAI)
def dragon(s: Shape) -> int:
    """seed 003:L37-41: each pung/kong of 中 發 白."""
    return s.dragon_pungs


@rule("last_tile", 1, TAI)
def last_tile(s: Shape) -> int:
    """seed 003:L43-47: self-drawn on the last tile; added to 自摸."""
    return int(s.hand.last_tile and s.hand.self_drawn)


@rule("kong_bloom", 1, TAI)
def kong_bloom(s: Shape) -> int:
    """seed 003:L56-60: won on the replacement after a flower, a 加槓 or an 暗槓; not after a kong claimed on a
    discard (docs/rules/taiwan.md#tai-table D-4: seed L60 limits 明槓 to "本身已碰牌，自己摸起來槓的")."""
    h = s.hand
    if h.win_kind is WinKind.KONG_REPLACEMENT:
        return int(h.kong_kind is not KongKind.EXPOSED)
    return int(h.win_kind is WinKind.FLOWER_REPLACEMENT)


@rule("rob_kong", 1, TAI)
def rob_kong(s: Shape) -> int:
    """seed 003:L62-66."""
    return int(s.hand.win_kind is WinKind.ROB_KONG)


@rule("pinghu", 2, TAI)
def pinghu(s: Shape) -> int:
    """seed 003:L68-78: 5 chows + pair, no honour, no flower, not self-drawn, the winning tile makes a
    two-sided chow (the pair was already there) and the hand waited on ≥ 2 kinds."""
    h = s.hand
    return int(
        s.chows == 5
        and s.wait == TWO_SIDED
        and not h.honours
        and not h.n_flowers
        and not h.self_drawn
        and h.n_waits() >= 2
    )


@rule("three_concealed_pungs", 2, TAI)
def three_concealed_pungs(s: Shape) -> int:
    """seed 003:L80-84: 暗槓 count; a pung completed by the winning discard does not."""
    return int(s.concealed_pungs == 3)


@rule("four_concealed_pungs", 4, TAI, replaces=("three_concealed_pungs",))
def four_concealed_pungs(s: Shape) -> int:
    """seed 003:L131-135; also five concealed pungs won on a discard (docs/rules/taiwan.md#tai-table E-2: 五暗刻 needs 自摸)."""
    return int(s.concealed_pungs == 4 or (s.concealed_pungs == 5 and not s.hand.self_drawn))


@rule("five_concealed_pungs", 16, TAI, replaces=("four_concealed_pungs", "three_concealed_pungs"))
def five_concealed_pungs(s: Shape) -> int:
    """seed 003:L144-148 "需自摸" (docs/rules/taiwan.md#tai-table E-2): on a discard the same hand is 四暗刻."""
    return int(s.concealed_pungs == 5 and s.hand.self_drawn)


@rule("all_exposed", 2, TAI)
def all_exposed(s: Shape) -> int:
    """seed 003:L86-90: five exposed melds (no 暗槓), 單吊 on the pair, not self-drawn."""
    h = s.hand
    return int(h.all_exposed and s.wait == PAIR and not h.self_drawn)


@rule("all_pungs", 4, TAI)
def all_pungs(s: Shape) -> int:
    """seed 003:L105-109."""
    return int(s.chows == 0)


@rule("small_three_dragons", 4, TAI, replaces=("dragon",))
def small_three_dragons(s: Shape) -> int:
    """seed 003:L111-116: two dragon pungs and a dragon pair."""
    return int(s.dragon_pungs == 2 and s.pair in DRAGONS)


@rule("big_three_dragons", 8, TAI, replaces=("dragon", "small_three_dragons"))
def big_three_dragons(s: Shape) -> int:
    """seed 003:L150-155."""
    return int(s.dragon_pungs == 3)


@rule("half_flush", 4, TAI)
def half_flush(s: Shape) -> int:
    """seed 003:L118-122: one suit plus honours."""
    return int(s.hand.honours and s.hand.suits in ONE_SUIT)


@rule("small_four_winds", 4, TAI, replaces=("wind",))
def small_four_winds(s: Shape) -> int:
    """seed 003:L124-129: three wind pungs and a wind pair."""
    return int(s.wind_pungs == 3 and s.pair in WINDS)


@rule("big_four_winds", 8, TAI, replaces=("wind", "small_four_winds"))
def big_four_winds(s: Shape) -> int:
    """seed 003:L157-162."""
    return int(s.wind_pungs == 4)


@rule("full_flush", 8, TAI, replaces=("half_flush",))
def full_flush(s: Shape) -> int:
    """seed 003:L137-142: one suit only, or honours only (字一色, C-19)."""
    h = s.hand
    return int((not h.honours and h.suits in ONE_SUIT) or (h.honours and not h.suits))


@rule("eye", 1, TAI)
def eye(s: Shape) -> int:
    """seed 003:L49-53: the declarer wins (Miji is a 眼牌 too, and replaces it)."""
    return int(s.hand.declaration is not None)


@rule("miji", 8, TAI, replaces=("eye",))
def miji(s: Shape) -> int:
    """seed 003:L164-168."""
    return int(s.hand.declaration is Declaration.MIJI)


@rule("human", 8, TAI, replaces=("concealed",))
def human(s: Shape) -> int:
    """seed 003:L182-186."""
    return int(s.hand.human)


@rule("heavenly", 16, TAI, replaces=FIRST_TURN)
def heavenly(s: Shape) -> int:
    """seed 003:L188-193; excludes 自摸, 門清, 門清自摸, Miji/眼牌 (C-14)."""
    return int(s.hand.heavenly)


@rule("earthly", 16, TAI, replaces=FIRST_TURN)
def earthly(s: Shape) -> int:
    """seed 003:L188-193 (non-dealer's first-draw 自摸, C-16)."""
    return int(s.hand.earthly)


@rule("single_wait", 0, TAI)
def single_wait(s: Shape) -> int:
    """Optional (C-2, usual value 1): the hand waited on exactly one kind."""
    return int(s.hand.winning_tile is not None and s.hand.n_waits() == 1)


@rule("last_discard", 0, TAI)
def last_discard(s: Shape) -> int:
    """Optional (docs/rules/taiwan.md#last-tile, C-2, usual value 1): won on the discard after the 海底 draw."""
    return int(s.hand.last_tile and s.hand.win_kind is WinKind.DISCARD)
