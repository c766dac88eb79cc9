"""Readings of a hand (牌型讀法): every split of the winner, with every choice for its pure-財神 groups.

A ``Shape`` is the few facts the split-dependent rules look at.  Joker slots inside a group already carry
the face they stand for (``engine.hand`` fills them in); groups made of 財神 alone (``wild_set``,
``wild_pair``) get their faces here, from a short list that covers every pattern that can change a score
(§0 maximisation, §2.1 rule 9).  Non-winners have no split: their 財神 go where they add most (B-20).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import NamedTuple

from engine.hand import Group
from engine.melds import MeldKind
from engine.scoring.taipao.held import WHITE, Held
from engine.tiles import HONOUR_BASE

WIND_END = HONOUR_BASE + 4
# Faces a pure-財神 group may take: every wind, 中, 發, and one face per suit (2s is also green).
# 白 is left out: when it is a 財神 face it adds nothing a 中 does not, and otherwise it is a bonus tile.
WILD_FACES = (27, 28, 29, 30, 31, 32, 0, 9, 19)


class Shape(NamedTuple):
    mask: int  # bit k: face k appears in a set or the pair (melds included)
    winds: int  # bit i: a pung or kong of wind i (東 = 0)
    special: int  # pungs (碰 or 刻, not kongs) of the own wind, 中 or 發
    chows: int
    sets: int
    pair: int  # face of the pair; -1 for a non-winner
    wild_sets: int  # sets made of three 財神 alone (财神汇)


@dataclass(frozen=True, slots=True)
class Reading:
    """One scored reading: the split and the faces chosen for its pure-財神 groups (sets first)."""

    shape: Shape
    groups: tuple[Group, ...]
    wild_faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MeldPart:
    """What the exposed and declared melds contribute to every reading."""

    mask: int
    winds: int
    special: int
    chows: int
    sets: int
    faces: frozenset[int]  # faces of pungs and kongs


NO_MELDS = MeldPart(0, 0, 0, 0, 0, frozenset())


def meld_part(h: Held) -> MeldPart:
    if not h.melds:
        return NO_MELDS
    mask = winds = special = chows = 0
    faces: set[int] = set()
    for m in h.melds:
        t = int(min(m.tiles))
        if m.kind is MeldKind.CHOW:
            mask |= 7 << t
            chows += 1
            continue
        mask |= 1 << t
        faces.add(t)
        if HONOUR_BASE <= t < WIND_END:
            winds |= 1 << (t - HONOUR_BASE)
        if m.kind is MeldKind.PONG and t in h.special:
            special += 1
    return MeldPart(mask, winds, special, chows, len(h.melds), frozenset(faces))


def readings(h: Held, splits: Sequence[tuple[Group, ...]], mp: MeldPart) -> Iterator[Reading]:
    """Every distinct reading of the winner's hand."""
    special = h.special
    for split in splits:
        mask, winds, n_special, chows, sets = mp.mask, mp.winds, mp.special, mp.chows, mp.sets
        pair = -1
        wild_sets = 0
        wild_pair = False
        for g in split:
            kind = g.kind
            if kind == "chow":
                mask |= 7 << min(g.tiles)
                chows += 1
                sets += 1
            elif kind == "pung":
                t = g.tiles[0]
                mask |= 1 << t
                sets += 1
                if HONOUR_BASE <= t < WIND_END:
                    winds |= 1 << (t - HONOUR_BASE)
                if t in special:
                    n_special += 1
            elif kind == "pair":
                pair = g.tiles[0]
                mask |= 1 << pair
            elif kind == "wild_set":
                wild_sets += 1
                sets += 1
            else:
                wild_pair = True
        if mask >> WHITE & 1 and h.white_is_bonus:
            continue  # a joker standing for a bonus 白板 is not allowed (§2.1 rule 9)
        shape = Shape(mask, winds, n_special, chows, sets, pair, wild_sets)
        if wild_sets or wild_pair:
            yield from _wild_readings(h, split, shape, wild_pair)
        else:
            yield Reading(shape, split, ())


def _honour_use(h: Held, split: tuple[Group, ...]) -> list[int]:
    use = [0] * 7
    for m in h.melds:
        if m.tiles[0] >= HONOUR_BASE:
            use[m.tiles[0] - HONOUR_BASE] += len(m.tiles)
    for g in split:
        for t in g.tiles:
            if t >= HONOUR_BASE:
                use[t - HONOUR_BASE] += 1
    return use


def _wild_readings(h: Held, split: tuple[Group, ...], base: Shape, wild_pair: bool) -> Iterator[Reading]:
    """Give each pure-財神 group a face; no honour face may be used more than 4 times."""
    use = _honour_use(h, split)
    pair_faces: Sequence[int | None] = WILD_FACES if wild_pair else (None,)
    for set_faces in combinations_with_replacement(WILD_FACES, base.wild_sets):
        for pf in pair_faces:
            need = [0] * 7
            mask, winds, special, pair = base.mask, base.winds, base.special, base.pair
            for f in set_faces:
                mask |= 1 << f
                if f >= HONOUR_BASE:
                    need[f - HONOUR_BASE] += 3
                    if f < WIND_END:
                        winds |= 1 << (f - HONOUR_BASE)
                if f in h.special:
                    special += 1
            if pf is not None:
                mask |= 1 << pf
                pair = pf
                if pf >= HONOUR_BASE:
                    need[pf - HONOUR_BASE] += 2
            if any(n and n + u > 4 for n, u in zip(need, use, strict=True)):
                continue
            faces = set_faces if pf is None else (*set_faces, pf)
            shape = Shape(mask, winds, special, base.chows, base.sets, pair, base.wild_sets)
            yield Reading(shape, split, faces)


def free_special_pungs(h: Held, mp: MeldPart) -> int:
    """B-20: a non-winner's 財神 complete as many own-wind/中/發 pungs as they can, each used once.

    Three or four natural tiles are a 刻 already; a pair needs one 財神, a single two, none three.
    """
    counts = h.counts
    if not h.jokers:
        return sum(1 for f in h.special if counts[f] >= 3 and f not in mp.faces)
    costs = sorted(max(0, 3 - counts[f]) for f in h.special if f not in mp.faces)
    jokers = h.jokers
    made = 0
    for cost in costs:
        if cost > jokers:
            break
        jokers -= cost
        made += 1
    return made


def nonwinner_shape(h: Held, mp: MeldPart) -> Shape:
    return Shape(0, 0, mp.special + free_special_pungs(h, mp), 0, 0, -1, 0)
