"""Issue 9 items 1-2, reproduced over HTTP: an option's value can neither freeze the server nor mint coins.

The original attacks: ``cap=10**9`` built ``range(10, cap + 1, 10)`` on the event loop (the request never
returned and /healthz stopped answering); ``di=10**15`` paid 10^15 積分 in one hand; ``di=10**30`` raised
OverflowError in settlement.  Now each is a 422 naming the option and its range, before anything is built.
"""

from __future__ import annotations

import random

import pytest

from app.game.rooms import ROOMS
from app.models import User
from app.services.settlement import settle_hand
from engine.bots import greedy_policy
from engine.match import Match
from engine.options import option_table, payment_bound
from engine.variants import find_variant
from tests.engine.test_option_table import MAX_COINS_PER_POINT, _at, _consistent


@pytest.mark.parametrize(
    ("url", "variant", "options", "option"),
    [
        ("/api/rooms/beginner/tables", "tiantai", {"cap": 1_000_000_000}, "cap"),
        ("/api/practice", "tiantai", {"cap": 10_000_000}, "cap"),
        ("/api/rooms/advanced/tables", "taiwan", {"di": 10**15}, "di"),
        ("/api/rooms/advanced/tables", "taiwan", {"di": 10**30}, "di"),
        ("/api/practice", "taipao", {"dealer_multiplier": 10**30}, "dealer_multiplier"),
    ],
)
async def test_huge_options_are_a_422_naming_the_option(client, player, url, variant, options, option):
    alice = await player("alice")
    response = await client.post(url, json={"variant": variant, "options": options}, headers=alice.headers)
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["code"] == "option_out_of_range" and body["params"]["option"] == option
    spec = option_table(variant)[option]
    assert body["params"] == {"option": option, **spec.bounds()}
    assert (await client.get("/healthz")).status_code == 200
    assert (await client.get("/api/me", headers=alice.headers)).json()["coins"] == 50_000


def test_the_bound_uses_the_dearest_room():
    assert max(room.coins_per_point for room in ROOMS.values()) == MAX_COINS_PER_POINT


@pytest.mark.parametrize("variant", ["tiantai", "taipao", "taiwan"])
async def test_a_hand_at_the_largest_options_settles_in_the_dearest_room(session, variant):
    """Every scoring option at its maximum, a won hand settled through the ledger: no overflow, no coin
    created or lost, 積分 moved by the hand's points."""
    n = find_variant(variant).n_seats
    users = [User(username=f"p{i}", username_key=f"p{i}", password_hash="x", coins=10**12, rank_points=0)
             for i in range(n)]
    session.add_all(users)
    await session.commit()
    options = _consistent(variant, _at(variant, "max"))
    match = Match(find_variant(variant), options=options)
    rng = random.Random(5)
    for seed in range(40):
        hand = match.new_hand(seed)
        while not hand.is_over:
            hand.apply(greedy_policy(hand, hand.awaiting()[0], rng))
        if hand.result is not None and hand.result.winners:
            break
    assert hand.result is not None and hand.result.winners
    room = max(ROOMS.values(), key=lambda r: r.coins_per_point)
    settlement = await settle_hand(
        session, hand_key=f"extreme:{variant}", room=room, seats=[u.id for u in users],
        payments=hand.result.score.payments, variant=variant,
        record={"table_id": None, "seed": str(seed), "commitment": None, "actions": [], "result": {}},
        winners=hand.result.winners,
    )
    assert sum(settlement.coin_deltas) == 0
    assert all(abs(d) <= payment_bound(variant) * room.coins_per_point * 3 for d in settlement.coin_deltas)
    for user in users:
        await session.refresh(user)
    assert sum(u.coins for u in users) == n * 10**12
