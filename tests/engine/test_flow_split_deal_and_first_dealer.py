"""docs/rules/README.md#decisions "Amendments of 2026-12-05" that concern the hand flow and the code already did:
F-2 (分牌 starts at 24 + 2K tiles *or fewer*).  F-1 is in tests/app/tables/play/test_first_dealer_draw.py, F-4, F-5 and F-9 in
tests/scoring, F-7 below with a cheap simulation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flow_helpers import TAIPAO, Phase, rig, run_defaults

from engine.simulate import simulate

# The wall after the deal: 144 − 65 dealt = 79 tiles; the normal draw at wall index 65 + (79 − 25) = 119 is the
# last one made while 25 tiles remain (24 + 2K with K = 0, plus one).  The tail is rigged so that no
# replacement is itself a bonus tile: indicators 5m 9s, then 2m 3m.
F2_CASES = [
    # (why, wall index of a flower drawn normally, tiles when 分牌 starts, tiles left at 黄牌)
    ("docs/rules/taipao.md#split-deal F-2: a flower drawn earlier: 分牌 starts at exactly 24", 118, 24, 20),
    ("docs/rules/taipao.md#split-deal F-2: a flower on the last normal draw, its replacement from the tail takes the "
     "wall one below the line: 分牌 starts at 23, and 黄牌 leaves four fewer (19)", 119, 23, 19),
    ("docs/rules/taipao.md#split-deal F-2: no flower drawn before the line: exactly 24", 120, 24, 20),
]


@pytest.mark.parametrize(("why", "flower_at", "split_at", "left"), F2_CASES, ids=[str(c[1]) for c in F2_CASES])
def test_f2_split_deal_starts_at_24_plus_2k_or_fewer(why: str, flower_at: int, split_at: int, left: int) -> None:
    state = rig(TAIPAO, ["111z 222z 333z 444z 5z 6z 1m", "", "", ""], tail="5m 9s 2m 3m",
                head_at={flower_at: "1f"})
    run_defaults(state, lambda s: s.phase is Phase.ENDED)
    split = [e for e in state.events if e.type == "split_deal"]
    assert len(split) == 1 and split[0].public["wall"] == split_at, why
    assert state.result is not None and state.result.winners == (), why  # 黄牌
    assert state.wall.remaining == left == split_at - 4, why


# F-7: 分牌 in roughly 0.1–0.3 % of hands.  A few thousand simulated hands cannot measure 0.1 % to better than a
# factor of two, so the simulated test (a thousand hands, ~5 s of CPU) bounds it loosely (it fails if 分牌 became common);
# bench/split_rarity.py measures it over many more hands and the quick test checks what it recorded.
F7_HANDS = 1000


@pytest.mark.slow
def test_f7_split_deal_is_rare_with_every_seat_the_normal_bot() -> None:
    """docs/rules/taipao.md#split-deal F-7 / E-8: roughly 0.1–0.3 % of hands reach 分牌."""
    tally = simulate("taipao", F7_HANDS, seed=7, players="normal", check=False)
    assert tally.hands == F7_HANDS
    assert tally.split_reached <= 10, tally.split_reached  # 1 % at most: 分牌 stays rare


def test_f7_the_recorded_rarity_is_within_the_amendments_range() -> None:
    """docs/rules/taipao.md#split-deal F-7: the rates bench/split_rarity.py recorded (bench/results/split_rarity.md,
    20,000 hands with the normal bots, 6,000 with the strong) are within "roughly 0.1–0.3 %" (± a rounding)."""
    text = (Path(__file__).resolve().parents[2] / "bench/results/split_rarity.md").read_text("utf-8")
    rates = [float(x) for x in re.findall(r"<!-- rate: ([0-9.]+) % -->", text)]
    assert len(rates) >= 2, "bench/results/split_rarity.md records no rate per level"
    assert all(0.05 <= r <= 0.35 for r in rates), rates
