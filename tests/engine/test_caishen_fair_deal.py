"""docs/rules/taipao.md#caishen D-1 (amended 2026-12-01): the two turned 財神 indicators are out of play, so the 財神
are dealt fairly.

Before D-1 the indicators were the first replacement draws, and after the deal and the initial replacements the
seats held on average 1.87 / 1.22 / 0.87 / 0.73 財神 (dealer first; 20,000 deals).  Now every copy of a 財神
face in play is equally likely to be anywhere, so each seat's mean is proportional to the tiles it holds (the
dealer 17, the others 16): per tile held the four means agree within sampling error.
"""

from __future__ import annotations

import math
import statistics

from engine.simulate import wildcards_by_seat_from_dealer
from engine.state import HandState
from tests.engine.flow_helpers import TAIPAO

DEALS = 3000


def _per_seat(deals: int) -> list[list[int]]:
    rows = [wildcards_by_seat_from_dealer(HandState.deal(TAIPAO, seed=f"d1:{i}", dealer=i % 4))
            for i in range(deals)]
    return [[row[k] for row in rows] for k in range(4)]


def test_d1_mean_caishen_per_seat_after_the_deal_is_fair():
    """D-1: over 3,000 seeded deals, each seat's mean 財神 per tile held after the deal and the initial
    replacements lies within 4 standard errors of the pooled mean (before D-1 the dealer's was 2.6× the last
    seat's, dozens of standard errors apart)."""
    columns = _per_seat(DEALS)
    sizes = [TAIPAO.hand_size + 1] + [TAIPAO.hand_size] * 3
    pooled = sum(sum(c) for c in columns) / (DEALS * sum(sizes))
    for k, (column, size) in enumerate(zip(columns, sizes, strict=True)):
        mean = statistics.fmean(column)
        error = statistics.stdev(column) / math.sqrt(DEALS)
        assert abs(mean - pooled * size) < 4 * error, (k, mean, pooled * size, error)
    means = [statistics.fmean(c) for c in columns]
    assert max(means) - min(means) < 0.15  # before D-1: 1.87 - 0.73 = 1.14


def test_d1_near_miss_the_replacement_is_the_stack_before_the_indicators():
    """D-1 near miss: the indicators are the last two tiles and stay put; the third tile from the end is the
    first replacement (a dealt flower's), so it is the only tail tile a seat receives."""
    from tests.engine.flow_helpers import rig, t

    state = rig(TAIPAO, ["1f 111m 222m 333m 444p 55p 66p", "", "", ""], tail="5m 9s 2z")
    assert state.indicators == (t("9s"), t("5m")) and set(state.wildcards) == {t("5m"), t("9s")}
    assert state.seats[0].counts[t("2z")] == 1
    assert state.seats[0].jokers == 0  # the indicators 5m 9s did not come into the dealer's hand
