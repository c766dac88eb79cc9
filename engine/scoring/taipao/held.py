"""What one seat holds, as the 台炮 rules see it (持牌), and the checks on a finished hand (RULES.md §2.1).

財神 faces are ``Situation.wildcards``: one face is same-face mode, two faces two-face mode (§2.1 rule 6).
Every concealed copy of a 財神 face is a joker (§2.1 rule 9); a flower or 白 that is a 財神 face stays in
``concealed``.  Other flowers and 白板 are bonus tiles and live in ``SeatHand.flowers`` (§2.1 rules 7-8).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.melds import Meld, MeldKind
from engine.scoring.situation import SeatHand, Situation
from engine.tiles import HONOUR_BASE, N_KINDS, N_SUITED, Tile

N_SEATS = 4
WINNER_TILES = 17  # 5 sets + 1 pair (§2.1 rule 3), a kong counting as 3
ZHONG = HONOUR_BASE + 4  # 中 5z
FA = HONOUR_BASE + 5  # 發 6z
WHITE = HONOUR_BASE + 6  # 白 7z
SPECIAL = tuple(frozenset((HONOUR_BASE + i, ZHONG, FA)) for i in range(N_SEATS))  # by seat wind


class Table(NamedTuple):
    """Facts shared by every seat: dealer and 財神 faces."""

    dealer: int
    wildcards: tuple[int, ...]  # distinct 財神 faces
    same_face: bool  # one face: same-face mode (§2.1 rule 6)


class Held(NamedTuple):
    """One seat's tiles, with the 財神 taken out of ``counts`` (42 long, natural tiles only).

    For a non-winner, ``counts`` holds only the own wind, 中 and 發 (all that B needs); the winner's is
    complete, for the hand analysis.
    """

    seat: int
    wind: int  # tile kind of the seat wind: dealer 東, then 南 西 北 counterclockwise (§2.1 rule 4)
    special: frozenset[int]  # own wind, 中, 發: the faces whose pungs and kongs score extra (§2.2 B)
    counts: list[int]
    jokers: int  # 財神 tiles held (every concealed copy of a 財神 face)
    caishen: tuple[tuple[int, int], ...]  # (face, copies held) per 財神 face
    same_face: bool
    melds: tuple[Meld, ...]
    flowers: tuple[Tile, ...]
    size: int  # concealed tiles + 3 per meld
    white_is_bonus: bool  # 白 is not a 財神 face, so no joker may stand for it (§2.1 rule 9)


def table_of(sit: Situation) -> Table:
    if sit.n_seats != N_SEATS:
        raise ValueError(f"台炮 is played by 4 players, got {sit.n_seats} seats")
    if not 0 <= sit.dealer < N_SEATS:
        raise ValueError(f"dealer {sit.dealer} is not a seat index 0..3")
    faces = tuple(dict.fromkeys(sit.wildcards))
    if len(faces) > 2 or any(not 0 <= f < N_KINDS for f in faces):
        raise ValueError(f"財神 faces must be one or two tile kinds, got {list(sit.wildcards)}")
    return Table(sit.dealer, faces, len(faces) == 1)


def held_of(hand: SeatHand, seat: int, table: Table, full: bool) -> Held:
    """Build and check one seat (``full``: count every tile, for the winner); ValueError names the problem."""
    wild = table.wildcards
    concealed = hand.concealed
    if concealed:
        low, high = min(concealed), max(concealed)
        if low < 0 or high >= N_KINDS:
            raise ValueError(f"seat {seat}: bad tile kind in {list(map(int, concealed))}")
        if high >= WHITE and any(t >= WHITE and t not in wild for t in concealed):
            bad = next(t for t in concealed if t >= WHITE and t not in wild)
            raise ValueError(f"seat {seat}: bonus tile {bad} in the concealed hand (§2.1 rules 7-8)")
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
    for m in hand.melds:
        _check_meld(m, seat, wild)
    flowers = hand.flowers
    if flowers and (min(flowers) < WHITE or max(flowers) >= N_KINDS or any(f in wild for f in flowers)):
        bad = next(f for f in flowers if f < WHITE or f >= N_KINDS or f in wild)
        raise ValueError(f"seat {seat}: {bad} cannot be a collected bonus tile (§2.1 rules 7-8)")
    return Held(
        seat, HONOUR_BASE + wind_index, special, counts, jokers, caishen, table.same_face, hand.melds,
        flowers, len(concealed) + 3 * len(hand.melds), WHITE not in wild,
    )


def _check_meld(m: Meld, seat: int, wild: tuple[int, ...]) -> None:
    tiles = m.tiles
    first = tiles[0] if tiles else -1
    if any(t in wild for t in tiles):
        raise ValueError(f"seat {seat}: meld {m} uses a 財神, which cannot chow, pong or kong (§2.1 rule 9)")
    if m.kind is MeldKind.CHOW:
        ok = (
            len(tiles) == 3 and 0 <= first < N_SUITED and first % 9 <= 6
            and sorted(tiles) == [first, first + 1, first + 2]
        )
    else:
        size = 3 if m.kind is MeldKind.PONG else 4
        ok = len(tiles) == size and 0 <= first < WHITE and all(t == first for t in tiles)
    if not ok:
        raise ValueError(f"seat {seat}: {m} is not a valid {m.kind.value}")


def check_size(h: Held, winner: bool, special_win: bool) -> None:
    """A winner holds 17 (5 sets + pair); other seats 16, or 17 after a 分牌 draw (§2.1 rules 3, 15)."""
    allowed = (WINNER_TILES,) if winner and not special_win else (WINNER_TILES - 1, WINNER_TILES)
    if h.size not in allowed:
        role = "winner" if winner else "seat"
        raise ValueError(
            f"{role} {h.seat} holds {h.size} tiles (concealed + 3 per meld); expected "
            + " or ".join(map(str, allowed))
        )


def caishen_level(h: Held) -> int:
    """杀猪 level 0/1/2 (13/30/100 台), or -1 when the 財神 holding does not qualify (§2.1 rule 17)."""
    if not h.caishen:
        return -1
    if h.same_face:
        n = h.caishen[0][1]
        return -1 if n < 2 else min(n - 2, 2)
    (_, a), (_, b) = h.caishen
    if max(a, b) < 3 or min(a, b) < 1:
        return -1
    return min(a + b - 4, 2)
