"""What the 台灣 rules look at (牌型特徵): hand-level facts and one candidate reading of the hand."""

from __future__ import annotations

from dataclasses import dataclass

from engine.hand import waits
from engine.melds import MeldKind
from engine.scoring.readings import Candidate
from engine.scoring.situation import (
    FED_KINDS,
    SELF_DRAWN_KINDS,
    Declaration,
    KongKind,
    SeatHand,
    Situation,
    WinKind,
)
from engine.scoring.tile_sets import DRAGONS, WINDS, flower_sets
from engine.tiles import HONOUR_BASE, Tile, counts_of, seat_flowers


@dataclass(slots=True)
class Hand:
    """Facts about the winner's hand that do not depend on how it is split."""

    counts: list[int]
    winning_tile: Tile | None
    seat_wind: int  # tile kinds
    round_wind: int
    win_kind: WinKind
    kong_kind: KongKind | None  # the kong whose replacement won (槓上開花)
    self_drawn: bool
    fed: bool
    last_tile: bool
    concealed_hand: bool  # 門清: no chow, pong, 明槓 or 加槓 (暗槓 allowed)
    all_exposed: bool  # five exposed melds, none of them 暗槓
    n_flowers: int
    n_seat_flowers: int
    n_flower_sets: int
    suits: int  # bitmask 1 m, 2 p, 4 s
    honours: bool
    meld_sets: list[tuple[int, MeldKind]]
    declaration: Declaration | None
    heavenly: bool
    earthly: bool
    human: bool
    _n_waits: int = -1

    def n_waits(self) -> int:
        """How many kinds the hand minus the winning tile was waiting on (平胡 ≥ 2, 獨聽 = 1)."""
        if self._n_waits < 0:
            c = list(self.counts)
            if self.winning_tile is not None:
                c[self.winning_tile] -= 1
            self._n_waits = len(waits(c))
        return self._n_waits


def build_hand(s: Situation, w: int, seat_wind_index: int) -> Hand:
    seat: SeatHand = s.seats[w]
    assert s.win_kind is not None
    suits = 0
    honours = False
    tiles = list(seat.concealed)
    for m in seat.melds:
        tiles.extend(m.tiles)
    for t in tiles:
        if t < HONOUR_BASE:
            suits |= 1 << (t // 9)
        else:
            honours = True
    own = seat_flowers(seat_wind_index)
    kinds = [m.kind for m in seat.melds]
    return Hand(
        counts=counts_of(seat.concealed),
        winning_tile=s.winning_tile,
        seat_wind=HONOUR_BASE + seat_wind_index,
        round_wind=HONOUR_BASE + s.round_wind,
        win_kind=s.win_kind,
        kong_kind=s.kong_kind,
        self_drawn=s.win_kind in SELF_DRAWN_KINDS,
        fed=s.win_kind in FED_KINDS,
        last_tile=s.last_tile,
        concealed_hand=all(k is MeldKind.AKONG for k in kinds),
        all_exposed=len(kinds) == 5 and MeldKind.AKONG not in kinds,
        n_flowers=len(seat.flowers),
        n_seat_flowers=sum(1 for f in seat.flowers if f in own),
        n_flower_sets=flower_sets(seat.flowers),
        suits=suits,
        honours=honours,
        meld_sets=[(int(m.tiles[0]), m.kind) for m in seat.melds],
        declaration=seat.declaration,
        heavenly=s.heavenly,
        earthly=s.earthly,
        human=s.human,
    )


@dataclass(slots=True)
class Shape:
    """One candidate reading of the hand, reduced to the counts the rules need."""

    hand: Hand
    wait: str
    pair: int
    chows: int
    concealed_pungs: int  # 暗刻 + 暗槓; a pung completed by the winning discard is not one
    dragon_pungs: int
    wind_pungs: int
    wind_matches: int  # Σ over wind pungs of (= 圈風) + (= 門風)


def build_shape(hand: Hand, cand: Candidate) -> Shape:
    chows = concealed = dragons = winds = matches = 0
    pair = -1
    pungs: list[int] = []
    for t, kind in hand.meld_sets:
        if kind is MeldKind.CHOW:
            chows += 1
            continue
        pungs.append(t)
        if kind is MeldKind.AKONG:
            concealed += 1
    for i, g in enumerate(cand.groups):
        if g.kind == "chow":
            chows += 1
        elif g.kind == "pair":
            pair = g.tiles[0]
        else:
            pungs.append(g.tiles[0])
            if not (hand.fed and i == cand.win_index):
                concealed += 1
    for t in pungs:
        if t in DRAGONS:
            dragons += 1
        elif t in WINDS:
            winds += 1
            matches += (t == hand.round_wind) + (t == hand.seat_wind)
    return Shape(hand, cand.wait, pair, chows, concealed, dragons, winds, matches)
