"""Tiles and the compact mpsz notation (牌與記法).

A tile *kind* is a small int ``0..41``:

* ``0..8``   萬 1m..9m        * ``9..17``  筒 1p..9p        * ``18..26`` 條 1s..9s
* ``27..33`` 字 1z..7z = 東 南 西 北 中 發 白 (this order, not Tenhou's)
* ``34..41`` 花 1f..8f = 春 夏 秋 冬 梅 蘭 菊 竹

``Tile`` is an ``int`` subclass so that tiles index count arrays directly and hash like ints, while
printing in the notation.  Physical copies are not distinguished: a wall is a sequence of kinds.

>>> parse_tiles("123m 5z 1f")
[1m, 2m, 3m, 5z, 1f]
>>> format_tiles(parse_tiles("東南中發"))
'1256z'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

# ``Final``: the compiled engine (tools/compile_engine.py) inlines these where it reads them, instead of looking
# each one up in the importing module's dict.
SUITS: Final = "mpsz"
N_KINDS: Final = 42
N_SUITED: Final = 27
HONOUR_BASE: Final = 27
FLOWER_BASE: Final = 34

CHINESE_HONOURS: Final = "東南西北中發白"
CHINESE_FLOWERS: Final = "春夏秋冬梅蘭菊竹"
_SIMPLIFIED = {"东": "東", "发": "發", "兰": "蘭"}
_SUIT_NAMES_ZH = ("萬", "筒", "條")


class NotationError(ValueError):
    """Bad tile notation; ``token`` names the offending part."""

    def __init__(self, token: str, why: str) -> None:
        super().__init__(f"bad tile notation {token!r}: {why}")
        self.token = token
        self.why = why


class Tile(int):
    """One tile kind (牌), printed as ``5m``, ``7z``, ``3f``."""

    __slots__ = ()

    @property
    def suit(self) -> str:
        """``m``, ``p``, ``s``, ``z`` or ``f``."""
        return "mpszf"[min(self // 9, 3)] if self < FLOWER_BASE else "f"

    @property
    def rank(self) -> int:
        """1-based rank inside its suit (1..9, 1..7 for honours, 1..8 for flowers)."""
        if self < HONOUR_BASE:
            return self % 9 + 1
        if self < FLOWER_BASE:
            return self - HONOUR_BASE + 1
        return self - FLOWER_BASE + 1

    @property
    def is_suited(self) -> bool:
        return self < HONOUR_BASE

    @property
    def is_honour(self) -> bool:
        """字牌: winds and dragons."""
        return HONOUR_BASE <= self < FLOWER_BASE

    @property
    def is_wind(self) -> bool:
        return HONOUR_BASE <= self < HONOUR_BASE + 4

    @property
    def is_dragon(self) -> bool:
        """三元牌 中 發 白."""
        return HONOUR_BASE + 4 <= self < FLOWER_BASE

    @property
    def is_flower(self) -> bool:
        return self >= FLOWER_BASE

    @property
    def is_terminal_or_honour(self) -> bool:
        """么九: 1, 9 or an honour."""
        return self >= HONOUR_BASE or self % 9 in (0, 8)

    @property
    def chinese(self) -> str:
        if self < HONOUR_BASE:
            return "一二三四五六七八九"[self % 9] + _SUIT_NAMES_ZH[self // 9]
        if self < FLOWER_BASE:
            return CHINESE_HONOURS[self - HONOUR_BASE]
        return CHINESE_FLOWERS[self - FLOWER_BASE]

    def __repr__(self) -> str:
        return NAMES[self]

    __str__ = __repr__


TILES: Final[tuple[Tile, ...]] = tuple(Tile(i) for i in range(N_KINDS))
NAMES: Final[tuple[str, ...]] = tuple(f"{t.rank}{t.suit}" for t in TILES)
"""Notation of every kind, by index: ``NAMES[t]`` is the fast ``str(t)``."""


def tile(code: str) -> Tile:
    """One tile from ``"5m"``, ``"7z"``, ``"2f"`` or a Chinese character such as ``"中"``."""
    found = parse_tiles(code)
    if len(found) != 1:
        raise NotationError(code, "expected exactly one tile")
    return found[0]


def wind(index: int) -> Tile:
    """風牌 by wind index 0..3 = 東 南 西 北."""
    return TILES[HONOUR_BASE + index]


def seat_flowers(wind_index: int) -> tuple[Tile, Tile]:
    """正花 of a seat wind: 東 ↔ 春 梅, 南 ↔ 夏 蘭, 西 ↔ 秋 菊, 北 ↔ 冬 竹 (docs/rules/common.md#seat-flowers)."""
    return TILES[FLOWER_BASE + wind_index], TILES[FLOWER_BASE + 4 + wind_index]


def _suit_offset(suit: str, rank: int, token: str) -> int:
    limits = {"m": (0, 9), "p": (9, 9), "s": (18, 9), "z": (27, 7), "f": (34, 8)}
    base, top = limits[suit]
    if not 1 <= rank <= top:
        raise NotationError(token, f"rank {rank} does not exist in suit {suit!r}")
    return base + rank - 1


def parse_tiles(text: str) -> list[Tile]:
    """Parse mpsz notation and/or Chinese characters; whitespace and commas are ignored.

    Raises ``NotationError`` naming the bad token.
    """
    out: list[Tile] = []
    digits = ""
    for ch in text:
        ch = _SIMPLIFIED.get(ch, ch)
        if ch.isspace() or ch in ",[]":
            if digits:
                raise NotationError(digits, "digits without a suit letter")
            continue
        if ch.isdigit():
            digits += ch
        elif ch in "mpszf":
            if not digits:
                raise NotationError(ch, "suit letter without digits")
            out.extend(TILES[_suit_offset(ch, int(d), d + ch)] for d in digits)
            digits = ""
        elif ch in CHINESE_HONOURS:
            _no_pending(digits)
            out.append(TILES[HONOUR_BASE + CHINESE_HONOURS.index(ch)])
        elif ch in CHINESE_FLOWERS:
            _no_pending(digits)
            out.append(TILES[FLOWER_BASE + CHINESE_FLOWERS.index(ch)])
        else:
            raise NotationError(ch, "unknown character")
    _no_pending(digits)
    return out


def _no_pending(digits: str) -> None:
    if digits:
        raise NotationError(digits, "digits without a suit letter")


def format_tiles(tiles: Iterable[int]) -> str:
    """Compact notation, sorted by kind: ``[1m,2m,5z]`` → ``"12m5z"``."""
    out: list[str] = []
    suit = ""
    for t in sorted(tiles):
        s = TILES[t].suit
        if suit and s != suit:
            out.append(suit)
        out.append(str(TILES[t].rank))
        suit = s
    if suit:
        out.append(suit)
    return "".join(out)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """A 42-long count vector."""
    c = [0] * N_KINDS
    for t in tiles:
        c[t] += 1
    return c


def is_one_face(wildcards: Sequence[int]) -> bool:
    """台炮's 財神 faces make a one-face hand (docs/rules/taipao.md#one-face F-4): of the two turned indicators
    exactly one is a flower, whose face has no live copy.  Both flowers: no 財神 at all."""
    return len(wildcards) == 2 and (wildcards[0] >= FLOWER_BASE) != (wildcards[1] >= FLOWER_BASE)
