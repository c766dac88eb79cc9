"""What admins do to accounts and hands, without HTTP: find, inspect, freeze, void a hand.

Every change is audited (``app.services.audit``) in the transaction that makes it; balances change only
through ledger entries (``app.services.ledger``), never by overwriting.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import cast

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.models import AuditEntry, Hand, LedgerEntry, User
from app.services import audit
from app.services.accounts import canonical_username
from app.services.errors import Conflict, ErrorCode, Forbidden, InvalidInput, NotFound
from app.services.ledger import lock_users, post_entry
from app.services.roles import AccountAct, refuse_system_account
from app.services.settlement import HAND_REASON

FIND_MAX = 50  # the most accounts one search returns
RECENT_HANDS = 10  # hands shown in a player's detail
VOID_REASON = "hand_void"


async def find_players(
    session: AsyncSession, *, prefix: str | None = None, user_id: int | None = None, limit: int = FIND_MAX
) -> list[User]:
    """Accounts whose name starts with ``prefix`` (NFKC, case-insensitive) and/or with this id, by name."""
    query = select(User).where(User.role != "system")  # the house and prize pools are not players
    if user_id is not None:
        query = query.where(User.id == user_id)
    if prefix:
        try:
            key = canonical_username(prefix.ljust(3, "_"))[1][: len(prefix)]
        except InvalidInput:
            return []
        # username_key holds only [a-z0-9_] and CJK, so LIKE needs escaping for "_" alone.
        escaped = key.replace("_", r"\_")
        query = query.where(User.username_key.like(f"{escaped}%", escape="\\"))
    return list(await session.scalars(query.order_by(User.username_key).limit(min(limit, FIND_MAX))))


async def recent_hand_ids(session: AsyncSession, *, user_id: int, limit: int = RECENT_HANDS) -> list[int]:
    """The coin hands this account took part in that moved its coins or 積分, newest first."""
    rows = await session.scalars(
        select(LedgerEntry.hand_id)
        .where(LedgerEntry.user_id == user_id, LedgerEntry.hand_id.is_not(None))
        .group_by(LedgerEntry.hand_id)
        .order_by(func.max(LedgerEntry.id).desc())
        .limit(limit)
    )
    return [int(cast(int, hand_id)) for hand_id in rows]  # the query leaves NULL hand ids out


async def set_frozen(
    session: AsyncSession, *, user_id: int, frozen: bool, actor_id: int, reason: str
) -> AccountAct:
    """Freeze (or unfreeze) an account and audit it.  Seating and tournaments check ``User.frozen``; a live
    seat is the table's business (``app.tables.cluster.admin.apply_freeze``).

    A freeze always acts (the caller ends the account's sessions and carries it to a seat), so it is always
    audited, ``{frozen: true} → {frozen: true}`` when the account already was frozen (``changed`` false).  An
    unfreeze of an account that is not frozen does nothing: no audit row, ``changed`` false.  System
    accounts are refused (Forbidden ``system_account``)."""
    if not reason.strip():
        raise InvalidInput("a reason is required", field="reason", reason="missing")
    user = (await lock_users(session, [user_id]))[user_id]
    try:
        refuse_system_account(user)
    except Forbidden:
        await session.rollback()
        raise
    changed = user.frozen != frozen
    if changed or frozen:
        audit.record(session, actor_id=actor_id, action="account.freeze" if frozen else "account.unfreeze",
                     target_type="user", target_id=user_id, before={"frozen": user.frozen},
                     after={"frozen": frozen}, reason=reason.strip())
        user.frozen = frozen
    await session.commit()
    return AccountAct(user, changed)


@dataclass(frozen=True)
class VoidResult:
    hand_id: int
    entries: list[LedgerEntry]


async def void_hand(session: AsyncSession, *, hand_id: int, actor_id: int, reason: str) -> VoidResult:
    """Reverse a settled hand's ledger movements with new entries naming the hand and the admin, once.

    Per account and asset, one entry of minus the hand's net movement (key ``void:{hand}:{user}:{asset}``),
    so the reversal sums to zero just as the settlement did.  Coins: refused (Conflict) if an account has
    since spent what it won, because the reversal would take it below 0 — adjust it first.  積分 is floored
    at 0, as settlement floors it (docs/rules/rooms.md#settlement).  A second void is refused with Conflict.
    """
    if not reason.strip():
        raise InvalidInput("a reason is required", field="reason", reason="missing")
    # The hand's row is the serialisation point: a hand that moved nothing locks no account below, and two
    # retries must not both pass the "already void" check (Postgres: FOR UPDATE; SQLite: BEGIN IMMEDIATE).
    await begin_write(session)
    hand = await session.scalar(select(Hand).where(Hand.id == hand_id).with_for_update())
    if hand is None:
        await session.rollback()
        raise NotFound("no such hand", ErrorCode.HAND_NOT_FOUND, hand_id=hand_id)
    moved = list(await session.scalars(
        select(LedgerEntry).where(LedgerEntry.hand_id == hand_id, LedgerEntry.reason == HAND_REASON)
    ))
    net: dict[tuple[int, str], int] = defaultdict(int)
    for entry in moved:
        net[(entry.user_id, entry.asset)] += entry.delta
    users = await lock_users(session, sorted({uid for uid, _ in net}))
    if await already_voided(session, hand_id):
        await session.rollback()
        raise Conflict(f"hand {hand_id} is already void", ErrorCode.HAND_ALREADY_VOID, hand_id=hand_id)
    plan = []
    for (uid, asset), delta in sorted(net.items()):
        user = users[uid]
        balance = user.coins if asset == "coins" else user.rank_points
        reverse = -delta
        if balance + reverse < 0:
            if asset == "coins":
                message = (f"voiding hand {hand_id} would take {user.username}'s coins below 0 "
                           f"(balance {balance}, reversal {reverse}); adjust the account first")
                await session.rollback()  # expires ``user``: the message is built first
                raise Conflict(message, ErrorCode.VOID_BELOW_ZERO, hand_id=hand_id, user_id=uid, balance=balance,
                               delta=reverse)
            reverse = -balance
        if reverse:
            plan.append((user, asset, reverse))
    entries = [
        post_entry(session, user, asset=asset, delta=reverse, reason=VOID_REASON,  # type: ignore[arg-type]
                   idempotency_key=f"void:{hand_id}:{user.id}:{asset}", hand_id=hand_id, actor_id=actor_id,
                   note=f"void of hand {hand_id}: {reason.strip()}")
        for user, asset, reverse in plan
    ]
    audit.record(session, actor_id=actor_id, action="hand.void", target_type="hand", target_id=hand_id,
                 before={"net": {f"{uid}:{asset}": d for (uid, asset), d in sorted(net.items())}},
                 after={"reversed": {f"{u.id}:{a}": r for u, a, r in plan}}, reason=reason.strip())
    await session.commit()
    return VoidResult(hand_id=hand_id, entries=entries)


async def already_voided(session: AsyncSession, hand_id: int) -> bool:
    """Whether hand ``hand_id`` was voided: its ``hand.void`` audit row marks it even when the hand moved
    nothing (so there are no ``void:`` ledger keys), a tournament hand included (app.tournaments.voids)."""
    found = await session.scalar(
        select(AuditEntry.id).where(AuditEntry.action == "hand.void", AuditEntry.target_type == "hand",
                                    AuditEntry.target_id == str(hand_id)).limit(1)
    )
    return found is not None
