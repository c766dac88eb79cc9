"""F-1: the first dealer of every game is drawn at random from the game's first commitment
(docs/rules/common.md#first-dealer F-1).

The draw is ``int(commitment, 16) % N`` (``engine.match.draw_first_dealer``): anyone who saw the first
``hand_start`` can recompute it, and the commitment binds the wall's seed, so the server cannot choose the
dealer without choosing the wall.  Every table (practice, coin, tournament, quick play) plays its game in a
``HandFlow``, so the flow is what these tests drive.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from typing import Any

import pytest

from app.bots import TableBots
from app.game.variants import VariantKey
from app.tables import fairness
from app.tables.durability.settle import hand_record
from app.tables.play import flow as flow_module
from app.tables.play.clock import FakeClock
from app.tables.play.flow import HandFlow
from app.tables.play.outbox import Outbox
from app.tables.play.seats import SeatLink, SeatSlot
from app.tables.play.views import seat_snapshot
from app.tables.settings import TableSettings
from app.tables.table_info import TableInfo, TableStatus
from engine.match import Match, draw_first_dealer
from engine.variants import find_variant

SEATS = {VariantKey.TIANTAI: 3, VariantKey.TAIPAO: 4, VariantKey.TAIWAN: 4}
GAMES = 300


def _flow(variant: VariantKey, *, practice: bool = True) -> tuple[HandFlow, list[Any]]:
    n = SEATS[variant]
    info = TableInfo(id="t1", room=None, variant=variant, options={}, seats=[7] + [None] * (n - 1),
                     bots=list(range(1, n)), status=TableStatus.PLAYING, practice=practice)
    slots = [SeatSlot(seat, uid, None, seat in info.bots) for seat, uid in enumerate(info.seats)]
    posted: list[Any] = []
    return HandFlow(info, TableSettings(), FakeClock(), slots, Outbox(slots, FakeClock()), TableBots(seed=1),
                    post=posted.append, table_closed=lambda: False), posted


def _seeded_walls(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Wall seeds from a seeded generator instead of ``secrets``: the same games on every run."""
    rng = random.Random(seed)

    def seeded() -> fairness.WallSeed:
        return fairness.WallSeed(rng.randbytes(32).hex(), rng.randbytes(16).hex())

    monkeypatch.setattr(flow_module, "new_wall_seed", seeded)


@pytest.mark.parametrize("variant", list(SEATS))
def test_every_seat_deals_first_about_one_game_in_n(variant: VariantKey, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a few hundred seeded games each seat deals the first hand within 4.5 standard deviations of
    GAMES / N (a binomial count): the creator's seat 0 is no longer the dealer by right."""
    _seeded_walls(monkeypatch, seed=20261205)
    n = SEATS[variant]
    firsts: Counter[int] = Counter()
    for _ in range(GAMES):
        flow, _ = _flow(variant)
        flow.start_game()
        assert flow.hand is not None and flow.wall is not None
        assert flow.hand.dealer == flow.match.first_dealer == draw_first_dealer(flow.wall.commitment, n)
        firsts[flow.hand.dealer] += 1
    mean, sd = GAMES / n, math.sqrt(GAMES * (1 / n) * (1 - 1 / n))
    assert set(firsts) == set(range(n))
    for seat in range(n):
        assert abs(firsts[seat] - mean) <= 4.5 * sd, (seat, firsts)


def test_hand_start_and_the_snapshot_carry_the_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first ``hand_start`` names the first dealer and the commitment it was drawn from; the snapshot
    carries both for the whole game (a player who joins late can still check the draw)."""
    _seeded_walls(monkeypatch, seed=3)
    flow, _ = _flow(VariantKey.TAIPAO, practice=False)
    link = flow.slots[0].link = SeatLink(1000)  # seat 0's socket: what the table sends it is what it saw
    link.synced = True
    flow.start_game()
    sent: list[dict[str, Any]] = []
    while not link.queue.empty():
        frame = json.loads(link.queue.get_nowait() or "null")
        if frame["type"] == "event":
            sent.append(frame["event"])
    assert flow.wall is not None
    first = flow.wall.commitment
    start = next(e for e in sent if e["type"] == "hand_start")
    assert start["first_commitment"] == first == start["commitment"]
    assert start["first_dealer"] == start["dealer"] == draw_first_dealer(first, 4)
    table = seat_snapshot(flow, 0).table
    assert table.first_dealer == start["first_dealer"] and table.first_commitment == first


def test_a_voided_first_hand_keeps_the_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draw is the game's first commitment's: a second wall (after a void) deals with the same first
    dealer and does not draw again."""
    _seeded_walls(monkeypatch, seed=11)
    flow, _ = _flow(VariantKey.TAIWAN)
    flow.start_game()
    assert flow.wall is not None
    first, dealer = flow.wall.commitment, flow.match.first_dealer
    flow.hand = None  # what a void leaves (recovery.void_hand)
    flow.new_hand()
    assert flow.wall.commitment != first
    assert flow.first_commitment == first and flow.match.first_dealer == dealer == flow.hand.dealer


def test_the_hand_record_lets_a_replay_reproduce_the_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stored hand names the first dealer and the first commitment, so the replay recomputes the draw."""
    _seeded_walls(monkeypatch, seed=5)
    flow, _ = _flow(VariantKey.TIANTAI)
    flow.start_game()
    hand = flow.hand
    assert hand is not None and flow.wall is not None
    while not hand.is_over:
        seat = hand.awaiting()[0]
        action = hand.default_action(seat)
        assert action is not None
        hand.apply(action)
    record = hand_record(flow.info, hand, flow.wall, flow.hand_no, first_commitment=flow.first_commitment)
    result = record["result"]
    assert result["first_commitment"] == record["commitment"]
    assert result["first_dealer"] == draw_first_dealer(result["first_commitment"], 3) == hand.dealer


class _NobodyWinsTheDealerSeat:
    """A finished hand's result in which the dealer did not win and the hand was won (the deal passes)."""

    is_draw, kongs = False, 0

    def dealer_won(self, dealer: int) -> bool:
        return False


class _Played:
    result = _NobodyWinsTheDealerSeat()


@pytest.mark.parametrize("variant", list(SEATS))
def test_the_wind_round_ends_when_the_deal_comes_back_to_the_drawn_first_dealer(variant: VariantKey) -> None:
    """A 圈 ends when the deal has gone round every seat from the drawn first dealer, not from seat 0
    (docs/rules/common.md#first-dealer F-1); the draw is refused once a hand has been played."""
    n = SEATS[variant]
    match = Match(find_variant(variant.value), options={"rounds": 1})
    match.seat_first_dealer(n - 1)
    dealers = []
    while not match.finished:
        dealers.append(match.dealer)
        match.record(_Played())  # type: ignore[arg-type]
    assert dealers == [n - 1, *range(n - 1)]
    with pytest.raises(ValueError, match="first dealer"):
        match.seat_first_dealer(0)
