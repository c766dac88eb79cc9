"""Readings of a winning hand (拆牌與聽型): its splits and where its winning tile sits.

Used by the 天台 and 台灣 scorers (台炮 reads its hands with 財神, in ``taipao/shape.py``).  A *candidate* is one split of the concealed tiles (from
``engine.hand.decompositions``) together with the group that the winning tile completed; the scorers
score every candidate and keep the best (docs/rules/common.md#best-reading, A-15).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.decompose import Group, decompositions
from engine.scoring.situation import Situation
from engine.tiles import Tile

# How the winning tile completed its group (聽型).
TWO_SIDED = "two_sided"  # 兩面: 23 + 1/4
EDGE = "edge"  # 邊張: 12 + 3, 89 + 7
CLOSED = "closed"  # 嵌張 / 卡張: 46 + 5
PAIR = "pair"  # 單吊: the winning tile completes the pair
PUNG = "pung"  # 雙碰: the winning tile completes a pung
NO_TILE = "none"  # no winning tile (flower wins)


class Candidate(NamedTuple):
    """One way to read a winning hand: the concealed split plus the winning tile's group."""

    groups: tuple[Group, ...]
    win_index: int  # index in ``groups`` of the group holding the winning tile; -1 if none
    wait: str


def wait_of(group: Group, tile: Tile) -> str:
    """The wait shape that ``tile`` completed in ``group``."""
    if group.kind == "pair":
        return PAIR
    if group.kind != "chow":
        return PUNG
    low = min(group.tiles)
    pos = tile - low
    if pos == 1:
        return CLOSED
    if pos == 0:
        return EDGE if low % 9 == 6 else TWO_SIDED  # 7 of 789
    return EDGE if low % 9 == 0 else TWO_SIDED  # 3 of 123


def candidates(counts: Sequence[int], winning_tile: Tile | None) -> list[Candidate]:
    """Every (split, winning-tile group) reading of ``counts``; ValueError if it is not a win."""
    splits = decompositions(counts)
    if not splits:
        raise ValueError("the winner's concealed tiles do not form a winning hand")
    out: list[Candidate] = []
    for groups in splits:
        if winning_tile is None:
            out.append(Candidate(groups, -1, NO_TILE))
            continue
        seen: list[Group] = []
        for i, g in enumerate(groups):
            if winning_tile in g.tiles and g not in seen:
                seen.append(g)
                out.append(Candidate(groups, i, wait_of(g, winning_tile)))
    return out


def check_winner_tiles(s: Situation, w: int, hand_tiles: int, variant: str) -> None:
    """The winner ``w`` holds a whole hand of ``hand_tiles`` (kongs counted as 3) that contains the winning
    tile; ValueError otherwise (``variant`` names the game in the message)."""
    seat = s.seats[w]
    n = len(seat.concealed) + 3 * len(seat.melds)
    if n != hand_tiles:
        raise ValueError(f"winner seat {w} has {n} tiles (kongs counted as 3); a {variant} win needs {hand_tiles}")
    if s.winning_tile is None:
        if not s.heavenly:
            raise ValueError("winning_tile is required for a win (except 天胡)")
    elif s.winning_tile not in seat.concealed:
        raise ValueError(f"winner seat {w}: the winning tile {s.winning_tile} is not among the concealed tiles")
