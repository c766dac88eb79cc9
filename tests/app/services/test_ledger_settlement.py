"""settle_hand: points to coins, order and shortfall, idempotency, 積分 and titles, practice hands."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from app.game.rooms import ROOMS, RoomKey
from app.game.titles import title_for
from app.models import Hand, LedgerEntry, User
from app.services import accounts
from app.services.settlement import plan_transfers, settle_hand

BEGINNER = ROOMS[RoomKey.BEGINNER]  # 100 coins per point
RECORD = {"table_id": "t1", "seed": "ab" * 16, "commitment": "cd" * 32, "actions": [["draw", 0]], "result": {}}


async def make_users(session, coins, prefix="p"):
    """Accounts with these balances, created the real way (a grant that is a ledger entry)."""
    users = []
    for i, amount in enumerate(coins):
        user = await accounts.register(
            session, username=f"{prefix}{i}_{amount}", password="password1", welcome_grant=amount
        )
        users.append(user.id)
    return users


async def balances(session, user_ids):
    rows = await session.execute(
        select(User.id, User.coins, User.rank_points).where(User.id.in_(user_ids)).execution_options(
            populate_existing=True
        )
    )
    found = {uid: (coins, rank) for uid, coins, rank in rows}
    await session.commit()
    return [found[uid] for uid in user_ids]


async def assert_books_balance(session):
    """Every account equals the sum of its entries and its newest balance_after; every hand sums to 0."""
    for asset, column in (("coins", User.coins), ("rank_points", User.rank_points)):
        for uid, balance in (await session.execute(select(User.id, column))).all():
            entries = (
                await session.execute(
                    select(LedgerEntry.delta, LedgerEntry.balance_after)
                    .where(LedgerEntry.user_id == uid, LedgerEntry.asset == asset)
                    .order_by(LedgerEntry.id)
                )
            ).all()
            running = 0
            for delta, after in entries:
                running += delta
                assert after == running >= 0
            assert running == balance, (uid, asset)
    per_hand = await session.execute(
        select(LedgerEntry.hand_id, func.sum(LedgerEntry.delta))
        .where(LedgerEntry.asset == "coins", LedgerEntry.hand_id.is_not(None))
        .group_by(LedgerEntry.hand_id)
    )
    assert all(total == 0 for _, total in per_hand)
    await session.commit()


async def test_a_hand_moves_points_times_coins_per_point(session):
    seats = await make_users(session, [50_000] * 4)
    # seat 0 wins: 3 pays 10 pt (the discarder), 1 and 2 pay 4 pt each.
    outcome = await settle_hand(
        session, hand_key="t1:1", room=BEGINNER, seats=seats, variant="taiwan", record=RECORD,
        payments=[(3, 0, 10), (1, 0, 4), (2, 0, 4)], winners=[0],
    )
    assert outcome.coin_deltas == [1_800, -400, -400, -1_000]
    assert outcome.point_deltas == [18, -4, -4, -10]
    assert outcome.forfeited == [0, 0, 0, 0]
    assert outcome.coins_after == [51_800, 49_600, 49_600, 49_000]
    assert outcome.repeated is False
    assert [c for c, _ in await balances(session, seats)] == outcome.coins_after
    hand = await session.scalar(select(Hand).where(Hand.hand_key == "t1:1"))
    assert (hand.table_id, hand.variant, hand.room, hand.seed, hand.actions) == (
        "t1", "taiwan", "beginner", "ab" * 16, [["draw", 0]],
    )
    keys = set(await session.scalars(select(LedgerEntry.idempotency_key).where(LedgerEntry.hand_id == hand.id)))
    assert {"hand:t1:1:0:debit", "hand:t1:1:0:credit", "hand:t1:1:rank:0"} <= keys
    await assert_books_balance(session)


async def test_engine_payment_objects_are_accepted(session):
    from engine.scoring import Payment

    seats = await make_users(session, [50_000] * 3)
    outcome = await settle_hand(
        session, hand_key="tt:1", room=ROOMS[RoomKey.ADVANCED], seats=seats, variant="tiantai", record=RECORD,
        payments=[Payment(payer=1, payee=0, points=2, reason="self-drawn"), Payment(2, 0, 2, "self-drawn")],
    )
    assert outcome.coin_deltas == [2_400, -1_200, -1_200]


async def test_settling_twice_moves_nothing_the_second_time(session):
    seats = await make_users(session, [50_000] * 4)
    args = dict(room=BEGINNER, seats=seats, variant="taipao", record=RECORD, payments=[(1, 0, 30)], winners=[0])
    first = await settle_hand(session, hand_key="t1:2", **args)
    entries = await session.scalar(select(func.count()).select_from(LedgerEntry))
    again = await settle_hand(session, hand_key="t1:2", **args)
    # Even with different payments, the stored outcome wins: a hand settles exactly once.
    third = await settle_hand(session, hand_key="t1:2", **(args | {"payments": [(2, 0, 99)]}))
    assert again == first == third and again.repeated and third.repeated
    assert await session.scalar(select(func.count()).select_from(LedgerEntry)) == entries
    assert [c for c, _ in await balances(session, seats)] == [53_000, 47_000, 50_000, 50_000]
    await assert_books_balance(session)


async def test_a_payer_never_goes_below_zero_and_the_rest_is_forfeited(session):
    seats = await make_users(session, [50_000, 1_250, 50_000, 0])
    outcome = await settle_hand(
        session, hand_key="short", room=BEGINNER, seats=seats, variant="taiwan", record=RECORD,
        payments=[(1, 0, 30), (3, 0, 5)], winners=[0],
    )
    assert outcome.coin_deltas == [1_250, -1_250, 0, 0]
    assert outcome.forfeited == [0, 1_750, 0, 500]
    assert outcome.point_deltas == [35, -30, 0, -5]
    assert [c for c, _ in await balances(session, seats)] == [51_250, 0, 50_000, 0]
    await assert_books_balance(session)


async def test_payments_to_winners_are_applied_first(session):
    # Seat 1 holds 1,000 coins and owes both a pairwise settlement (listed first) and the winner.
    seats = await make_users(session, [50_000, 1_000, 50_000, 50_000])
    outcome = await settle_hand(
        session, hand_key="order", room=BEGINNER, seats=seats, variant="taipao", record=RECORD,
        payments=[(1, 2, 10), (1, 0, 10)], winners=[0],
    )
    assert outcome.coin_deltas == [1_000, -1_000, 0, 0]  # the winner was paid; the pairwise got nothing
    assert outcome.forfeited == [0, 1_000, 0, 0]


async def test_coins_received_earlier_in_the_hand_can_be_paid_on(session):
    seats = await make_users(session, [50_000, 0, 50_000, 50_000])
    outcome = await settle_hand(
        session, hand_key="chain", room=BEGINNER, seats=seats, variant="taipao", record=RECORD,
        payments=[(0, 1, 5), (1, 2, 8)], winners=[1],
    )
    assert outcome.coin_deltas == [-500, 0, 500, 0]  # seat 1 passes on the 500 it just received
    assert outcome.forfeited == [0, 300, 0, 0]


async def test_rank_points_accumulate_floor_at_zero_and_set_the_title(session):
    seats = await make_users(session, [50_000] * 4)
    for n in range(3):
        outcome = await settle_hand(
            session, hand_key=f"rank:{n}", room=BEGINNER, seats=seats, variant="taiwan", record=RECORD,
            payments=[(1, 0, 40)], winners=[0],
        )
        assert outcome.rank_point_deltas == [40, 0, 0, 0]  # seat 1 is at 0 already: floored
    (winner_coins, winner_rank), (_, loser_rank) = (await balances(session, seats))[:2]
    assert (winner_rank, loser_rank) == (120, 0)
    assert title_for(winner_rank) == "一萬"
    # Losing takes 積分 away again, but never below 0.
    outcome = await settle_hand(
        session, hand_key="rank:3", room=BEGINNER, seats=seats, variant="taiwan", record=RECORD,
        payments=[(0, 1, 200)], winners=[1],
    )
    assert outcome.rank_point_deltas == [-120, 200, 0, 0]
    assert [r for _, r in await balances(session, seats)] == [0, 200, 0, 0]
    assert winner_coins == 62_000
    await assert_books_balance(session)


async def test_practice_hands_are_recorded_but_move_nothing(session):
    (alice,) = await make_users(session, [50_000])
    before = await session.scalar(select(func.count()).select_from(LedgerEntry))
    outcome = await settle_hand(
        session, hand_key="practice:1", room=None, seats=[alice, None, None, None], variant="taiwan",
        record=RECORD, payments=[(1, 0, 50)], winners=[0], practice=True,
    )
    assert outcome.practice and outcome.coin_deltas == [0, 0, 0, 0] and outcome.rank_point_deltas == [0] * 4
    assert outcome.point_deltas == [50, -50, 0, 0] and outcome.coins_after == [None] * 4
    assert await session.scalar(select(func.count()).select_from(LedgerEntry)) == before
    assert await balances(session, [alice]) == [(50_000, 0)]
    hand = await session.scalar(select(Hand).where(Hand.hand_key == "practice:1"))
    assert hand.practice and hand.room is None and hand.seats == [alice, None, None, None]
    again = await settle_hand(
        session, hand_key="practice:1", room=None, seats=[alice, None, None, None], variant="taiwan",
        record=RECORD, payments=[], practice=True,
    )
    assert again.repeated and again.point_deltas == [50, -50, 0, 0]


@pytest.mark.parametrize(
    ("seats", "payments", "variant", "practice"),
    [
        ("three", [(1, 0, 1)], "taiwan", False),  # 3 seats for a 4-seat variant
        ("bots", [(1, 0, 1)], "taiwan", False),  # a coin hand with no player at all
        ("four", [(4, 0, 1)], "taiwan", False),  # no such seat
        ("four", [(1, 1, 1)], "taiwan", False),  # paying oneself
        ("four", [(1, 0, 0)], "taiwan", False),  # zero points
        ("four", [(1, 0, -5)], "taiwan", False),  # negative points
        ("twice", [(1, 0, 1)], "taiwan", False),  # one account in two seats
        ("four", [(1, 0, 1)], "mahjong", False),  # unknown variant
    ],
)
async def test_bad_settlement_calls_write_nothing(session, seats, payments, variant, practice):
    ids = await make_users(session, [50_000] * 4)
    seat_list = {
        "three": ids[:3], "bots": [None] * 4, "four": ids, "twice": [ids[0], ids[0], ids[1], ids[2]],
    }[seats]
    with pytest.raises(ValueError):
        await settle_hand(
            session, hand_key="bad", room=BEGINNER, seats=seat_list, payments=payments, variant=variant,
            record=RECORD, practice=practice,
        )
    assert await session.scalar(select(func.count()).select_from(Hand)) == 0
    assert [c for c, _ in await balances(session, ids)] == [50_000] * 4


async def test_the_database_refuses_negative_balances_and_ledger_edits(session):
    (alice,) = await make_users(session, [100])
    with pytest.raises(IntegrityError):
        await session.execute(text("UPDATE users SET coins = -1 WHERE id = :id"), {"id": alice})
    await session.rollback()
    for statement in ("UPDATE ledger_entries SET delta = 1000000", "DELETE FROM ledger_entries"):
        with pytest.raises(DBAPIError, match="append-only"):
            await session.execute(text(statement))
        await session.rollback()


@given(
    balances=st.lists(st.integers(0, 10_000), min_size=4, max_size=4),
    payments=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 200)).filter(lambda p: p[0] != p[1]),
        max_size=12,
    ),
    coins_per_point=st.sampled_from([100, 300, 600]),
)
def test_transfers_conserve_coins_and_never_overdraw(balances, payments, coins_per_point):
    ordered = [(i, *p) for i, p in enumerate(payments)]
    running = list(balances)
    for t in plan_transfers(ordered, balances, coins_per_point):
        assert 0 <= t.paid <= t.owed == t.points * coins_per_point
        assert t.paid == t.owed or t.paid == running[t.payer]  # short only when the payer is emptied
        running[t.payer] -= t.paid
        running[t.payee] += t.paid
        assert min(running) >= 0
    assert sum(running) == sum(balances)
