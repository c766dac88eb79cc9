"""The coin and 積分 ledger: locking accounts, posting entries, admin adjustments, reading history.

Invariant: for every account and asset, the entries' deltas sum to the balance on ``users`` and the newest
entry's ``balance_after`` equals it.  Every change goes through ``post_entry`` on a locked account.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Literal

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.models import LedgerEntry, User
from app.services import audit
from app.services.errors import Conflict, ErrorCode, Forbidden, InvalidInput, NotFound

Asset = Literal["coins", "rank_points"]
ADMIN_REASON = "admin_adjustment"
# The largest |delta| of one admin adjustment: far beyond any real correction, far inside BIGINT.
ADJUSTMENT_MAX = 10**12


async def lock_users(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, User]:
    """Lock these accounts for the rest of the transaction and return them with fresh balances.

    Postgres: SELECT ... FOR UPDATE, always in user-id order so two settlements sharing players cannot
    deadlock.  SQLite ignores FOR UPDATE; there every transaction already holds the write lock
    (see app.core.db).  populate_existing: an account loaded earlier in this session must not keep a stale
    balance.
    """
    await begin_write(session)
    ids = sorted(set(user_ids))
    rows = await session.scalars(
        select(User)
        .where(User.id.in_(ids))
        .order_by(User.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    users = {user.id: user for user in rows}
    missing = [uid for uid in ids if uid not in users]
    if missing:
        raise NotFound(f"no such user: {missing[0]}", ErrorCode.USER_NOT_FOUND, user_id=missing[0])
    return users


def post_entry(
    session: AsyncSession,
    user: User,
    *,
    asset: Asset,
    delta: int,
    reason: str,
    idempotency_key: str,
    hand_id: int | None = None,
    actor_id: int | None = None,
    note: str | None = None,
) -> LedgerEntry:
    """Change a locked account's balance and append the matching entry (flushed with the transaction)."""
    balance = (user.coins if asset == "coins" else user.rank_points) + delta
    if balance < 0:
        # Callers check first and raise a player-facing error; reaching here is a bug.
        raise ValueError(f"{asset} of user {user.id} would become {balance}")
    if asset == "coins":
        user.coins = balance
    else:
        user.rank_points = balance
    entry = LedgerEntry(
        user_id=user.id,
        asset=asset,
        delta=delta,
        balance_after=balance,
        reason=reason,
        idempotency_key=idempotency_key,
        hand_id=hand_id,
        actor_id=actor_id,
        note=note,
    )
    session.add(entry)
    return entry


async def adjust_balance(
    session: AsyncSession,
    *,
    user_id: int,
    asset: Asset,
    delta: int,
    reason: str,
    actor_id: int,
    idempotency_key: str | None = None,
    house: bool = False,
) -> LedgerEntry:
    """An admin's correction: a delta entry recording who and why, never an overwrite.

    A player's account only: the house and the prize pools (role ``system``) are refused with Forbidden
    (``system_account``) — the house moves only through its own action (``house=True``:
    ``app.tournaments.accounts.adjust_house``, audited as ``house.adjust``), a pool only through its tournament.
    With an ``idempotency_key`` a retried request returns the first entry instead of applying twice.
    Raises InvalidInput, NotFound, Forbidden, Conflict (would go below 0, or the key was used for something else).
    """
    if type(delta) is not int or delta == 0 or abs(delta) > ADJUSTMENT_MAX:
        raise InvalidInput(f"delta must be a non-zero integer between -{ADJUSTMENT_MAX} and {ADJUSTMENT_MAX}",
                           field="delta", reason="range", minimum=-ADJUSTMENT_MAX, maximum=ADJUSTMENT_MAX)
    if not reason.strip():
        raise InvalidInput("a reason is required", field="reason", reason="missing")
    key = f"admin:{idempotency_key}" if idempotency_key else f"admin:{uuid.uuid4()}"

    users = await lock_users(session, [user_id])
    if (users[user_id].role == "system") != house:  # Role.SYSTEM (app.services.roles imports this module)
        await session.rollback()
        raise Forbidden("the house and the prize pools are not adjusted through a player's adjustments",
                        ErrorCode.SYSTEM_ACCOUNT, user_id=user_id)
    existing = await session.scalar(select(LedgerEntry).where(LedgerEntry.idempotency_key == key))
    if existing is not None:
        await session.commit()
        return _same_request(existing, user_id=user_id, asset=asset, delta=delta)

    user = users[user_id]
    balance = user.coins if asset == "coins" else user.rank_points
    if balance + delta < 0:
        await session.rollback()
        raise Conflict(f"{asset} would go below 0 (balance {balance}, delta {delta})", ErrorCode.BALANCE_BELOW_ZERO,
                       asset=asset, balance=balance, delta=delta)
    entry = post_entry(
        session, user, asset=asset, delta=delta, reason=ADMIN_REASON, idempotency_key=key,
        actor_id=actor_id, note=reason.strip(),
    )
    audit.record(session, actor_id=actor_id, action="house.adjust" if house else "balance.adjust",
                 target_type="user", target_id=user_id,
                 before={asset: balance}, after={asset: balance + delta, "delta": delta, "ledger_key": key},
                 reason=reason.strip())
    try:
        await session.commit()
    except IntegrityError:
        # The same key committed concurrently between our check and our insert.
        await session.rollback()
        existing = await session.scalar(select(LedgerEntry).where(LedgerEntry.idempotency_key == key))
        if existing is None:
            raise
        return _same_request(existing, user_id=user_id, asset=asset, delta=delta)
    return entry


def _same_request(entry: LedgerEntry, *, user_id: int, asset: str, delta: int) -> LedgerEntry:
    if (entry.user_id, entry.asset, entry.delta) != (user_id, asset, delta):
        raise Conflict("idempotency key already used for a different adjustment", ErrorCode.IDEMPOTENCY_KEY_REUSED)
    return entry


async def list_entries(
    session: AsyncSession,
    *,
    user_id: int,
    asset: Asset | None = None,
    before_id: int | None = None,
    limit: int = 50,
) -> list[LedgerEntry]:
    """Newest first; page with ``before_id`` = the smallest id of the previous page."""
    query = select(LedgerEntry).where(LedgerEntry.user_id == user_id)
    if asset is not None:
        query = query.where(LedgerEntry.asset == asset)
    if before_id is not None:
        query = query.where(LedgerEntry.id < before_id)
    return list(await session.scalars(query.order_by(LedgerEntry.id.desc()).limit(limit)))
