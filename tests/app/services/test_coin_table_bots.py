"""Playing with friends (issue 13): the creator of a waiting coin table fills the empty seats with bots, and
bots hold no coins: a payment to or from a bot seat is not made; only payments between players move coins
and 積分 (docs/server.md "Bots at a coin table hold no coins")."""

from __future__ import annotations

import pytest

from app.game.rooms import ROOMS, RoomKey
from app.services.settlement import settle_hand
from tests.app.services.test_ledger_settlement import RECORD, assert_books_balance, balances, make_users

BEGINNER = ROOMS[RoomKey.BEGINNER]  # 100 coins per point

# (seats: "P" a player, "B" a bot; payments (payer, payee, points); winners; the coin deltas that follow;
# the players' coins before the hand)
CASES = [
    # A bot wins by self-draw: nobody pays it, so no coins move at all.
    ("PPBB", [(0, 2, 8), (1, 2, 8), (3, 2, 8)], [2], [0, 0, 0, 0], None),
    # A player wins by self-draw: the other player pays, the bots' shares are not made.
    ("PPBB", [(1, 0, 8), (2, 0, 8), (3, 0, 8)], [0], [800, -800, 0, 0], None),
    # 台炮-style pairwise settlements after a bot's win: only the player-to-player one moves coins.
    ("PBPB", [(0, 1, 16), (2, 1, 8), (3, 1, 8), (2, 0, 4), (0, 3, 2), (2, 3, 3)], [1], [400, 0, -400, 0], None),
    # 天台 (3 seats): a player feeds a bot, nothing moves.
    ("PBP", [(2, 1, 45)], [1], [0, 0, 0], None),
    # The docs/rules/rooms.md#settlement shortfall rule between players: seat 1 owes 800 coins, holds 300, pays 300 (the rest is forfeited).
    ("PPBB", [(1, 0, 8), (2, 0, 8), (3, 0, 8)], [0], [300, -300, 0, 0], [50_000, 300]),
]


@pytest.mark.parametrize(("layout", "payments", "winners", "expected", "coins"), CASES)
async def test_bots_hold_no_coins_and_players_settle_between_themselves(session, layout, payments, winners,
                                                                          expected, coins):
    """docs/rules/rooms.md#bots E-7: a bot seat holds no coins: a payment to or from a bot moves neither coins nor 積分;
    player-to-player payments move coins in the docs/rules/rooms.md#settlement order with the same shortfall rule."""
    coins = coins or [50_000] * layout.count("P")
    humans = await make_users(session, coins)
    it = iter(humans)
    seats = [next(it) if c == "P" else None for c in layout]
    variant = "tiantai" if len(layout) == 3 else "taiwan"
    outcome = await settle_hand(session, hand_key=f"bots:{layout}:{len(payments)}", room=BEGINNER, seats=seats,
                                payments=payments, variant=variant, record=RECORD, winners=winners)
    assert outcome.coin_deltas == expected
    assert sum(outcome.coin_deltas) == 0  # no coin created or lost
    # 積分 moves by the player-to-player points only (no farming 積分 off bots), floored at 0.
    between = [0] * len(layout)
    for payer, payee, points in payments:
        if seats[payer] is not None and seats[payee] is not None:
            between[payer] -= points
            between[payee] += points
    assert outcome.rank_point_deltas == [max(x, 0) if s is not None else 0 for x, s in zip(between, seats, strict=True)]
    # The hand is still scored in full (the result shows every payment).
    assert sum(outcome.point_deltas) == 0 and any(outcome.point_deltas)
    before = iter(coins)
    after = [next(before) + d if s is not None else None for d, s in zip(expected, seats, strict=True)]
    assert [c for c, _ in await balances(session, humans)] == [c for c in after if c is not None]
    assert outcome.coins_after == after
    await assert_books_balance(session)


async def _open(client, who, variant="taiwan"):
    response = await client.post("/api/rooms/beginner/tables", json={"variant": variant}, headers=who.headers)
    assert response.status_code == 201, response.text
    return response.json()


async def test_only_the_creator_fills_a_waiting_table_with_bots_and_it_starts(client, player):
    alice, bob, carol = await player("alice"), await player("bob"), await player("carol")
    table = await _open(client, alice)
    assert table["creator_id"] == alice.id
    bots = f"/api/tables/{table['id']}/bots"
    await client.post(f"/api/tables/{table['id']}/sit", json={"seat": 2}, headers=bob.headers)
    refused = await client.post(bots, headers=bob.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "not_table_creator"
    refused = await client.post(bots, headers=carol.headers)  # not even seated
    assert refused.status_code == 403 and refused.json()["code"] == "not_table_creator"
    assert (await client.get(f"/api/tables/{table['id']}")).json()["status"] == "waiting"  # nothing changed
    response = await client.post(bots, headers=alice.headers)
    assert response.status_code == 200, response.text
    out = response.json()
    assert [(s["user_id"], s["bot"]) for s in out["seats"]] == [(alice.id, False), (None, True), (bob.id, False),
                                                                (None, True)]
    assert out["status"] == "playing"
    again = await client.post(bots, headers=alice.headers)  # playing now: nothing to fill
    assert again.status_code == 409 and again.json()["code"] == "table_not_waiting"
    # Carol cannot take a bot's seat.
    assert (await client.post(f"/api/tables/{table['id']}/sit", headers=carol.headers)).status_code == 409


async def test_the_creators_right_passes_on_when_they_stand(client, player):
    alice, bob = await player("alice"), await player("bob")
    table = await _open(client, alice, variant="tiantai")
    await client.post(f"/api/tables/{table['id']}/sit", headers=bob.headers)
    await client.post(f"/api/tables/{table['id']}/stand", headers=alice.headers)
    assert (await client.get(f"/api/tables/{table['id']}")).json()["creator_id"] == bob.id
    response = await client.post(f"/api/tables/{table['id']}/bots", headers=bob.headers)
    assert response.status_code == 200 and response.json()["status"] == "playing"


async def test_practice_tables_take_no_bot_request(client, player):
    alice = await player("alice")
    practice = await client.post("/api/practice", json={"variant": "taiwan"}, headers=alice.headers)
    response = await client.post(f"/api/tables/{practice.json()['id']}/bots", headers=alice.headers)
    assert response.status_code == 403 and response.json()["code"] == "not_table_creator"
