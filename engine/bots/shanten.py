"""Tile efficiency for the bots and the hints: 向聽 (distance from ready), 進張 (useful draws) and waits.

Everything here is computed from one seat's own sight (:class:`Sight`): its concealed tiles and what is
public (melds, rivers, flowers, the 財神 indicators).  Other seats' concealed tiles and the wall are never
read, so a bot or a hint built on it cannot leak hidden information.

The distance uses the engine's win tables (``engine.hand``): ``need`` is the fewest extra wildcards that
turn the concealed tiles into a win, with 財神 held already counted as wildcards.  A 3n+1 hand with
need 1 is ready (聽牌), so 向聽 = need − 1.  Because the tables complete *every* tile, a hand's need
counts the cost of its useless tiles too; choosing the discard that lowers it most throws those first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from engine import hand as _hand
from engine.melds import MeldKind
from engine.tiles import N_KINDS, TILES, parse_tiles

if TYPE_CHECKING:
    from engine.state import HandState

# ``Final``: read as C statics by the compiled module (plain globals are looked up in the module's dict).
N_PLAY: Final = _hand.N_PLAY
_GROUP: Final = _hand.GROUP_OF
_WEIGHT: Final = _hand.WEIGHT


@dataclass(slots=True)
class Sight:
    """What one seat knows (所見): its concealed tiles and, per kind, how many copies it has not seen.

    ``counts`` is the seat's 42-long concealed count vector; ``wild`` the 財神 faces; ``unseen[k]`` the
    copies of kind ``k`` in neither this seat's hand nor any public place (melds, rivers, flowers,
    indicators): they are in the wall or other hands, as far as this seat can tell.
    """

    seat: int
    counts: list[int]
    wild: frozenset[int]
    unseen: list[int]

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, seat: int, counts: list[int], wild: frozenset[int], unseen: list[int]) -> None:
        self.seat, self.counts, self.wild, self.unseen = seat, counts, wild, unseen

    @property
    def jokers(self) -> int:
        """財神 held (wildcards)."""
        return sum(self.counts[w] for w in self.wild)

    def natural(self) -> list[int]:
        """The concealed counts without the 財神 (34 long)."""
        out = self.counts[:N_PLAY]
        for w in self.wild:
            if w < N_PLAY:
                out[w] = 0
        return out


def sight(state: HandState, seat: int) -> Sight:
    """The seat's :class:`Sight`, read only from its own hand and public information.

    Reads ``state.seats[seat].counts`` (its own hand) and, for every seat, the melds as the view shows
    them (an unrevealed 暗槓 hides its tiles), rivers and flowers; never another seat's
    concealed tiles or the wall.  ``sight_from_view`` computes the same from ``state.view(seat)``.
    """
    own = state.seats[seat]
    seen = list(own.counts)
    akong_revealed = state.variant.akong_revealed
    for i, s in enumerate(state.seats):
        hide_akong = i != seat and not akong_revealed
        for m in s.melds:
            if hide_akong and m.kind is MeldKind.AKONG:
                continue
            for t in m.tiles:
                seen[t] += 1
        for t in s.river:
            seen[t] += 1
        for t in s.flowers:
            seen[t] += 1
    for t in state.indicators:
        seen[t] += 1
    # ``seen`` runs on past the playable kinds (flowers); the totals stop at them
    unseen = [n - k if n > k else 0 for n, k in zip(_totals(state.variant.kinds), seen, strict=False)]
    return Sight(seat, list(own.counts), frozenset(state.wildcards), unseen)


# Copies of each playable kind in a variant's tile set, per ``Variant.kinds`` tuple (a handful of variants;
# keyed by identity, checked, as hashing the 144-tuple costs about what counting it does).
_TOTALS: Final[dict[int, tuple[tuple[int, ...], list[int]]]] = {}


def _totals(kinds: tuple[int, ...]) -> list[int]:
    entry = _TOTALS.get(id(kinds))
    if entry is None or entry[0] is not kinds:
        total = [0] * N_KINDS
        for k in kinds:
            total[k] += 1
        entry = _TOTALS[id(kinds)] = (kinds, total[:N_PLAY])
    return entry[1]


def sight_from_view(view: dict[str, Any], kinds: Sequence[int]) -> Sight:
    """The same :class:`Sight` computed from ``state.view(seat)`` alone (the reference for tests).

    ``kinds`` is the variant's full tile set (public: every player knows which tiles a variant uses).
    """
    seat = view["seat"]
    total = [0] * N_KINDS
    for k in kinds:
        total[k] += 1
    seen = [0] * N_KINDS
    counts = [0] * N_KINDS
    for p in view["players"]:
        if p["seat"] == seat:
            for t in parse_tiles(" ".join(p["concealed"])):
                counts[t] += 1
                seen[t] += 1
        for m in p["melds"]:
            for x in m["tiles"]:
                if x is not None:
                    seen[parse_tiles(x)[0]] += 1
        for group in (p["river"], p["flowers"]):
            for x in group:
                seen[parse_tiles(x)[0]] += 1
    for x in view["indicators"]:
        seen[parse_tiles(x)[0]] += 1
    wild = frozenset(parse_tiles(" ".join(view["wildcards"]))) if view["wildcards"] else frozenset()
    unseen = [max(0, total[k] - seen[k]) for k in range(N_PLAY)]
    return Sight(seat, counts, wild, unseen)


# --------------------------------------------------------------------------------------------------
# Distances on base-5 codes (see engine.hand): one table addition per group.


def codes(natural: Sequence[int]) -> list[int]:
    """The (m, p, s, honours) codes of a 34-long natural count vector, as a mutable list."""
    return list(_hand.codes_of(natural))


_KINDS: Final = tuple((t, _GROUP[t], _WEIGHT[t]) for t in range(N_PLAY))  # (kind, its code group, its digit weight)
# The win tables (``engine.hand.win_tables``), bound once as ``Final`` names: the bots ask ``need`` hundreds of
# times per decision, and the compiled module reads a final name as a C static (a lazily loaded global cost a
# dictionary look-up, the tuple's type checks and a new tuple per call).
_WIN_TABLES: Final = _hand.win_tables()
_SUIT: Final = _WIN_TABLES[0]
_HON: Final = _WIN_TABLES[1]
_VALUE: Final = _WIN_TABLES[2]
_DMIN: Final = _WIN_TABLES[3]


def need(c: Sequence[int], jokers: int) -> int:
    """Fewest extra wildcards that make the concealed tiles (codes ``c`` + ``jokers``) a win.

    0 means a win already; for a 3n+1 hand, 1 means ready (聽牌) and the 向聽 is ``need − 1``.
    """
    T, H, V, D = _SUIT, _HON, _VALUE, _DMIN
    S = V[T[c[0]]] + V[T[c[1]]] + V[T[c[2]]] + V[H[c[3]]]
    x = (S >> 12) + D[S & 4095] - jokers
    if x < 0:  # leftover wildcards make wildcard-only sets: the size residue keeps x ≡ the target
        x %= 3
    return x


def shanten(c: Sequence[int], jokers: int) -> int:
    """向聽 of a 3n+1 hand: 0 = ready, −1 never (a 3n+1 hand cannot be complete)."""
    return max(need(c, jokers), 1) - 1


def exchange_shanten(c: list[int], jokers: int) -> int:
    """向聽 counted in draws-and-discards, as players count it: ``need`` lets no tile be thrown away.

    A 3n+1 hand is ready after k exchanges when removing some k tiles leaves a need ≤ k + 1; the tiles to
    remove are chosen greedily (each time the one whose removal lowers the need most), which is exact for
    the usual shapes and never under-counts.  ``c`` is restored before returning.
    """
    T, H, V, D = _SUIT, _HON, _VALUE, _DMIN
    # ``need`` is a sum of one table value per group: removing a tile changes only its group's term
    tv = [V[T[c[0]]], V[T[c[1]]], V[T[c[2]]], V[H[c[3]]]]
    S = tv[0] + tv[1] + tv[2] + tv[3]
    removed: list[int] = []
    best = need(c, jokers)
    r = 0
    by_group = (T, T, T, H)
    while best > r + 1:
        pick, pick_need = -1, 99
        for t, g, w in _KINDS:
            old = c[g]
            if old // w % 5:
                S2 = S - tv[g] + V[by_group[g][old - w]]
                x = (S2 >> 12) + D[S2 & 4095] - jokers
                if x < 0:
                    x %= 3
                if x < pick_need:
                    pick, pick_need = t, x
        if pick < 0:
            break
        remove(c, pick)
        g = _GROUP[pick]
        value = V[H[c[g]] if g == 3 else T[c[g]]]
        S += value - tv[g]
        tv[g] = value
        removed.append(pick)
        r += 1
        best = pick_need
    for t in removed:
        add(c, t)
    return max(best, r + 1) - 1


def improving_draws(c: list[int], jokers: int, unseen: Sequence[int]) -> tuple[int, list[int]]:
    """進張 of a 3n+1 hand: (copies still unseen that would lower its need, those kinds).

    A drawn 財神 always helps; its unseen copies are counted by the caller if wanted, as the face of a
    wildcard is not a "kind" that completes a shape.
    """
    T, H, V, D = _SUIT, _HON, _VALUE, _DMIN
    tv = [V[T[c[0]]], V[T[c[1]]], V[T[c[2]]], V[H[c[3]]]]
    S = tv[0] + tv[1] + tv[2] + tv[3]
    base = (S >> 12) + D[S & 4095] - jokers
    if base < 1:
        base = 1 + (base - 1) % 3
    target = base - 1
    total = 0
    kinds = []
    by_group = (T, T, T, H)
    for u, g, w in _KINDS:
        n = unseen[u]
        if not n:
            continue
        old = c[g]
        if old // w % 5 == 4:
            continue
        S2 = S - tv[g] + V[by_group[g][old + w]]
        x = (S2 >> 12) + D[S2 & 4095] - jokers
        if x < 0:
            x %= 3
        if x <= target:
            total += n
            kinds.append(u)
    return total, kinds


def winning_kinds(c: list[int], jokers: int) -> list[int]:
    """Natural kinds that complete a ready 3n+1 hand (its waits), whether or not copies are left."""
    if need(c, jokers) != 1:
        return []
    return improving_draws(c, jokers, [1] * N_PLAY)[1]


def remove(c: list[int], t: int) -> None:
    """Take one natural tile ``t`` out of codes ``c`` (the caller knows it is held)."""
    c[_GROUP[t]] -= _WEIGHT[t]


def add(c: list[int], t: int) -> None:
    """Put one natural tile ``t`` into codes ``c``."""
    c[_GROUP[t]] += _WEIGHT[t]


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """What one discard would leave: its 向聽, the unseen useful draws (進張) and, when ready, the waits."""

    tile: int
    shanten: int
    draws: int
    waits: tuple[tuple[int, int], ...]  # (kind, unseen copies) when ready, else ()


def discard_options(view: Sight, tiles: Sequence[int] | None = None) -> list[DiscardOption]:
    """Every discard of a 3n+2 hand (or the given ``tiles``) with its 向聽 / 進張 / waits, best first.

    "Best" is the fewest 向聽, then the most unseen useful draws.  財神 are never offered as discards.
    """
    nat = view.natural()
    c = codes(nat)
    jokers = view.jokers
    kinds = [t for t in range(N_PLAY) if nat[t]] if tiles is None else [t for t in tiles if nat[t]]
    out = []
    for t in kinds:
        remove(c, t)
        sh = shanten(c, jokers)
        draws, useful = improving_draws(c, jokers, view.unseen)
        waits = tuple((u, view.unseen[u]) for u in winning_kinds(c, jokers)) if sh == 0 else ()
        add(c, t)
        out.append(DiscardOption(t, sh, draws, waits))
    out.sort(key=lambda o: (o.shanten, -o.draws, o.tile))
    return out


def describe(options: Sequence[DiscardOption]) -> list[str]:
    """Readable lines for debugging and the bench (``5m: 向聽 1, 進張 23``)."""
    return [f"{TILES[o.tile]}: 向聽 {o.shanten}, 進張 {o.draws}" for o in options]
