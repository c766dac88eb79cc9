"""Every decomposition of a winning hand (拆牌), for the scorers (docs/rules/common.md#best-reading: score every split).

Enumerated by backtracking over the lowest real tile, pruned with the need tables of ``engine.hand`` so that
every explored branch leads to a decomposition.  Jokers (財神) fill concrete slots; groups made of jokers
only are ``wild_set`` / ``wild_pair`` and the scorer decides what they stand for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.hand import DMIN, GROUP_OF, N_PLAY, WEIGHT, check_counts, codes_of, is_win, win_tables
from engine.tiles import TILES, Tile


@dataclass(frozen=True, slots=True)
class Group:
    """One set or the pair of a decomposition.

    ``kind`` is ``"chow" | "pung" | "pair" | "wild_set" | "wild_pair"``.  ``tiles`` are the faces the group
    represents, sorted, joker slots given their concrete face; empty for the joker-only groups
    ``wild_set`` (3 jokers) and ``wild_pair`` (2 jokers), whose meaning the scorer chooses.  ``wild`` is
    the number of jokers in the group.
    """

    kind: str
    tiles: tuple[Tile, ...]
    wild: int = 0


def _group_catalogue() -> tuple[tuple[Group, ...], dict[tuple[str, int, int], int]]:
    """Every group a decomposition can contain, ordered by first face then pair < pung < chow, wild last."""
    groups: list[Group] = []
    index: dict[tuple[str, int, int], int] = {}

    def put(kind: str, first: int, tiles: tuple[Tile, ...], wild: int) -> None:
        index[kind, first, wild] = len(groups)
        groups.append(Group(kind, tiles, wild))

    for f in range(N_PLAY):
        for w in (0, 1):
            put("pair", f, (TILES[f],) * 2, w)
        for w in (0, 1, 2):
            put("pung", f, (TILES[f],) * 3, w)
        if f < 27 and f % 9 <= 6:
            for w in (0, 1, 2):
                put("chow", f, (TILES[f], TILES[f + 1], TILES[f + 2]), w)
    put("wild_pair", -1, (), 2)
    put("wild_set", -1, (), 3)
    return tuple(groups), index


GROUPS, _GROUP_INDEX = _group_catalogue()
"""Every group a decomposition may use, in the order ``decompositions`` sorts its groups by."""
_WILD_PAIR: Final = _GROUP_INDEX["wild_pair", -1, 2]
_WILD_SET: Final = _GROUP_INDEX["wild_set", -1, 3]

# An option at lowest real tile i: (group id, required real tiles as ((kind, n), ...), code group,
# code delta, jokers used, is_pair).  Options without jokers come first, so that for J = 0 the search
# scans a prefix of the same list (the option index is kept across a joker count change).
_Option = tuple[int, tuple[tuple[int, int], ...], int, int, int, bool]


def _options_for(i: int) -> tuple[list[_Option], int]:
    opts: list[_Option] = []
    g, w = GROUP_OF[i], WEIGHT[i]
    for k in (3, 2, 1):
        opts.append((_GROUP_INDEX["pung", i, 3 - k], ((i, k),), g, k * w, 3 - k, False))
    for k in (2, 1):
        opts.append((_GROUP_INDEX["pair", i, 2 - k], ((i, k),), g, k * w, 2 - k, True))
    if i < 27:
        r = i % 9
        for start in (r - 2, r - 1, r):
            if start < 0 or start > 6:
                continue
            faces = [i - r + start + d for d in range(3)]
            above = [f for f in faces if f > i]  # faces below i are necessarily jokers
            for mask in range(1 << len(above)):
                real = [i] + [f for b, f in enumerate(above) if mask >> b & 1]
                jn = 3 - len(real)
                if jn == 3:
                    continue
                opts.append(
                    (
                        _GROUP_INDEX["chow", faces[0], jn],
                        tuple((f, 1) for f in real),
                        g,
                        sum(WEIGHT[f] for f in real),
                        jn,
                        False,
                    )
                )
    opts.sort(key=lambda o: o[4] > 0)  # stable: joker-free options first
    n_free = sum(1 for o in opts if o[4] == 0)
    return opts, n_free


_OPTIONS: Final = tuple(_options_for(i)[0] for i in range(N_PLAY))
_N_FREE: Final = tuple(_options_for(i)[1] for i in range(N_PLAY))


def decompositions(counts: Sequence[int], jokers: int = 0) -> list[tuple[Group, ...]]:
    """Every distinct split (as a multiset of groups) of counts + jokers into sets + exactly one pair.

    Jokers fill concrete slots of groups that contain at least one real tile (in every possible way,
    including a "5th copy"); groups made of jokers only are ``wild_set`` / ``wild_pair``.  Each
    decomposition is a tuple of groups sorted by first face (joker-only groups last); the list is sorted
    too.  ``[]`` when the hand is not a win.
    """
    if jokers < 0:
        raise ValueError("jokers must be >= 0")
    check_counts(counts)
    if not is_win(counts, jokers):
        return []
    cs = [*counts[:N_PLAY], 1]  # sentinel at 34
    cd = list(codes_of(counts))
    T, H, V, _ = win_tables()
    OPTS, NFREE = _OPTIONS, _N_FREE
    acc: list[int] = []
    found: set[tuple[int, ...]] = set()

    def leaf(j: int, pair: bool) -> None:
        tail = [_WILD_SET] * (j // 3)
        if not pair:
            tail.append(_WILD_PAIR)  # j ≡ 2 (mod 3), guaranteed by the pruning
        found.add((*sorted(acc), *tail))

    def rec(i: int, k0: int, j: int, pair: bool) -> None:
        if not cs[i]:
            k0 = 0
            i += 1
            while not cs[i]:
                i += 1
            if i == N_PLAY:
                leaf(j, pair)
                return
        opts = OPTS[i]
        for idx in range(k0, len(opts) if j else NFREE[i]):
            gid, req, g, delta, jn, isp = opts[idx]
            if jn > j or (isp and pair):
                continue
            for f, n in req:
                if cs[f] < n:
                    break
            else:
                cd[g] -= delta
                S = V[T[cd[0]]] + V[T[cd[1]]] + V[T[cd[2]]] + V[H[cd[3]]]
                p2 = pair or isp
                r = j - jn - (S >> 12)
                if not p2:
                    r -= DMIN[S & 4095]
                if r >= 0:
                    for f, n in req:
                        cs[f] -= n
                    acc.append(gid)
                    rec(i, idx, j - jn, p2)
                    acc.pop()
                    for f, n in req:
                        cs[f] += n
                cd[g] += delta

    i0 = 0
    while not cs[i0]:
        i0 += 1
    if i0 == N_PLAY:
        leaf(jokers, False)
    else:
        rec(i0, 0, jokers, False)
    G = GROUPS
    return [tuple(G[x] for x in key) for key in sorted(found)]


