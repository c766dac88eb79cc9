"""台炮 settlement (結算, docs/rules/taipao.md#settlement (1-4), docs/rules/rooms.md#points): payments in points, 1 point = 1 台."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from engine.scoring.result import Payment
from engine.scoring.taipao.options import Options

WIN = "win"
BASE_DIFF = "base_diff"
BAOPEI = "sifeng_baopei"


def settle(
    winner: int, dealer: int, score: int, bases: Sequence[int], opts: Options,
    pairwise: bool = True, liable: int | None = None,
) -> list[Payment]:
    """Payments to the winner (dealer first, then counterclockwise), then the losers' pairwise B.

    A non-dealer winner gets ``dealer_multiplier × W`` from the dealer and ``W`` from each other loser;
    a dealer winner gets ``dealer_multiplier × W`` from everyone.  Each pair of losers then settles
    ``|B_i - B_j|`` (the lower pays), times ``dealer_pair_multiplier`` when the dealer is in the pair.
    ``liable`` (四风齐包赔) pays everything owed to the winner alone.
    """
    n = len(bases)
    losers, pairs = _order(winner, dealer, n)
    out: list[Payment] = []
    if liable is not None:
        total = score * (n - 1 + (opts.dealer_multiplier - 1) * (n - 1 if dealer == winner else 1))
        if total:
            out.append(_payment(liable, winner, total, BAOPEI))
    elif score:
        for s in losers:
            out.append(_payment(s, winner, score * opts.dealer_multiplier if dealer in (s, winner) else score, WIN))
    if pairwise:
        for i, j, with_dealer in pairs:
            diff = bases[i] - bases[j]
            if diff:
                if with_dealer:
                    diff *= opts.dealer_pair_multiplier
                out.append(_payment(j, i, diff, BASE_DIFF) if diff > 0 else _payment(i, j, -diff, BASE_DIFF))
    return out


@cache
def _order(winner: int, dealer: int, n: int) -> tuple[tuple[int, ...], tuple[tuple[int, int, bool], ...]]:
    """The losers (dealer first, then counterclockwise) and their pairs (with: the dealer is in the pair)."""
    losers = [(winner + k) % n for k in range(1, n)]
    if dealer != winner:
        losers.remove(dealer)
        losers.insert(0, dealer)
    return tuple(losers), tuple((i, j, dealer in (i, j)) for i, j in combinations(losers, 2))


_PAYMENTS: dict[tuple[int, int, int, str], Payment] = {}


def _payment(payer: int, payee: int, points: int, reason: str) -> Payment:
    """Payments are immutable values: one instance per distinct payment."""
    key = (payer, payee, points, reason)
    got = _PAYMENTS.get(key)
    if got is None:
        got = Payment(payer, payee, points, reason)
        if len(_PAYMENTS) < 8192:
            _PAYMENTS[key] = got
    return got
