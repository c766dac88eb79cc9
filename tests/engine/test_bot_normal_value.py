"""Normal's value tie-break in 天台 (issue 12): 進張 weighted by the 台 the hand left keeps in reach.

docs/rules/tiantai.md#scoring scores a 天台 win as 胡 × 2^台: 混一色 1 台 / 清一色 3 台, each pung of 中發白 or the own seat
wind 1 台.  Normal still throws first what keeps the fewest tiles from ready (need); among discards of equal
need its 進張 count double per 台 in reach (``DRAW_WEIGHTS``), so it throws the off-suit tile where plain 進張
would throw a lone honour.  台灣 and 台炮 have no weights: normal's discards there are plain efficiency.
"""

from __future__ import annotations

import random

import pytest

from engine.bots import POLICIES
from engine.bots.normal import DRAW_WEIGHTS, best_discard, rank_discards, tai_material
from engine.bots.shanten import codes, need, remove, sight
from tests.engine.bot_helpers import states_along
from tests.engine.flow_helpers import TIANTAI, K, rig, t


def _need_after(state, tile: int) -> int:
    nat = sight(state, 0).natural()
    c = codes(nat)
    remove(c, tile)
    return need(c, 0)


@pytest.mark.parametrize(("dealer_hand", "plain", "weighted"), [
    # 5p is the last off-suit tile: throwing it keeps 混一色 in reach with 中 / 白 that could pung
    ("2m 2m 2m 3m 4m 5m 6m 7m 9m 5p 2z 3z 6z 7z", "7z", "5p"),
    # 1m is the only 萬: throw it and keep the lone 白 (a pong away from 1 台), where plain 進張 throws 白
    ("1m 1p 2p 2p 3p 3p 3p 4p 5p 6p 7p 8p 9p 7z", "7z", "1m"),
    # 1p 5p are off-suit: throwing one leaves one off-suit tile, where plain 進張 throws 北 (no 台 here)
    ("1m 1m 2m 2m 3m 3m 5m 6m 7m 1p 5p 4z 5z 6z", "4z", "1p"),
])
def test_tiantai_normal_keeps_tai_among_equally_efficient_discards(dealer_hand, plain, weighted):
    state = rig(TIANTAI, [dealer_hand, "", ""])
    view = sight(state, 0)
    held = sorted({k for k in range(34) if view.counts[k]})
    assert rank_discards(view, held, random.Random(0))[0] == t(plain)  # plain 進張 throws the honour
    action = POLICIES["normal"](state, 0, random.Random(0))
    assert action.kind is K.DISCARD and action.tile == t(weighted)
    assert _need_after(state, t(weighted)) == _need_after(state, t(plain))  # a tie-break, never a step back


@pytest.mark.parametrize(("dealer_hand", "tai"), [
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1m 2m 3m 4m", 1.0),  # one suit, no off-suit tile
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1m 2m 3m 4p", 0.5),  # one off-suit tile: halved
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1m 2m 4p 4p", 0.0),  # two off: out of reach
    ("5z 5z 5z 6z 6z 1m 2m 3m 4p 5p 6p 7p 8p", 1.5),  # 中 pung 1 + 發 pair 0.5; two suits of 3+ tiles
    ("1z 1z 3z 3z 1m 2m 3m 4p 5p 6p 7p 8p 9p", 0.5),  # own seat wind 東 pair counts, 西 (no seat) does not
])
def test_tai_material_table(dealer_hand, tai):
    state = rig(TIANTAI, [dealer_hand + " 9p", "", ""])
    nat = sight(state, 0).natural()
    nat[t("9p")] -= 1  # the 13 tiles of the table
    assert tai_material(state, 0, nat, DRAW_WEIGHTS["tiantai"]) == tai


@pytest.mark.parametrize("variant", ["taiwan", "taipao"])
def test_normal_discards_by_plain_efficiency_elsewhere(variant):
    assert variant not in DRAW_WEIGHTS
    checked = 0
    for state in states_along(variant, f"value-{variant}", every=3):
        seat = state.awaiting()[0]
        legal = state.legal_actions(seat)
        if any(a.kind in (K.PASS, K.KONG, K.WIN, K.KILL_PIG) for a in legal):
            continue
        plain = best_discard(state, seat, sight(state, seat), random.Random(5))
        assert POLICIES["normal"](state, seat, random.Random(5)) == plain
        checked += 1
    assert checked >= 5
