"""Readings of a hand (牌型讀法): every split of the winner, with every useful choice for its pure-財神 groups.

A ``Shape`` is the few facts the split-dependent rules look at.  Joker slots inside a group already carry
the face they stand for (``engine.hand`` fills them in); groups made of 財神 alone (``wild_set``,
``wild_pair``) get their faces here, from short lists that cover every pattern that can change a score
(docs/rules/common.md#best-reading, docs/rules/taipao.md#caishen-use).  Non-winners have no split: their 財神 go where they add most (B-20).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.decompose import Group
from engine.scoring.taipao.held import FA, WHITE, WIND_END, Held, MeldPart, honour_sets
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
    pair: int  # face of the pair; for a non-winner its own wind when it holds that pair (D-3), else -1
    wild_sets: int  # sets made of three 財神 alone (财神汇): they take no face (D-2)


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
            continue  # a 財神 may not stand for a bonus 白板 (docs/rules/taipao.md#caishen-use)
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
    """Faces for a pure-財神 pair: a colour face, the wind 四风会齐 misses, the own wind (門風對, docs/rules/taipao.md#bare-caishen E-1);
    no honour face may be used more than 4 times.

    A set of three 財神 alone is 财神汇 and takes no face (docs/rules/taipao.md#bare-caishen D-2, "3 张财神未作替代入型"): it is
    no pung of the own wind / 中 / 發, no wind for 四风会齐, no colour.
    """
    if not wild_pair:
        yield base, ()
        return
    colours = _colours(base.mask)
    missing = tuple(HONOUR_BASE + i for i in range(4) if not base.winds >> i & 1)
    pair_faces = (*colours, *missing) if len(missing) <= 1 else colours
    if h.wind not in pair_faces:
        pair_faces = (*pair_faces, h.wind)  # E-1: the own wind, for 門風對 (D-3)
    for pf in pair_faces:
        u = use
        if pf >= HONOUR_BASE:
            u += 2 << 4 * (pf - HONOUR_BASE)
            if _overused(u, (pf,)):
                continue
        yield base._replace(mask=base.mask | 1 << pf, pair=pf), (pf,)


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


_NONWINNER: dict[tuple[int, int], Shape] = {}


def nonwinner_shape(h: Held, mp: MeldPart) -> Shape:
    """A non-winner has no split; only its own-wind/中/發 pungs (exposed and concealed, B-20) and its
    own-wind pair (D-3) count."""
    pungs, pair = honour_sets(h.counts.__getitem__, h.wind, h.special, mp.faces, h.jokers)
    key = (mp.special + pungs, h.wind if pair else -1)
    got = _NONWINNER.get(key)
    if got is None:
        got = _NONWINNER[key] = Shape(0, 0, key[0], 0, 0, key[1], 0)
    return got
