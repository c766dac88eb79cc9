"""The 台炮 scoring items of docs/rules/taipao.md#scoring, in display order, one small named function each, registered in
``RULES`` (an ``engine.scoring.rule_table.RuleTable``).  Keys are the room-option keys."""

from __future__ import annotations

from engine.scoring.rule_table import RuleTable
from engine.scoring.situation import SELF_DRAWN_KINDS, KongKind, WinKind
from engine.scoring.taipao.held import WHITE, Held, caishen_level
from engine.scoring.taipao.shape import Shape
from engine.scoring.taipao.table import BASE, BONUS, SEAT, SHAPE, SPECIAL, WIN, Rule, Win, layered_rule
from engine.tiles import HONOUR_BASE

Table4 = tuple[int, int, int, int]

RULES: RuleTable[Rule] = RuleTable("taipao")
rule = layered_rule(RULES)

SUIT_MASKS = tuple(((1 << 9) - 1) << (9 * i) for i in range(3))
HONOUR_MASK = ((1 << 7) - 1) << HONOUR_BASE
GANGKAI = (WinKind.KONG_REPLACEMENT,)
GREEN_MASK = sum(1 << t for t in (19, 20, 21, 23, 25, HONOUR_BASE + 5))  # 2 3 4 6 8s, 發


def _by_count(table: Table4, n: int) -> int:
    return table[min(n, 4) - 1] if n > 0 else 0


# --- B: every player (docs/rules/taipao.md#base-items) -----------------------------------------------------


def _caishen(h: Held, v: Table4, honour: bool) -> int:
    total = 0
    for f, n in h.caishen:
        if n and (f >= HONOUR_BASE) == honour:
            total += v[min(n, 4) - 1]
    return total


@rule("caishen_suit", (2, 5, 8, 11), BASE, SEAT, needs="jokers")
def caishen_suit(h: Held, v: Table4) -> int:
    """Two-face mode, a suit 財神 face: 1-4 copies held → 2/5/8/11 [seed 002:L7]."""
    return 0 if h.same_face else _caishen(h, v, False)


@rule("caishen_honour", (3, 7, 11, 15), BASE, SEAT, needs="jokers")
def caishen_honour(h: Held, v: Table4) -> int:
    """Two-face mode, a wind/中/發/白/flower 財神 face: 3/7/11/15 [seed 002:L7]."""
    return 0 if h.same_face else _caishen(h, v, True)


@rule("caishen_same", (7, 15, 23, 31), BASE, SEAT, needs="jokers")
def caishen_same(h: Held, v: Table4) -> int:
    """Same-face mode: 7/15, then 23/31 [ref; B-5]."""
    return _by_count(v, h.jokers) if h.same_face else 0


@rule("flowers", (1, 3, 5, 10), BASE, SEAT, needs="flowers")
def flowers(h: Held, v: Table4) -> int:
    """Per group 春夏秋冬 / 梅蘭菊竹: 1/3/5/10 [seed 002:L8]."""
    first, second, _ = h.bonus_tiles
    return _by_count(v, first) + _by_count(v, second)


@rule("white", (1, 3, 5, 10), BASE, SEAT, needs="flowers")
def white(h: Held, v: Table4) -> int:
    """Collected 白板 as its own group, when 白 is not 財神 (docs/rules/taipao.md#bonus-tiles, B-7)."""
    return _by_count(v, h.bonus_tiles[2])


@rule("kong", 3, BASE, SEAT, needs="n_kongs")
def kong(h: Held, v: int) -> int:
    """明杠 (direct or 补杠) [seed 002:L9, L14]."""
    return v * h.melded.kongs[0]


@rule("akong", 4, BASE, SEAT, needs="n_kongs")
def akong(h: Held, v: int) -> int:
    """暗杠 [seed 002:L9, L16]."""
    return v * h.melded.kongs[1]


@rule("kong_special", 4, BASE, SEAT, needs="n_kongs")
def kong_special(h: Held, v: int) -> int:
    """明杠 of own wind/中/發: replaces the 3 and includes the pung's +1 (B-6)."""
    return v * h.melded.kongs[2]


@rule("akong_special", 5, BASE, SEAT, needs="n_kongs")
def akong_special(h: Held, v: int) -> int:
    """暗杠 of own wind/中/發 (B-6)."""
    return v * h.melded.kongs[3]


@rule("pung_special", 1, BASE, SHAPE, needs="special")
def pung_special(h: Held, s: Shape, v: int) -> int:
    """Each 碰 or 刻 of own wind/中/發, 財神 allowed [seed 002:L10, L12; B-20]."""
    return v * s.special


@rule("wind_pair", 1, BASE, SHAPE)
def wind_pair(h: Held, s: Shape, v: int) -> int:
    """A pair of the seat's own wind, winner and non-winners alike [seed 002:L12 "每个自家门风对…加一台"; D-3]."""
    return v if s.pair == h.wind else 0


# --- X: the winner only (docs/rules/taipao.md#winner-items) ----------------------------------------------


@rule("zimo", 1, BONUS, WIN, kinds=SELF_DRAWN_KINDS)
def zimo(h: Held, w: Win, v: int) -> int:
    """Self-drawn, 杠上开花 and flower/白 replacement included; not 分牌 [seed L18; B-15, B-24]."""
    return v if w.kind in SELF_DRAWN_KINDS else 0


@rule("tianhu", 13, BONUS, WIN, needs="heavenly")
def tianhu(h: Held, w: Win, v: int) -> int:
    return v if w.heavenly else 0


@rule("dihu", 13, BONUS, WIN, needs="earthly")
def dihu(h: Held, w: Win, v: int) -> int:
    return v if w.earthly else 0


@rule("yingpai", 7, BONUS, WIN)
def yingpai(h: Held, w: Win, v: int) -> int:
    """No 財神 tile in the hand at all (B-11)."""
    return v if h.jokers == 0 else 0


@rule("pinghu", 13, BONUS, SHAPE, needs="chows")
def pinghu(h: Held, s: Shape, v: int) -> int:
    """All 5 sets chows (exposed allowed), no 財神 held, no flower or 白板 collected (B-10)."""
    return v if s.chows == s.sets and h.jokers == 0 and not h.flowers else 0


@rule("lvyise", 26, BONUS, SHAPE, replaces=("qingyise", "hunyise"))
def lvyise(h: Held, s: Shape, v: int) -> int:
    """Only 2 3 4 6 8s and 發, 財神 standing for them (B-13)."""
    return v if s.mask & ~GREEN_MASK == 0 else 0


def _suits(mask: int) -> int:
    m, p, s = SUIT_MASKS
    return (mask & m != 0) + (mask & p != 0) + (mask & s != 0)


@rule("qingyise", 13, BONUS, SHAPE, replaces=("hunyise",))
def qingyise(h: Held, s: Shape, v: int) -> int:
    """One suit, no honours [seed L24]; or honours only (D-5: harder than either 一色)."""
    suits, honours = _suits(s.mask), s.mask & HONOUR_MASK
    return v if suits == 1 and not honours or suits == 0 and honours else 0


@rule("hunyise", 7, BONUS, SHAPE)
def hunyise(h: Held, s: Shape, v: int) -> int:
    """One suit plus honours, both present [seed L25]."""
    return v if _suits(s.mask) == 1 and s.mask & HONOUR_MASK else 0


@rule("duiduihe", 7, BONUS, SHAPE)
def duiduihe(h: Held, s: Shape, v: int) -> int:
    """All pungs/kongs [seed L26]."""
    return v if s.chows == 0 else 0


@rule("sifeng", 13, BONUS, SHAPE, needs="winds")
def sifeng(h: Held, s: Shape, v: int) -> int:
    """Pungs/kongs of all 4 winds, or of 3 plus a pair of the 4th (B-14)."""
    n = s.winds.bit_count()
    if n == 4:
        return v
    missing = HONOUR_BASE + (0b1111 & ~s.winds).bit_length() - 1
    return v if n == 3 and s.pair == missing else 0


@rule("gangkai", 7, BONUS, WIN, needs="kong_kind", kinds=GANGKAI)
def gangkai(h: Held, w: Win, v: int) -> int:
    """Win on the replacement after a 明杠 or 补杠 [seed L28]; a flower/白 replacement is not (B-9)."""
    exposed = w.kong_kind in (KongKind.EXPOSED, KongKind.ADDED)
    return v if w.kind is WinKind.KONG_REPLACEMENT and exposed else 0


@rule("gangkai_concealed", 8, BONUS, WIN, needs="kong_kind", kinds=GANGKAI)
def gangkai_concealed(h: Held, w: Win, v: int) -> int:
    return v if w.kind is WinKind.KONG_REPLACEMENT and w.kong_kind is KongKind.CONCEALED else 0


@rule("gangkai_special", 1, BONUS, WIN, needs="kong_kind", kinds=GANGKAI)
def gangkai_special(h: Held, w: Win, v: int) -> int:
    """+1 when the kong was of 中, 發 or the own wind [seed L28; B-8]."""
    return v if w.kind is WinKind.KONG_REPLACEMENT and w.kong_tile in h.special else 0


@rule("qianggang", 3, BONUS, WIN, kinds=(WinKind.ROB_KONG,))
def qianggang(h: Held, w: Win, v: int) -> int:
    return v if w.kind is WinKind.ROB_KONG else 0


@rule("caishenhui", 7, BONUS, SHAPE, needs="wild_sets")
def caishenhui(h: Held, s: Shape, v: int) -> int:
    """Three 財神 form a set by themselves and the rest is complete [seed L30]."""
    return v if s.wild_sets else 0


@rule("shazhuhu", (13, 30, 100), BONUS, WIN)
def shazhuhu(h: Held, w: Win, v: tuple[int, int, int]) -> int:
    """A qualifying 財神 holding with a normal winning hand; B and X count too [seed L31-32]."""
    level = caishen_level(h)
    return v[level] if level >= 0 else 0


@rule("fenpai", 3, BONUS, WIN, kinds=(WinKind.SPLIT_DEAL,))
def fenpai(h: Held, w: Win, v: int) -> int:
    """A win on a 分牌 tile; not 自摸 [seed L68; B-15]."""
    return v if w.kind is WinKind.SPLIT_DEAL else 0


# --- special wins: their value is the whole X, B is not added (docs/rules/taipao.md#scoring) ------------------------------


@rule("shazhu", (13, 30, 100), BONUS, SPECIAL)
def shazhu(h: Held, v: tuple[int, int, int]) -> int:
    """Plain 杀猪, any shape (docs/rules/taipao.md#kill-pig, B-12)."""
    level = caishen_level(h)
    if level < 0:
        raise ValueError(f"seat {h.seat} declared 杀猪 without a qualifying 財神 holding (docs/rules/taipao.md#kill-pig)")
    return v[level]


@rule("huahu", 52, BONUS, SPECIAL)
def huahu(h: Held, v: int) -> int:
    """All 8 flowers (room option ``eight_flowers``; docs/rules/taipao.md#eight-flowers, B-26)."""
    if len(set(h.flowers) - {WHITE}) != 8:
        raise ValueError(f"seat {h.seat} claims 花胡 without holding all 8 flowers")
    return v
