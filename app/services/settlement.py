"""Settling a hand: points → coins, RULES.md §7 order and shortfall, 積分, all in one transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.game.rooms import Room
from app.game.variants import VARIANTS, Variant
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
        data = asdict(self)
        data.pop("repeated")
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, repeated: bool) -> Settlement:
        return cls(**data, repeated=repeated)


def _triplet(payment: PaymentLike) -> tuple[int, int, int]:
    if hasattr(payment, "payer"):
        return int(payment.payer), int(payment.payee), int(payment.points)
    payer, payee, points, *_ = payment
    return int(payer), int(payee), int(points)


def _ordered_payments(
    payments: Sequence[PaymentLike], winners: Sequence[int], n_seats: int
) -> list[tuple[int, int, int, int]]:
    """(index, payer, payee, points): payments to winners first, each group in the order given (§7)."""
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
    variant: Variant | str,
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
    variant = Variant(variant)
    n_seats = VARIANTS[variant].seats
    if not 0 < len(hand_key) <= HAND_KEY_MAX:
        raise ValueError(f"hand_key must be 1-{HAND_KEY_MAX} characters")
    if len(seats) != n_seats:
        raise ValueError(f"{variant.value} has {n_seats} seats, got {len(seats)}")
    ordered = _ordered_payments(payments, winners, n_seats)
    humans = [uid for uid in seats if uid is not None]
    if len(set(humans)) != len(humans):
        raise ValueError("an account sits in two seats")
    if not practice and (room is None or not humans):
        raise ValueError("a coin hand needs a room and at least one player")

    point_deltas = [0] * n_seats
    human_points = [0] * n_seats  # between two players only: what moves coins and 積分
    for _, payer, payee, points in ordered:
        point_deltas[payer] -= points
        point_deltas[payee] += points
        if seats[payer] is not None and seats[payee] is not None:
            human_points[payer] -= points
            human_points[payee] += points
    between_players = [row for row in ordered if seats[row[1]] is not None and seats[row[2]] is not None]

    try:
        # Lock first, then look for the hand: a concurrent duplicate waits here and then finds it.
        await begin_write(session)
        users = await lock_users(session, humans) if not practice else {}
        previous = await _find(session, hand_key)
        if previous is not None:
            await session.commit()
            return previous

        hand = Hand(
            hand_key=hand_key,
            table_id=record.get("table_id"),
            variant=variant.value,
            room=room.key.value if room is not None and not practice else None,
            practice=practice,
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
        if not practice:
            assert room is not None
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
            practice=practice,
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


async def _find(session: AsyncSession, hand_key: str) -> Settlement | None:
    hand = await session.scalar(select(Hand).where(Hand.hand_key == hand_key))
    return None if hand is None else Settlement.from_json(hand.settlement, repeated=True)
