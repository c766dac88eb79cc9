"""Hand analysis (牌型判定): win check, waits and decompositions, with 財神 jokers.

The design follows ``notes/win-detection.md``:

* Every suit is one base-5 integer ``code = Σ count[r]·5^r`` (``5^9`` keys); the 7 honours form one 7-digit
  base-5 code.  ``HandCode`` keeps the four codes up to date on ``add``/``remove``.
* Per code, a precomputed table holds ``NEED0`` (fewest jokers turning the group into melds only) and
  ``NEED1`` (fewest jokers turning it into melds + exactly one pair).  Jokers may fill any slot of a chow,
  pung or pair, also a "5th copy".
* A hand of real tiles plus ``J`` jokers is a standard win (n sets + 1 pair) iff

      base = Σ NEED0[g],  dmin = min(2, min_g NEED1[g] − NEED0[g]),  r = J − base − dmin,
      r ≥ 0 and r ≡ 0 (mod 3).

  The ``r ≡ 0`` test replaces the hand-size test: every completion uses ``2 − size (mod 3)`` jokers, so
  the leftover (which forms joker-only sets) is a multiple of 3 exactly when the size is ``3n+2``.

The tables (1.95 M + 78 k entries, one byte each on disk: ``NEED0 << 2 | (NEED1 − NEED0 + 1)``) are built by
``engine.hand_tables.build_tables()`` (about one second) and shipped zlib-compressed in ``engine/data/hand_tables.zlib``;
``python -m engine.hand_tables --build`` regenerates the file.  They are kept as they ship, one byte per
code (2 MB in all), and each byte is read through ``VALUE``, the 256 values laid out for one addition per
group::

    VALUE[byte] = NEED0 << 12 | 1 << 3·(NEED1 − NEED0 + 1)

so ``S = Σ VALUE[table[code]]`` carries the base in ``S >> 12`` and a histogram of the four ``NEED1 − NEED0``
values in the low 12 bits, whose minimum ``DMIN`` looks up.  (Until issue 36 the tables were lists of the
values themselves, 15.6 MB of pointers per process; the bytes cost one more subscript of a 256-entry tuple,
which reading the tables as ``Final`` names repaid several times over: bench/results/throughput.md, eleventh
round.)

Decompositions (needed for scoring only, on a confirmed win) are in ``engine.decompose``, which builds on
this module's tables (and so is not re-exported here: that would tie the two modules in a circle).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine.hand_tables import POW5, SUIT_KEYS, read_table_payload
from engine.tiles import TILES, Tile

__all__ = [
    "HandCode",
    "DMIN",
    "GROUP_OF",
    "VALUE",
    "WEIGHT",
    "check_counts",
    "is_win",
    "waits",
    "win_tables",
]

# --------------------------------------------------------------------------------------------------
# Layout constants

N_PLAY: Final = 34  # suited + honour kinds; flowers (34..41) are never part of a hand shape

#: per tile kind: which code it lives in (0 m, 1 p, 2 s, 3 honours) and the weight ``5^rank`` (public: the
#: bots' 向聽 and the decompositions walk hand codes with them).
GROUP_OF: Final[tuple[int, ...]] = tuple(t // 9 for t in range(N_PLAY))
WEIGHT: Final[tuple[int, ...]] = tuple(POW5[t % 9] for t in range(N_PLAY))
#: ``_Pk[d] = d·5^k``: digit lookups are a little faster than Horner's multiplications in CPython.  Each one
#: ``Final`` on its own, so the compiled module reads it as a C static, not from the module's dict.
_P1: Final = tuple(d * POW5[1] for d in range(5))
_P2: Final = tuple(d * POW5[2] for d in range(5))
_P3: Final = tuple(d * POW5[3] for d in range(5))
_P4: Final = tuple(d * POW5[4] for d in range(5))
_P5: Final = tuple(d * POW5[5] for d in range(5))
_P6: Final = tuple(d * POW5[6] for d in range(5))
_P7: Final = tuple(d * POW5[7] for d in range(5))
_P8: Final = tuple(d * POW5[8] for d in range(5))

# --------------------------------------------------------------------------------------------------
# Runtime tables (loaded at import: a stand-in loading them on first use would be refused by the compiled
# engine's type checks, tools/compile_engine.py)

#: ``DMIN[h]`` = min D over the groups, from the 4×3-bit histogram ``h`` of ``D + 1`` values.
DMIN: Final = tuple(next((k - 1 for k in range(4) if (h >> (3 * k)) & 7), 2) for h in range(4096))


#: ``VALUE[b]``: what a table byte ``b = NEED0 << 2 | (D + 1)`` adds to a hand's sum (see the module's doc).
VALUE: Final[tuple[int, ...]] = tuple(((b >> 2) << 12) | (1 << (3 * (b & 3))) for b in range(256))


def _split_tables() -> tuple[bytes, bytes]:
    raw = read_table_payload()
    return raw[:SUIT_KEYS], raw[SUIT_KEYS:]


# ``Final``: the compiled module reads a final name as a C static, a plain global from the module's dict on
# every win check.
_TABLES: Final = _split_tables()
_SUIT: Final = _TABLES[0]
_HON: Final = _TABLES[1]


def win_tables() -> tuple[bytes, bytes, tuple[int, ...], tuple[int, ...]]:
    """The runtime win tables: (suit codes → byte, honour codes → byte, ``VALUE``, ``DMIN``).

    ``VALUE[byte]`` packs NEED0 in its bits from 12 up and a histogram of D + 1 in its low 12 bits; ``DMIN[h]``
    is the least D of such a histogram, ``h`` being the low 12 bits of a sum of four values.  For analyses
    that walk hand codes themselves (engine.bots.shanten, engine.decompose)."""
    return _SUIT, _HON, VALUE, DMIN


def _need(value: int) -> tuple[int, int]:
    """(NEED0, NEED1) from a runtime table value (for tests and debugging)."""
    need0 = value >> 12
    d = (value & 4095).bit_length() // 3 - 1
    return need0, need0 + d


def suit_needs(code: int) -> tuple[int, int]:
    """(NEED0, NEED1) of one 9-rank suit code."""
    return _need(VALUE[_SUIT[code]])


def honour_needs(code: int) -> tuple[int, int]:
    """(Σ NEED0, Σ NEED0 + min D) of the 7-digit honour code."""
    return _need(VALUE[_HON[code]])


# --------------------------------------------------------------------------------------------------
# Codes from count vectors


def codes_of(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """The four base-5 codes (m, p, s, honours) of a count vector (34 or 42 long; flowers ignored)."""
    if len(counts) == 42:
        (a0, a1, a2, a3, a4, a5, a6, a7, a8,
         b0, b1, b2, b3, b4, b5, b6, b7, b8,
         c0, c1, c2, c3, c4, c5, c6, c7, c8,
         h0, h1, h2, h3, h4, h5, h6, _, _, _, _, _, _, _, _) = counts  # fmt: skip
    else:
        (a0, a1, a2, a3, a4, a5, a6, a7, a8,
         b0, b1, b2, b3, b4, b5, b6, b7, b8,
         c0, c1, c2, c3, c4, c5, c6, c7, c8,
         h0, h1, h2, h3, h4, h5, h6) = counts if len(counts) == 34 else counts[:34]  # fmt: skip
    return (
        a0 + _P1[a1] + _P2[a2] + _P3[a3] + _P4[a4] + _P5[a5] + _P6[a6] + _P7[a7] + _P8[a8],
        b0 + _P1[b1] + _P2[b2] + _P3[b3] + _P4[b4] + _P5[b5] + _P6[b6] + _P7[b7] + _P8[b8],
        c0 + _P1[c1] + _P2[c2] + _P3[c3] + _P4[c4] + _P5[c5] + _P6[c6] + _P7[c7] + _P8[c8],
        h0 + _P1[h1] + _P2[h2] + _P3[h3] + _P4[h4] + _P5[h5] + _P6[h6],
    )


def check_counts(counts: Sequence[int]) -> None:
    """Refuse (``ValueError``) a count vector that is too short or holds a count outside 0..4."""
    if len(counts) < N_PLAY:
        raise ValueError(f"expected a 34- or 42-long count vector, got {len(counts)}")
    playable = counts[:N_PLAY]
    if min(playable) >= 0 and max(playable) <= 4:  # the common case, in C; else find the culprit below
        return
    for t in range(N_PLAY):
        if not 0 <= counts[t] <= 4:
            raise ValueError(f"count of {TILES[t]} is {counts[t]}: must be 0..4")


# --------------------------------------------------------------------------------------------------
# Win check


def is_win(counts: Sequence[int], jokers: int = 0) -> bool:
    """Do the concealed ``counts`` plus ``jokers`` wildcards form n sets + exactly one pair?

    ``counts`` is a 42-long (or 34-long) count vector, each entry 0..4; flower slots are ignored.  Jokers
    may stand for any suited or honour tile.  A hand whose size is not ``3n+2`` is never a win.
    """
    if len(counts) == 42:
        (a0, a1, a2, a3, a4, a5, a6, a7, a8,
         b0, b1, b2, b3, b4, b5, b6, b7, b8,
         c0, c1, c2, c3, c4, c5, c6, c7, c8,
         h0, h1, h2, h3, h4, h5, h6, _, _, _, _, _, _, _, _) = counts  # fmt: skip
    else:
        (a0, a1, a2, a3, a4, a5, a6, a7, a8,
         b0, b1, b2, b3, b4, b5, b6, b7, b8,
         c0, c1, c2, c3, c4, c5, c6, c7, c8,
         h0, h1, h2, h3, h4, h5, h6) = counts if len(counts) == 34 else counts[:34]  # fmt: skip
    T, V = _SUIT, VALUE
    S = (
        V[T[a0 + _P1[a1] + _P2[a2] + _P3[a3] + _P4[a4] + _P5[a5] + _P6[a6] + _P7[a7] + _P8[a8]]]
        + V[T[b0 + _P1[b1] + _P2[b2] + _P3[b3] + _P4[b4] + _P5[b5] + _P6[b6] + _P7[b7] + _P8[b8]]]
        + V[T[c0 + _P1[c1] + _P2[c2] + _P3[c3] + _P4[c4] + _P5[c5] + _P6[c6] + _P7[c7] + _P8[c8]]]
        + V[_HON[h0 + _P1[h1] + _P2[h2] + _P3[h3] + _P4[h4] + _P5[h5] + _P6[h6]]]
    )
    r = jokers - (S >> 12) - DMIN[S & 4095]
    return r >= 0 and r % 3 == 0


class HandCode:
    """The four base-5 codes of a concealed hand, kept up to date tile by tile.

    >>> from engine.tiles import parse_tiles
    >>> h = HandCode(parse_tiles("123m 456p 789s 111z 5z"))
    >>> h.is_win_with(parse_tiles("5z")[0]), h.is_win(jokers=1), h.is_win()
    (True, True, False)
    """

    __slots__ = ("_c", "_n")

    def __init__(self, tiles: Iterable[int] = ()) -> None:
        self._c: list[int] = [0, 0, 0, 0]
        self._n: int = 0
        for t in tiles:
            self.add(t)

    @classmethod
    def from_counts(cls, counts: Sequence[int]) -> HandCode:
        check_counts(counts)
        h = cls()
        h._c = list(codes_of(counts))
        h._n = sum(counts[:N_PLAY])
        return h

    def add(self, t: int) -> None:
        """Add one tile kind (0..33).  Raises ``ValueError`` for flowers or a 5th copy."""
        if not 0 <= t < N_PLAY:
            raise ValueError(f"{TILES[t] if 0 <= t < len(TILES) else t} cannot be part of a hand shape")
        g, w = GROUP_OF[t], WEIGHT[t]
        c = self._c
        if c[g] // w % 5 == 4:
            raise ValueError(f"a 5th {TILES[t]}")
        c[g] += w
        self._n += 1

    def remove(self, t: int) -> None:
        """Remove one tile kind.  Raises ``ValueError`` if the hand holds none."""
        if not 0 <= t < N_PLAY:
            raise ValueError(f"{TILES[t] if 0 <= t < len(TILES) else t} cannot be part of a hand shape")
        g, w = GROUP_OF[t], WEIGHT[t]
        c = self._c
        if c[g] // w % 5 == 0:
            raise ValueError(f"no {TILES[t]} to remove")
        c[g] -= w
        self._n -= 1

    def count(self, t: int) -> int:
        """How many of kind ``t`` are held."""
        return self._c[GROUP_OF[t]] // WEIGHT[t] % 5

    def counts(self) -> list[int]:
        """A fresh 42-long count vector."""
        return [self.count(t) for t in range(N_PLAY)] + [0] * 8

    def __len__(self) -> int:
        return self._n

    @property
    def codes(self) -> tuple[int, int, int, int]:
        """The (m, p, s, honours) base-5 codes."""
        m, p, s, h = self._c
        return m, p, s, h

    def is_win(self, jokers: int = 0) -> bool:
        """Is the hand, with ``jokers`` wildcards, a standard win?"""
        m, p, s, h = self._c
        T, V = _SUIT, VALUE
        S = V[T[m]] + V[T[p]] + V[T[s]] + V[_HON[h]]
        r = jokers - (S >> 12) - DMIN[S & 4095]
        return r >= 0 and r % 3 == 0

    def is_win_with(self, t: int, jokers: int = 0) -> bool:
        """Would the hand win with one more ``t`` (a real tile, not a joker)?  No mutation.

        False when 4 copies of ``t`` are already held, or for flowers.
        """
        if not 0 <= t < N_PLAY:
            return False
        c = self._c
        m, p, s, h = c
        g, w = GROUP_OF[t], WEIGHT[t]
        T, V = _SUIT, VALUE
        old = c[g]
        if old // w % 5 == 4:
            return False
        S = V[T[m]] + V[T[p]] + V[T[s]] + (V[_HON[h + w]] if g == 3 else V[_HON[h]] - V[T[old]] + V[T[old + w]])
        r = jokers - (S >> 12) - DMIN[S & 4095]
        return r >= 0 and r % 3 == 0

    def is_win_without(self, t: int, jokers: int = 0) -> bool:
        """Would the hand win with one ``t`` fewer (a discard of ``t``)?  No mutation.

        Raises ``ValueError`` if the hand holds no ``t`` (as ``remove`` does).
        """
        if not 0 <= t < N_PLAY:
            raise ValueError(f"{TILES[t] if 0 <= t < len(TILES) else t} cannot be part of a hand shape")
        c = self._c
        m, p, s, h = c
        g, w = GROUP_OF[t], WEIGHT[t]
        T, V = _SUIT, VALUE
        old = c[g]
        if old // w % 5 == 0:
            raise ValueError(f"no {TILES[t]} to remove")
        S = V[T[m]] + V[T[p]] + V[T[s]] + (V[_HON[h - w]] if g == 3 else V[_HON[h]] - V[T[old]] + V[T[old - w]])
        r = jokers - (S >> 12) - DMIN[S & 4095]
        return r >= 0 and r % 3 == 0

    def waits(self, jokers: int = 0, kinds: Iterable[int] = range(N_PLAY)) -> list[Tile]:
        """As the module-level ``waits``, for this hand."""
        return _waits_from_codes(self._c, jokers, kinds)

    def copy(self) -> HandCode:
        h = HandCode()
        h._c = self._c[:]
        h._n = self._n
        return h

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandCode) and self._c == other._c

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        from engine.tiles import format_tiles

        kinds = [t for t in range(N_PLAY) for _ in range(self.count(t))]
        return f"HandCode({format_tiles(kinds)!r})"


# --------------------------------------------------------------------------------------------------
# Waits


def waits(counts: Sequence[int], jokers: int = 0, kinds: Iterable[int] = range(N_PLAY)) -> list[Tile]:
    """Every kind in ``kinds`` (in that order) that, added to the hand, makes it a win.

    Meaningful for a hand of size ``3n+1`` (otherwise the answer is ``[]``).  Kinds of which the hand
    already holds 4 are excluded, as are flower kinds.  A drawn joker is not a "kind" here: the caller
    maps wildcard faces (see ``engine.cli_waits``).
    """
    return _waits_from_codes(codes_of(counts), jokers, kinds)


def _waits_from_codes(codes: Sequence[int], jokers: int, kinds: Iterable[int]) -> list[Tile]:
    T, H, V = _SUIT, _HON, VALUE
    m, p, s, h = codes
    tv = (V[T[m]], V[T[p]], V[T[s]], V[H[h]])
    S = tv[0] + tv[1] + tv[2] + tv[3]
    # A joker is at least as good as any real tile: no win with J+1 jokers means no waits at all.
    r = jokers + 1 - (S >> 12) - DMIN[S & 4095]
    if r < 0 or r % 3:
        return []
    out: list[Tile] = []
    for t in kinds:
        if not 0 <= t < N_PLAY:
            continue
        g, w = GROUP_OF[t], WEIGHT[t]
        old = codes[g]
        if old // w % 5 == 4:
            continue
        S2 = S - tv[g] + V[H[old + w] if g == 3 else T[old + w]]
        r = jokers - (S2 >> 12) - DMIN[S2 & 4095]
        if r >= 0 and r % 3 == 0:
            out.append(TILES[t])
    return out
