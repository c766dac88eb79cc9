"""What the 天台 rules look at (牌型特徵): hand-level facts and one candidate reading of the hand."""

from __future__ import annotations

from dataclasses import dataclass

from engine.melds import MeldKind
from engine.scoring.readings import Candidate
from engine.scoring.situation import FED_KINDS, SELF_DRAWN_KINDS, SeatHand, WinKind
from engine.scoring.tile_sets import DRAGONS, flower_sets
from engine.tiles import HONOUR_BASE, counts_of, seat_flowers


def is_yao(t: int) -> bool:
    """么九: 1, 9 or an honour (doubles 刻/槓 胡)."""
    return t >= HONOUR_BASE or t % 9 in (0, 8)


@dataclass(slots=True)
class Hand:
    """Facts about the winner's hand that do not depend on how it is split."""

    counts: list[int]
    seat_wind: int  # tile kind of the own seat wind
    win_kind: WinKind
    self_drawn: bool
    fed: bool  # won on another player's tile (discard or rob)
    last_tile: bool
    n_flowers: int
    n_seat_flowers: int
    n_flower_sets: int
    suits: int  # bitmask of suits present: 1 m, 2 p, 4 s
    honours: bool
    meld_pungs: list[tuple[int, str]]  # (tile, "pong"|"kong"|"akong")


def build_hand(seat: SeatHand, seat_wind_index: int, win_kind: WinKind, last_tile: bool) -> Hand:
    suits = 0
    honours = False
    tiles = list(seat.concealed)
    meld_pungs: list[tuple[int, str]] = []
    for m in seat.melds:
        tiles.extend(m.tiles)
        if m.kind is MeldKind.CHOW:
            raise ValueError("天台 has no chow (docs/rules/tiantai.md#claims): a chow meld cannot occur")
        meld_pungs.append((int(m.tiles[0]), m.kind.value))
    for t in tiles:
        if t < HONOUR_BASE:
            suits |= 1 << (t // 9)
        else:
            honours = True
    own = seat_flowers(seat_wind_index)
    return Hand(
        counts=counts_of(seat.concealed),
        seat_wind=HONOUR_BASE + seat_wind_index,
        win_kind=win_kind,
        self_drawn=win_kind in SELF_DRAWN_KINDS,
        fed=win_kind in FED_KINDS,
        last_tile=last_tile,
        n_flowers=len(seat.flowers),
        n_seat_flowers=sum(1 for f in seat.flowers if f in own),
        n_flower_sets=flower_sets(seat.flowers),
        suits=suits,
        honours=honours,
        meld_pungs=meld_pungs,
    )


@dataclass(slots=True)
class Shape:
    """One candidate reading of the hand, reduced to the counts the rules need."""

    hand: Hand
    wait: str
    pair: int
    chows: int
    # 刻/槓 counts by (kind, 么九?): keys like "exposed_pung", "exposed_pung_yao"
    sets: dict[str, int]
    dragon_pungs: int
    seat_wind_pungs: int


_MELD_KEY = {"pong": "exposed_pung", "kong": "exposed_kong", "akong": "concealed_kong"}


def build_shape(hand: Hand, cand: Candidate) -> Shape:
    sets: dict[str, int] = {}
    chows = dragons = seat_winds = 0
    pair = -1
    pungs = [(t, _MELD_KEY[k]) for t, k in hand.meld_pungs]
    for i, g in enumerate(cand.groups):
        kind = g.kind
        if kind == "chow":
            chows += 1
        elif kind == "pair":
            pair = g.tiles[0]
        else:  # a concealed pung; one completed by the winning discard counts as 明刻 (docs/rules/tiantai.md#scoring)
            discard_made = hand.fed and i == cand.win_index
            pungs.append((g.tiles[0], "exposed_pung" if discard_made else "concealed_pung"))
    for t, key in pungs:
        if is_yao(t):
            key += "_yao"
        sets[key] = sets.get(key, 0) + 1
        if t in DRAGONS:
            dragons += 1
        elif t == hand.seat_wind:
            seat_winds += 1
    return Shape(hand, cand.wait, pair, chows, sets, dragons, seat_winds)
