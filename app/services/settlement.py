"""Settling a hand: points → coins, docs/rules/rooms.md#settlement order and shortfall, 積分, all in one transaction."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.game.rooms import Room
from app.game.variants import VARIANT_INFO, VariantKey
from app.models import Hand
from app.services.ledger import lock_users, post_entry

HAND_REASON = "hand_settlement"
HAND_KEY_MAX = 150  # leaves room for the ledger suffixes within idempotency_key's 200 characters

# (payer_seat, payee_seat, points), or anything with .payer/.payee/.points (engine.scoring.Payment).
PaymentLike = Any


@dataclass(frozen=True)
class Settlement:
    """What a settlement did, per seat.  ``repeated`` is True when the hand had already been settled."""

    hand_id: int
    hand_key: str
    coin_deltas: list[int]  # sums to 0
    point_deltas: list[int]  # the hand's net points as scored, before any shortfall
    rank_point_deltas: list[int]  # the 積分 actually applied (floored at 0)
    forfeited: list[int]  # coins each payer owed but could not pay
    coins_after: list[int | None]  # None for bots and on practice tables
    practice: bool = False
    repeated: bool = field(default=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """What ``hands.settlement`` stores: everything but ``repeated`` and ``hand_id`` (the row's own id,
        which a one-statement insert cannot know before it runs)."""
        data = asdict(self)
        del data["repeated"], data["hand_id"]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, hand_id: int, repeated: bool) -> Settlement:
        """The settlement stored in the hand row ``hand_id`` (rows written before 2026-12-02 carry the id too)."""
        return cls(**{**data, "hand_id": hand_id}, repeated=repeated)


def _triplet(payment: PaymentLike) -> tuple[int, int, int]:
    if hasattr(payment, "payer"):
        return int(payment.payer), int(payment.payee), int(payment.points)
    payer, payee, points, *_ = payment
    return int(payer), int(payee), int(points)


def _ordered_payments(
    payments: Sequence[PaymentLike], winners: Sequence[int], n_seats: int
) -> list[tuple[int, int, int, int]]:
    """(index, payer, payee, points): payments to winners first, each group in the order given (docs/rules/rooms.md#settlement)."""
    rows = []
    for i, payment in enumerate(payments):
        payer, payee, points = _triplet(payment)
        if not (0 <= payer < n_seats and 0 <= payee < n_seats) or payer == payee:
            raise ValueError(f"payment {i}: bad seats {payer} -> {payee}")
        if points <= 0:
            raise ValueError(f"payment {i}: points must be > 0, got {points}")
        rows.append((i, payer, payee, points))
    return sorted(rows, key=lambda row: row[2] not in winners)  # stable: keeps the given order


@dataclass(frozen=True, slots=True)
class Transfer:
    index: int  # position of the payment in the caller's list (part of its ledger keys)
    payer: int
    payee: int
    points: int
    owed: int  # coins
    paid: int  # coins actually moved: owed, or what the payer had left


def plan_transfers(
    ordered: Sequence[tuple[int, int, int, int]], balances: Sequence[int], coins_per_point: int
) -> list[Transfer]:
    """The coins each payment moves, applied in order against running per-seat balances (pure).

    A payer pays at most what they hold at that moment, including anything received earlier in the hand.
    """
    running = list(balances)
    transfers = []
    for index, payer, payee, points in ordered:
        owed = points * coins_per_point
        paid = min(owed, running[payer])
        running[payer] -= paid
        running[payee] += paid
        transfers.append(Transfer(index, payer, payee, points, owed, paid))
    return transfers


async def settle_hand(
    session: AsyncSession,
    *,
    hand_key: str,
    room: Room | None,
    seats: Sequence[int | None],
    payments: Sequence[PaymentLike],
    variant: VariantKey | str,
    record: Mapping[str, Any],
    winners: Sequence[int] = (),
    practice: bool = False,
) -> Settlement:
    """Record a finished hand and move its coins, exactly once.

    ``seats``: the user id in each seat (None = a server bot).  ``payments`` in points, in
    the order the rules list them; ``winners`` are the winning seats (payments to them are applied first).
    ``record``: ``table_id``, ``seed``, ``commitment``, ``actions`` and ``result`` of the hand, stored as is.

    Coins = points × room.coins_per_point.  Payments apply one at a time against running balances; a payer
    pays at most what they hold and the rest is forfeited (the payee gets less).  Each movement is a debit
    and a credit ledger entry keyed ``hand:{hand_key}:{i}:debit|credit``; 積分 moves by the hand's net
    points, floored at 0.  A practice hand is recorded but moves no coins and no 積分.

    Bots at a coin table (the creator filled empty seats, ``TableRegistry.fill_with_bots``) hold no coins:
    a payment to or from a bot seat is not made, in coins or in 積分; only payments between two players
    move coins, so no coin is created or lost and nobody farms 積分 off bots (docs/server.md, "Bots at a coin table hold no coins").

    Owns the transaction: commits on success, rolls back on error.  Calling it again with the same
    ``hand_key`` (a retry, a replayed actor, a concurrent duplicate) changes nothing and returns the first
    outcome with ``repeated=True``.
    """
    if practice:
        return await _record_practice_hand(session, practice_hand(
            hand_key=hand_key, seats=seats, payments=payments, variant=variant, record=record, winners=winners))
    variant, ordered = _checked(hand_key, seats, payments, variant, winners)
    n_seats = len(seats)
    humans = [uid for uid in seats if uid is not None]
    if room is None or not humans:
        raise ValueError("a coin hand needs a room and at least one player")

    point_deltas = _net_points(ordered, n_seats)
    human_points = [0] * n_seats  # between two players only: what moves coins and 積分
    for _, payer, payee, points in ordered:
        if seats[payer] is not None and seats[payee] is not None:
            human_points[payer] -= points
            human_points[payee] += points
    between_players = [row for row in ordered if seats[row[1]] is not None and seats[row[2]] is not None]

    try:
        # Lock first, then look for the hand: a concurrent duplicate waits here and then finds it.
        await begin_write(session)
        users = await lock_users(session, humans)
        previous = await _find(session, hand_key)
        if previous is not None:
            await session.commit()
            return previous

        hand = Hand(
            hand_key=hand_key,
            table_id=record.get("table_id"),
            variant=variant.value,
            room=room.key.value,
            practice=False,
            seed=record.get("seed"),
            commitment=record.get("commitment"),
            seats=list(seats),
            actions=list(record.get("actions", [])),
            result=dict(record.get("result", {})),
            settlement={},
        )
        session.add(hand)
        await session.flush()  # the hand's id, for the ledger rows

        coin_deltas = [0] * n_seats
        forfeited = [0] * n_seats
        rank_deltas = [0] * n_seats
        seat_users = [users[uid] if uid is not None else None for uid in seats]
        balances = [u.coins if u is not None else 0 for u in seat_users]  # a bot seat never pays or is paid
        transfers = plan_transfers(between_players, balances, room.coins_per_point)
        for t in transfers:
            forfeited[t.payer] += t.owed - t.paid
            coin_deltas[t.payer] -= t.paid
            coin_deltas[t.payee] += t.paid
            if t.paid == 0:
                continue  # nothing moved; the forfeit is in the hand's settlement record
            note = f"seat {t.payer} -> seat {t.payee}: {t.points} pt"
            if t.paid < t.owed:
                note += f", {t.owed - t.paid} coins forfeited"
            for seat, delta, side in ((t.payer, -t.paid, "debit"), (t.payee, t.paid, "credit")):
                user = seat_users[seat]
                assert user is not None  # between_players
                post_entry(
                    session, user, asset="coins", delta=delta, reason=HAND_REASON,
                    idempotency_key=f"hand:{hand_key}:{t.index}:{side}", hand_id=hand.id, note=note,
                )
        for seat, uid in enumerate(seats):
            if uid is None:
                continue  # a bot has no 積分
            user = users[uid]
            rank_deltas[seat] = max(user.rank_points + human_points[seat], 0) - user.rank_points
            if rank_deltas[seat]:
                post_entry(
                    session, user, asset="rank_points", delta=rank_deltas[seat], reason=HAND_REASON,
                    idempotency_key=f"hand:{hand_key}:rank:{seat}", hand_id=hand.id,
                )
        if sum(coin_deltas) != 0:  # cannot happen: every debit has its credit; refuse to commit if it does
            raise AssertionError(f"hand {hand_key} coin deltas {coin_deltas} do not sum to 0")

        outcome = Settlement(
            hand_id=hand.id,
            hand_key=hand_key,
            coin_deltas=coin_deltas,
            point_deltas=point_deltas,
            rank_point_deltas=rank_deltas,
            forfeited=forfeited,
            coins_after=[users[uid].coins if uid in users else None for uid in seats],
        )
        hand.settlement = outcome.to_json()
        await session.commit()
        return outcome
    except IntegrityError:
        # Only a concurrent settlement of the same hand_key gets here (its hand row won the unique key).
        await session.rollback()
        previous = await _find(session, hand_key)
        if previous is None:
            raise
        await session.commit()
        return previous
    except Exception:
        await session.rollback()
        raise


def _checked(hand_key: str, seats: Sequence[int | None], payments: Sequence[PaymentLike], variant: VariantKey | str,
             winners: Sequence[int]) -> tuple[VariantKey, list[tuple[int, int, int, int]]]:
    """The variant and the ordered payments of a hand to settle, after checking its key, seats and payments."""
    variant = VariantKey(variant)
    n_seats = VARIANT_INFO[variant].seats
    if not 0 < len(hand_key) <= HAND_KEY_MAX:
        raise ValueError(f"hand_key must be 1-{HAND_KEY_MAX} characters")
    if len(seats) != n_seats:
        raise ValueError(f"{variant.value} has {n_seats} seats, got {len(seats)}")
    humans = [uid for uid in seats if uid is not None]
    if len(set(humans)) != len(humans):
        raise ValueError("an account sits in two seats")
    return variant, _ordered_payments(payments, winners, n_seats)


def _net_points(ordered: Sequence[tuple[int, int, int, int]], n_seats: int) -> list[int]:
    """Each seat's net points over the hand's payments, as scored (before any shortfall)."""
    net = [0] * n_seats
    for _, payer, payee, points in ordered:
        net[payer] -= points
        net[payee] += points
    return net


@dataclass(frozen=True)
class PracticeHand:
    """A practice (or tournament) hand, which moves nothing: one ``hands`` row and what settling it did."""

    settlement: Settlement  # hand_id 0: the row's id is known once it is inserted
    row: dict[str, Any]  # the row's columns, in ``PRACTICE_COLUMNS`` order

    def settled(self, hand_id: int) -> Settlement:
        return replace(self.settlement, hand_id=hand_id)


PRACTICE_COLUMNS = ("hand_key", "table_id", "variant", "seed", "commitment", "seats", "actions", "result",
                    "settlement")
JSON_COLUMNS = frozenset({"seats", "actions", "result", "settlement"})


def practice_hand(*, hand_key: str, seats: Sequence[int | None], payments: Sequence[PaymentLike],
                  variant: VariantKey | str, record: Mapping[str, Any], winners: Sequence[int] = ()) -> PracticeHand:
    """The row and outcome of a practice hand (checked as ``settle_hand`` checks every hand)."""
    variant, ordered = _checked(hand_key, seats, payments, variant, winners)
    zeros = [0] * len(seats)
    settlement = Settlement(hand_id=0, hand_key=hand_key, coin_deltas=zeros,
                            point_deltas=_net_points(ordered, len(seats)), rank_point_deltas=zeros,
                            forfeited=zeros, coins_after=[None] * len(seats), practice=True)
    row = {"hand_key": hand_key, "table_id": record.get("table_id"), "variant": variant.value,
           "seed": record.get("seed"), "commitment": record.get("commitment"), "seats": list(seats),
           "actions": list(record.get("actions", [])), "result": dict(record.get("result", {})),
           "settlement": settlement.to_json()}
    return PracticeHand(settlement, row)


async def _record_practice_hand(session: AsyncSession, hand: PracticeHand) -> Settlement:
    """One ``INSERT … ON CONFLICT (hand_key) DO NOTHING RETURNING id``, with no lock, read or flush first
    (a practice hand moves nothing).  A hand already recorded inserts nothing and is read back as a repeat."""
    insert = _dialect_insert(session)(Hand).values(room=None, practice=True, **hand.row).on_conflict_do_nothing(
        index_elements=[Hand.hand_key]).returning(Hand.id)
    try:
        await begin_write(session)  # SQLite: the write lock now; Postgres: a plain BEGIN
        hand_id = (await session.execute(insert)).scalar()
        found = None if hand_id is not None else await _find(session, hand.settlement.hand_key)
        await session.commit()
    except Exception:
        await session.rollback()
        raise
    return _inserted_or_found(hand, hand_id, found)


# The same insert on asyncpg itself (``record_practice_hand``): one statement, committed by itself.
_PRACTICE_SQL = (
    f"INSERT INTO hands (room, practice, {', '.join(PRACTICE_COLUMNS)}) VALUES (NULL, true, "
    + ", ".join(f"${i}{'::json' if c in JSON_COLUMNS else ''}" for i, c in enumerate(PRACTICE_COLUMNS, 1))
    + ") ON CONFLICT (hand_key) DO NOTHING RETURNING id")
_SETTLEMENT_SQL = "SELECT id, settlement FROM hands WHERE hand_key = $1"


async def record_practice_hand(driver: Any, hand: PracticeHand) -> Settlement:
    """Record a practice hand on an asyncpg connection (under SQLAlchemy's, whose JSON codec takes JSON text),
    outside any transaction: the insert commits by itself.  What the table settler uses on Postgres, where
    the session path's BEGIN, INSERT and COMMIT through SQLAlchemy cost several times the CPU."""
    # orjson: a hand's action list is a few kilobytes of JSON, and the standard encoder took about a third of
    # this function's CPU at 1,000 practice tables (bench/results/throughput.md, ninth round).
    args = [orjson.dumps(hand.row[c], option=orjson.OPT_NON_STR_KEYS).decode() if c in JSON_COLUMNS
            else hand.row[c] for c in PRACTICE_COLUMNS]
    hand_id = await driver.fetchval(_PRACTICE_SQL, *args)
    found = None
    if hand_id is None:
        row = await driver.fetchrow(_SETTLEMENT_SQL, hand.settlement.hand_key)
        found = None if row is None else Settlement.from_json(json.loads(row["settlement"]) if isinstance(
            row["settlement"], str) else row["settlement"], hand_id=row["id"], repeated=True)
    return _inserted_or_found(hand, hand_id, found)


def _inserted_or_found(hand: PracticeHand, hand_id: int | None, found: Settlement | None) -> Settlement:
    if hand_id is not None:
        return hand.settled(hand_id)
    if found is None:
        raise RuntimeError(f"hand {hand.settlement.hand_key} was neither recorded nor found")
    return found


def _dialect_insert(session: AsyncSession) -> Any:
    """The backend's INSERT construct (both have ``on_conflict_do_nothing``)."""
    bind = session.get_bind()
    return sqlite_insert if bind.dialect.name == "sqlite" else pg_insert


async def _find(session: AsyncSession, hand_key: str) -> Settlement | None:
    hand = await session.scalar(select(Hand).where(Hand.hand_key == hand_key))
    return None if hand is None else Settlement.from_json(hand.settlement, hand_id=hand.id, repeated=True)
