"""台炮 settlement (結算, RULES.md §2.2 Settlement 1-4, §7): payments in points, 1 point = 1 台."""

from __future__ import annotations

from collections.abc import Sequence
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
    losers = sorted((s for s in range(n) if s != winner), key=lambda s: (s != dealer, (s - winner) % n))
    owed = [(s, score * (opts.dealer_multiplier if dealer in (s, winner) else 1)) for s in losers]
    out: list[Payment] = []
    if liable is not None:
        total = sum(x for _, x in owed)
        if total:
            out.append(Payment(liable, winner, total, BAOPEI))
    else:
        out.extend(Payment(s, winner, x, WIN) for s, x in owed if x)
    if pairwise:
        for i, j in combinations(losers, 2):
            diff = (bases[i] - bases[j]) * (opts.dealer_pair_multiplier if dealer in (i, j) else 1)
            if diff > 0:
                out.append(Payment(j, i, diff, BASE_DIFF))
            elif diff < 0:
                out.append(Payment(i, j, -diff, BASE_DIFF))
    return out
