"""The strong bot's defence (防守, issue 12): against a seat that has declared (台灣 Miji / 眼牌,
docs/rules/taiwan.md#eye, docs/rules/taiwan.md#miji) it does not throw that seat's winning tile when a safe tile exists, where normal (tile
efficiency only) does.  Safe here is what the rules make safe: a tile discarded after the declarer's last
discard that it did not win on (a declared hand wins automatically, docs/rules/taiwan.md#eye / C-9).

Each row rigs a 台灣 hand (engine.rigging): the dealer declares Miji with a one-tile wait, the next seat
throws the safe tile, the seat after throws something else, and the seat under test draws and must discard.
"""

from __future__ import annotations

import random

import pytest

from engine.actions import Declare
from engine.bots import POLICIES
from engine.bots.defence import deal_in_chance, passed_since_last_discard, ready_chance, threat_map
from engine.bots.shanten import sight
from tests.engine.flow_helpers import TAIWAN, K, discard, do, pass_all, rig, t

CASES = [
    # (declarer's 17 tiles, its Miji discard, the safe tile seat 1 throws, seat 3's 16 tiles, seat 3's draw)
    ("123m 456m 789m 123p 456p 9s 1z", "1z", "2z",
     "4m 7m 2p 5p 8p 3s 6s 9s 3z 3z 2z 2z 4z 4z 5z 5z", "5m"),
    ("234m 456m 789m 123p 456p 1s 1z", "1z", "3z",
     "1s 5m 8m 3p 7p 4s 7s 9p 3z 3z 2z 2z 4z 4z 5z 5z", "6m"),
    ("123m 456m 789m 234p 567p 9p 6z", "6z", "5z",
     "9p 23m 56p 455s 78s 2z 2z 4z 4z 5z 5z", "8s"),
]


def _scene(declarer: str, miji: str, safe: str, mine: str, draw: str):
    state = rig(TAIWAN, [declarer, safe, "", mine], draws=["6s", "7s", draw])
    do(state, K.DISCARD, 0, miji, declare=Declare.MIJI)
    pass_all(state)
    discard(state, 1, safe)
    other = next(x for x in state.seats[2].tiles() if x not in (t(safe),) and x < 34
                 and not state.can_win_with(0, x))
    discard(state, 2, str(other))
    assert state.current == 3 and state.seats[0].declaration is Declare.MIJI
    return state


@pytest.mark.parametrize(("declarer", "miji", "safe", "mine", "draw"), CASES)
def test_strong_does_not_throw_the_declared_seats_wait(declarer, miji, safe, mine, draw):
    state = _scene(declarer, miji, safe, mine, draw)
    waits = {k for k in range(34) if state.can_win_with(0, k)}
    assert waits and waits <= set(state.seats[3].tiles())  # the seat under test holds the winning tile
    normal = POLICIES["normal"](state, 3, random.Random(1))
    assert normal.kind is K.DISCARD and normal.tile in waits  # efficiency alone would deal in
    for seed in range(5):
        strong = POLICIES["strong"](state, 3, random.Random(seed))
        assert strong.kind is K.DISCARD
        assert strong.tile not in waits, f"strong dealt in with {strong.tile}"


@pytest.mark.parametrize(("declarer", "miji", "safe", "mine", "draw"), CASES)
def test_defence_reads_only_public_events(declarer, miji, safe, mine, draw):
    """The declarer is certainly ready; the tile thrown after its declaration is passed (safe), and the
    deal-in chance of a passed tile is zero while the winning tile's is not."""
    state = _scene(declarer, miji, safe, mine, draw)
    assert ready_chance(state, 0) == 1.0
    assert t(safe) in passed_since_last_discard(state, 0)
    threats = threat_map(state, 3)
    view = sight(state, 3)
    wait = next(k for k in range(34) if state.can_win_with(0, k))
    assert deal_in_chance(view, t(safe), threats) == 0.0
    assert deal_in_chance(view, wait, threats) > 0.0
