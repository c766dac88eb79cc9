"""Settlements racing on the same accounts, each in its own session (its own connection), as in production.

On Postgres this exercises SELECT … FOR UPDATE in user-id order; on SQLite, BEGIN IMMEDIATE.  Nothing here
asserts timings: only that no update is lost, nothing is applied twice and nobody deadlocks.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.game.rooms import ROOMS, RoomKey
from app.models import Hand, LedgerEntry, User
from app.services import accounts, ledger
from app.services.settlement import settle_hand

BEGINNER = ROOMS[RoomKey.BEGINNER]
RECORD = {"table_id": "t", "actions": [], "result": {}}


async def _users(sessionmaker, coins):
    async with sessionmaker() as session:
        return [
            (await accounts.register(session, username=f"user{i}", password="password1", welcome_grant=c)).id
            for i, c in enumerate(coins)
        ]


async def _coins(sessionmaker, ids):
    async with sessionmaker() as session:
        rows = dict((await session.execute(select(User.id, User.coins).where(User.id.in_(ids)))).all())
    return [rows[uid] for uid in ids]


async def _settle(sessionmaker, hand_key, seats, payments, winners=(0,)):
    async with sessionmaker() as session:
        return await settle_hand(
            session, hand_key=hand_key, room=BEGINNER, seats=seats, payments=payments, variant="taiwan",
            record=RECORD, winners=winners,
        )


async def test_concurrent_hands_on_one_account_lose_no_update(sessionmaker):
    ids = await _users(sessionmaker, [50_000] * 4)
    # Twelve hands at once, all paid by seat 1 (the same account) to the others in turn.
    hands = [(f"h{n}", [(1, (0, 2, 3)[n % 3], 3)]) for n in range(12)]
    outcomes = await asyncio.gather(*(_settle(sessionmaker, key, ids, pays) for key, pays in hands))
    assert not any(o.repeated for o in outcomes)
    coins = await _coins(sessionmaker, ids)
    assert coins[1] == 50_000 - 12 * 300
    assert sum(coins) == 4 * 50_000
    expected = [50_000] * 4
    for o in outcomes:
        expected = [e + d for e, d in zip(expected, o.coin_deltas, strict=True)]
    assert coins == expected


async def test_concurrent_duplicates_of_one_hand_apply_once(sessionmaker):
    ids = await _users(sessionmaker, [50_000] * 4)
    outcomes = await asyncio.gather(*(_settle(sessionmaker, "dup", ids, [(2, 0, 25)]) for _ in range(6)))
    assert sum(not o.repeated for o in outcomes) == 1
    assert len({tuple(o.coin_deltas) for o in outcomes}) == 1
    assert await _coins(sessionmaker, ids) == [52_500, 50_000, 47_500, 50_000]
    async with sessionmaker() as session:
        assert await session.scalar(select(func.count()).select_from(Hand)) == 1


async def test_concurrent_shortfalls_never_overdraw(sessionmaker):
    ids = await _users(sessionmaker, [50_000, 1_000, 50_000, 50_000])
    outcomes = await asyncio.gather(*(_settle(sessionmaker, f"s{n}", ids, [(1, 0, 4)]) for n in range(6)))
    assert sorted(-o.coin_deltas[1] for o in outcomes) == [0, 0, 0, 200, 400, 400]
    assert await _coins(sessionmaker, ids) == [51_000, 0, 50_000, 50_000]
    assert sum(o.forfeited[1] for o in outcomes) == 6 * 400 - 1_000


async def test_overlapping_tables_in_opposite_seat_orders_do_not_deadlock(sessionmaker):
    ids = await _users(sessionmaker, [50_000] * 5)
    table_a, table_b = ids[:4], list(reversed(ids[1:]))
    jobs = []
    for n in range(8):
        jobs.append(_settle(sessionmaker, f"a{n}", table_a, [(1, 0, 1), (2, 0, 1), (3, 0, 1)]))
        jobs.append(_settle(sessionmaker, f"b{n}", table_b, [(1, 0, 1), (2, 0, 1), (3, 0, 1)]))
    await asyncio.gather(*jobs)
    coins = await _coins(sessionmaker, ids)
    assert sum(coins) == 5 * 50_000
    assert coins[0] == 50_000 + 8 * 300 and coins[4] == 50_000 + 8 * 300


async def test_admin_adjustments_race_settlements(sessionmaker):
    ids = await _users(sessionmaker, [50_000] * 4 + [0])
    admin = ids[4]

    async def adjust(n):
        async with sessionmaker() as session:
            return await ledger.adjust_balance(
                session, user_id=ids[1], asset="coins", delta=100, reason=f"bonus {n}", actor_id=admin
            )

    jobs = [adjust(n) for n in range(5)] + [_settle(sessionmaker, f"x{n}", ids[:4], [(1, 0, 2)]) for n in range(5)]
    await asyncio.gather(*jobs)
    assert (await _coins(sessionmaker, ids[:2])) == [51_000, 50_000 + 500 - 1_000]
    async with sessionmaker() as session:
        deltas = list(await session.scalars(select(LedgerEntry.delta).where(LedgerEntry.user_id == ids[1])))
        assert sum(deltas) == 49_500
