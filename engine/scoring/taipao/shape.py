"""Readings of a hand (牌型讀法): every split of the winner, with every useful choice for its pure-財神 groups.

A ``Shape`` is the few facts the split-dependent rules look at.  Joker slots inside a group already carry
the face they stand for (``engine.hand`` fills them in); groups made of 財神 alone (``wild_set``,
``wild_pair``) get their faces here, from short lists that cover every pattern that can change a score
(§0 maximisation, §2.1 rule 9).  Non-winners have no split: their 財神 go where they add most (B-20).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import NamedTuple

from engine.hand import Group
from engine.scoring.taipao.held import FA, WHITE, WIND_END, Held, MeldPart
from engine.tiles import HONOUR_BASE

SUIT_MASKS = tuple(((1 << 9) - 1) << (9 * i) for i in range(3))
SUIT_FACES = (0, 9, 19)  # 1m, 1p, 2s (green): any other face of a suit scores the same
HONOURS = (27, 28, 29, 30, 31, FA)  # 白 adds nothing 中 does not (and is a bonus tile unless 財神)


class Shape(NamedTuple):
    mask: int  # bit k: face k appears in a set or the pair (melds included)
    winds: int  # bit i: a pung or kong of wind i (東 = 0)
    special: int  # pungs (碰 or 刻, not kongs) of the own wind, 中 or 發
    chows: int
    sets: int
    pair: int  # face of the pair; -1 for a non-winner
    wild_sets: int  # sets made of three 財神 alone (财神汇)


Candidate = tuple[Shape, int, tuple[int, ...]]  # shape, index of its split, faces of the pure-財神 groups


@dataclass(frozen=True, slots=True)
class Reading:
    """The chosen reading: the split and the faces given to its pure-財神 groups (sets first)."""

    shape: Shape
    groups: tuple[Group, ...]
    wild_faces: tuple[int, ...]


def meld_part(h: Held) -> MeldPart:
    """What the melds contribute to every reading (summed once by ``held_of``)."""
    return h.melded


def readings(h: Held, splits: Sequence[tuple[Group, ...]], mp: MeldPart) -> Iterator[Candidate]:
    """Every reading of the winner's hand (the caller skips repeated shapes)."""
    special = h.special
    white_is_bonus = h.white_is_bonus
    seen: set[tuple[Shape, bool, int]] = set()
    for index, split in enumerate(splits):
        mask, winds, n_special, chows, sets, use = mp.mask, mp.winds, mp.special, mp.chows, mp.sets, mp.use
        pair = -1
        wild_sets = 0
        wild_pair = False
        for g in split:
            kind = g.kind
            if kind == "chow":
                mask |= 7 << g.tiles[0]
                chows += 1
                sets += 1
            elif kind == "pung":
                t = g.tiles[0]
                mask |= 1 << t
                sets += 1
                if t >= HONOUR_BASE:
                    use += 3 << 4 * (t - HONOUR_BASE)
                    if t < WIND_END:
                        winds |= 1 << (t - HONOUR_BASE)
                    if t in special:
                        n_special += 1
            elif kind == "pair":
                pair = g.tiles[0]
                mask |= 1 << pair
                if pair >= HONOUR_BASE:
                    use += 2 << 4 * (pair - HONOUR_BASE)
            elif kind == "wild_set":
                wild_sets += 1
                sets += 1
            else:
                wild_pair = True
        if white_is_bonus and mask >> WHITE & 1:
            continue  # a 財神 may not stand for a bonus 白板 (§2.1 rule 9)
        shape = Shape(mask, winds, n_special, chows, sets, pair, wild_sets)
        if wild_sets or wild_pair:
            key = (shape, wild_pair, use)
            if key in seen:
                continue
            seen.add(key)
            for wshape, faces in _wild_readings(h, shape, wild_pair, use):
                yield wshape, index, faces
        else:
            yield shape, index, ()


def _wild_readings(h: Held, base: Shape, wild_pair: bool, use: int) -> Iterator[tuple[Shape, tuple[int, ...]]]:
    """Faces for the pure-財神 groups; no honour face may be used more than 4 times."""
    colours = _colours(base.mask)
    pair_faces: Sequence[int | None] = (None,)
    if wild_pair:
        missing = tuple(HONOUR_BASE + i for i in range(4) if not base.winds >> i & 1)
        pair_faces = (*colours, *missing) if len(missing) <= 1 + base.wild_sets else colours
    set_faces_of = HONOURS + colours[:-1]
    for set_faces in combinations_with_replacement(set_faces_of, base.wild_sets):
        for pf in pair_faces:
            u = use
            mask, winds, n_special, pair = base.mask, base.winds, base.special, base.pair
            for f in set_faces:
                mask |= 1 << f
                if f >= HONOUR_BASE:
                    u += 3 << 4 * (f - HONOUR_BASE)
                    if f < WIND_END:
                        winds |= 1 << (f - HONOUR_BASE)
                    if f in h.special:
                        n_special += 1
            if pf is not None:
                mask |= 1 << pf
                pair = pf
                if pf >= HONOUR_BASE:
                    u += 2 << 4 * (pf - HONOUR_BASE)
            if u != use and _overused(u, (*set_faces, pf)):
                continue
            faces = set_faces if pf is None else (*set_faces, pf)
            yield Shape(mask, winds, n_special, base.chows, base.sets, pair, base.wild_sets), faces


def _colours(mask: int) -> tuple[int, ...]:
    """Faces that differ for the colour patterns (清/混/绿一色), given the faces already in the hand: a face
    of the suit present (of each suit when none is) and 發 (an honour, and green).  With two suits present
    colour no longer matters, but a suit face is kept in case every honour is used up."""
    suits = [i for i in range(3) if mask & SUIT_MASKS[i]]
    if suits:
        return (SUIT_FACES[suits[0]], FA)
    return (*SUIT_FACES, FA)


def _overused(use: int, faces: tuple[int | None, ...]) -> bool:
    """One of ``faces`` (honours) is used more than 4 times; ``use`` has 4 bits per honour, 東 lowest."""
    return any(f is not None and f >= HONOUR_BASE and use >> 4 * (f - HONOUR_BASE) & 15 > 4 for f in faces)


def free_special_pungs(h: Held, mp: MeldPart) -> int:
    """B-20: a non-winner's 財神 complete as many own-wind/中/發 pungs as they can, each used once.

    Three or four natural tiles are a 刻 already; a pair needs one 財神, a single two, nothing three.
    """
    counts = h.counts
    jokers = h.jokers
    made = 0
    if not jokers:
        for f in h.special:
            if counts[f] >= 3 and f not in mp.faces:
                made += 1
        return made
    costs = [3 - counts[f] for f in h.special if f not in mp.faces]
    for cost in sorted(costs):
        if cost > jokers:
            break
        if cost > 0:
            jokers -= cost
        made += 1
    return made


_NONWINNER = tuple(Shape(0, 0, n, 0, 0, -1, 0) for n in range(8))


def nonwinner_shape(h: Held, mp: MeldPart) -> Shape:
    """A non-winner has no split; only its own-wind/中/發 pungs count (exposed and concealed)."""
    return _NONWINNER[mp.special + free_special_pungs(h, mp)]
