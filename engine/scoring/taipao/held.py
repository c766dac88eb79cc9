"""What one seat holds, as the 台炮 rules see it (持牌), and the checks on a finished hand (docs/rules/taipao.md).

財神 faces are ``Situation.wildcards``: one face is same-face mode, two faces two-face mode (docs/rules/taipao.md#caishen).
Every concealed copy of a 財神 face is a joker (docs/rules/taipao.md#caishen-use); a flower or 白 that is a 財神 face stays in
``concealed``.  Other flowers and 白板 are bonus tiles and live in ``SeatHand.flowers`` (docs/rules/taipao.md#bonus-tiles).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from engine.melds import Meld, MeldKind
from engine.scoring.situation import SeatHand, Situation
from engine.tiles import FLOWER_BASE, HONOUR_BASE, N_KINDS, N_SUITED, Tile, is_one_face

N_SEATS = 4
WINNER_TILES = 17  # 5 sets + 1 pair (docs/rules/taipao.md#winning-hand), a kong counting as 3
ZHONG = HONOUR_BASE + 4  # 中 5z
FA = HONOUR_BASE + 5  # 發 6z
WHITE = HONOUR_BASE + 6  # 白 7z
WIND_END = HONOUR_BASE + 4
SPECIAL = tuple(frozenset((HONOUR_BASE + i, ZHONG, FA)) for i in range(N_SEATS))  # by seat wind


class Table(NamedTuple):
    """Facts shared by every seat: dealer and 財神 faces."""

    dealer: int
    wildcards: tuple[int, ...]  # distinct 財神 faces
    same_face: bool  # one face: same-face mode (docs/rules/taipao.md#caishen)
    wild_set: frozenset[int]  # the same faces, as a set


class MeldPart(NamedTuple):
    """What the exposed and declared melds contribute to every reading (summed once, in ``held_of``)."""

    mask: int  # bit k: face k in a meld (the three faces of a chow)
    winds: int  # bit i: a pung or kong of wind i (東 = 0)
    special: int  # pongs (not kongs) of the own wind, 中 or 發
    chows: int
    sets: int
    faces: AbstractSet[int]  # faces of pungs and kongs
    use: int  # copies of each honour face, 4 bits per face (東 lowest)
    kongs: tuple[int, int, int, int]  # 明杠, 暗杠, 明杠 and 暗杠 of own wind/中/發


NATURAL = frozenset(range(WHITE))  # tile kinds that may be held concealed whatever the 財神 faces
NO_KONGS = (0, 0, 0, 0)
_new_part = tuple.__new__  # MeldPart without its keyword-handling constructor
NO_MELDS = MeldPart(0, 0, 0, 0, 0, frozenset(), 0, NO_KONGS)
NO_FLOWERS = (0, 0, 0)


class Held(NamedTuple):
    """One seat's tiles, with the 財神 taken out of ``counts`` (42 long, natural tiles only).

    For a non-winner, ``counts`` holds only the own wind, 中 and 發 (all that B needs); the winner's is
    complete, for the hand analysis.
    """

    seat: int
    wind: int  # tile kind of the seat wind: dealer 東, then 南 西 北 counterclockwise (docs/rules/taipao.md#seat-winds)
    special: frozenset[int]  # own wind, 中, 發: the faces whose pungs and kongs score extra (docs/rules/taipao.md#base-items)
    counts: list[int]
    jokers: int  # 財神 tiles held (every concealed copy of a 財神 face)
    caishen: tuple[tuple[int, int], ...]  # (face, copies held) per 財神 face
    same_face: bool
    melds: tuple[Meld, ...]
    flowers: tuple[Tile, ...]
    size: int  # concealed tiles + 3 per meld
    white_is_bonus: bool  # 白 is not a 財神 face, so no joker may stand for it (docs/rules/taipao.md#caishen-use)
    melded: MeldPart  # the melds, summed
    n_kongs: int  # kongs among the melds
    bonus_tiles: tuple[int, int, int]  # collected 春夏秋冬, 梅蘭菊竹, 白板


_TABLES: dict[tuple[int, tuple[int, ...]], Table] = {}


def table_of(sit: Situation) -> Table:
    if sit.n_seats != N_SEATS:
        raise ValueError(f"台炮 is played by 4 players, got {sit.n_seats} seats")
    key = (sit.dealer, sit.wildcards)
    got = _TABLES.get(key)
    if got is not None:
        return got
    if not 0 <= sit.dealer < N_SEATS:
        raise ValueError(f"dealer {sit.dealer} is not a seat index 0..3")
    faces = tuple(dict.fromkeys(sit.wildcards))
    if len(faces) > 2 or any(not 0 <= f < N_KINDS for f in faces):
        raise ValueError(f"財神 faces must be one or two tile kinds, got {list(sit.wildcards)}")
    got = Table(sit.dealer, faces, len(faces) == 1, frozenset(faces))
    if len(_TABLES) < 4096:
        _TABLES[key] = got
    return got


def held_of(hand: SeatHand, seat: int, table: Table, full: bool) -> Held:
    """Build and check one seat (``full``: count every tile, for the winner); ValueError names the problem."""
    wild = table.wildcards
    concealed = hand.concealed
    if not NATURAL.issuperset(concealed):
        check_tiles(concealed, seat, wild, max(concealed))
    caishen = tuple([(f, concealed.count(f)) for f in wild])
    wind_index = (seat - table.dealer) % N_SEATS
    special = SPECIAL[wind_index]
    counts = [0] * N_KINDS
    if full:
        for t in concealed:
            counts[t] += 1
    else:
        for f in special:
            counts[f] = concealed.count(f)
    jokers = 0
    for f, n in caishen:
        jokers += n
        counts[f] = 0
    melded = melds_of(hand.melds, seat, table.wild_set, special) if hand.melds else NO_MELDS
    flowers = hand.flowers
    bonus = bonus_tiles(flowers, seat, wild) if flowers else NO_FLOWERS
    return Held(
        seat, HONOUR_BASE + wind_index, special, counts, jokers, caishen, table.same_face, hand.melds,
        flowers, len(concealed) + 3 * len(hand.melds), WHITE not in wild, melded, sum(melded.kongs),
        bonus,
    )


def check_tiles(concealed: tuple[Tile, ...], seat: int, wild: tuple[int, ...], high: int) -> None:
    """Every concealed tile is a tile kind, and no bonus tile unless it is a 財神 face (docs/rules/taipao.md#bonus-tiles, docs/rules/taipao.md#caishen-use)."""
    if min(concealed) < 0 or high >= N_KINDS:
        raise ValueError(f"seat {seat}: bad tile kind in {list(map(int, concealed))}")
    if high >= WHITE and any(t >= WHITE and t not in wild for t in concealed):
        bad = next(t for t in concealed if t >= WHITE and t not in wild)
        raise ValueError(f"seat {seat}: bonus tile {bad} in the concealed hand (docs/rules/taipao.md#bonus-tiles)")


def bonus_tiles(flowers: tuple[Tile, ...], seat: int, wild: tuple[int, ...]) -> tuple[int, int, int]:
    """Check the collected bonus tiles and count them per group (春夏秋冬, 梅蘭菊竹, 白板)."""
    first = second = whites = 0
    for f in flowers:
        if f < WHITE or f >= N_KINDS or f in wild:
            raise ValueError(f"seat {seat}: {f} cannot be a collected bonus tile (docs/rules/taipao.md#bonus-tiles)")
        if f >= FLOWER_BASE + 4:
            second += 1
        elif f >= FLOWER_BASE:
            first += 1
        else:
            whites += 1
    return first, second, whites


_CHOW, _PONG, _KONG = MeldKind.CHOW, MeldKind.PONG, MeldKind.KONG


def melds_of(melds: tuple[Meld, ...], seat: int, wild: frozenset[int], special: frozenset[int]) -> MeldPart:
    """Check every meld and sum what they contribute (one pass)."""
    mask = winds = n_special = chows = use = 0
    faces: set[int] = set()
    kong = akong = kong_special = akong_special = 0
    for m in melds:
        tiles = m.tiles
        kind = m.kind
        first = tiles[0] if tiles else -1
        if wild and not wild.isdisjoint(tiles):
            raise ValueError(f"seat {seat}: meld {m} uses a 財神, which cannot chow, pong or kong (docs/rules/taipao.md#caishen-use)")
        if kind is _CHOW:
            if not (
                len(tiles) == 3 and 0 <= first < N_SUITED and first % 9 <= 6
                and sorted(tiles) == [first, first + 1, first + 2]
            ):
                raise ValueError(f"seat {seat}: {m} is not a valid {kind.value}")
            mask |= 7 << first
            chows += 1
            continue
        size = 3 if kind is _PONG else 4
        if not (len(tiles) == size and 0 <= first < WHITE and tiles.count(first) == size):
            raise ValueError(f"seat {seat}: {m} is not a valid {kind.value}")
        mask |= 1 << first
        faces.add(first)
        if first >= HONOUR_BASE:
            use += size << 4 * (first - HONOUR_BASE)
            if first < WIND_END:
                winds |= 1 << (first - HONOUR_BASE)
            if first in special:
                if kind is _PONG:
                    n_special += 1
                elif kind is _KONG:
                    kong_special += 1
                else:
                    akong_special += 1
                continue
        if kind is _KONG:
            kong += 1
        elif kind is not _PONG:
            akong += 1
    return _new_part(MeldPart, (
        mask, winds, n_special, chows, len(melds), faces, use, (kong, akong, kong_special, akong_special),
    ))


def honour_sets(count_of: Callable[[int], int], wind: int, special: AbstractSet[int], taken: AbstractSet[int],
                jokers: int) -> tuple[int, bool]:
    """A non-winner's concealed own-wind / 中 / 發 sets, with its 財神 placed where they add most (B-20).

    Returns (pungs, own-wind pair).  ``count_of(f)`` is the natural copies of face ``f`` held concealed;
    faces in ``taken`` are melded already.  Three or four natural tiles are a 刻 (free); a 中 / 發 pair
    needs one 財神 and a single two; an own-wind pair scores by itself (D-3) and an own-wind single
    becomes that pair with one 財神.  A face held by 財神 alone makes nothing (D-2: bare 財神 stand for no
    face).  Each option adds one item, so the cheapest ones are taken first.
    """
    pungs = 0
    pair = False
    costs: list[tuple[int, bool]] = []  # (財神 needed, is the own-wind pair)
    for f in special:
        if f in taken:
            continue
        n = count_of(f)
        if n >= 3:
            pungs += 1
        elif f == wind and n:
            costs.append((2 - n, True))  # pair: 11 free, 1 + 財神
        elif n:
            costs.append((3 - n, False))
    for cost, is_pair in sorted(costs):
        if cost > jokers:
            break
        jokers -= cost
        if is_pair:
            pair = True
        else:
            pungs += 1
    return pungs, pair


def check_size(h: Held, winner: bool, special_win: bool) -> None:
    check_size_of(h.seat, h.size, winner, special_win)


def check_size_of(seat: int, size: int, winner: bool, special_win: bool) -> None:
    """A winner holds 17 (5 sets + pair); other seats 16, or 17 after a 分牌 draw (docs/rules/taipao.md#winning-hand, docs/rules/taipao.md#split-deal)."""
    if size == WINNER_TILES or size == WINNER_TILES - 1 and not (winner and not special_win):
        return
    allowed = (WINNER_TILES,) if winner and not special_win else (WINNER_TILES - 1, WINNER_TILES)
    if size not in allowed:
        role = "winner" if winner else "seat"
        raise ValueError(
            f"{role} {seat} holds {size} tiles (concealed + 3 per meld); expected "
            + " or ".join(map(str, allowed))
        )


def caishen_level(h: Held) -> int:
    """杀猪 level 0/1/2 (13/30/100 台), or -1 when the 財神 holding does not qualify (docs/rules/taipao.md#kill-pig)."""
    if not h.caishen:
        return -1
    if h.same_face:
        n = h.caishen[0][1]
        return -1 if n < 2 else min(n - 2, 2)
    if is_one_face([face for face, _ in h.caishen]):  # all three live copies (F-4); the flower face has none
        return 0 if h.jokers >= 3 else -1
    (_, a), (_, b) = h.caishen
    if max(a, b) < 3 or min(a, b) < 1:
        return -1
    return min(a + b - 4, 2)
