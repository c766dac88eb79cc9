"""The tournaments' system accounts: the house (funds guarantees) and the director (its acts are audited under
it).  Neither can log in: '#' is not allowed in player names."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.models import LedgerEntry, User
from app.services.ledger import adjust_balance
from app.services.roles import Role

HOUSE_NAME = "house#"
DIRECTOR_NAME = "director#"


async def house_account(session: AsyncSession) -> User:
    """The house's account (funds guarantees; an admin funds or drains it with ``adjust_house``).  Created on
    first use."""
    return await system_account(session, HOUSE_NAME)


async def director_id(session: AsyncSession) -> int:
    """The tournament director's account (比賽主持): its own acts (opening registration, a due start, the
    payout) are audited under it, so the audit log tells them from an operator's and the command line's."""
    return (await system_account(session, DIRECTOR_NAME)).id


async def adjust_house(session: AsyncSession, *, delta: int, reason: str, actor_id: int,
                       idempotency_key: str | None = None) -> LedgerEntry:
    """Fund (delta > 0) or drain (delta < 0) the house account: the one way its coins move besides the
    guarantees, a ledger entry naming the admin and the reason, audited as ``house.adjust``."""
    house = await house_account(session)
    return await adjust_balance(session, user_id=house.id, asset="coins", delta=delta, reason=reason,
                                actor_id=actor_id, idempotency_key=idempotency_key, house=True)


async def system_account(session: AsyncSession, name: str) -> User:
    """The system account named ``name`` (the house, the director, a tournament's pool), created on first use."""
    user = await session.scalar(select(User).where(User.username_key == name))
    if user is None:
        await begin_write(session)
        # '#' is not allowed in player names, so nobody can register or log in as one of these.
        user = User(username=name, username_key=name, password_hash="!", coins=0, rank_points=0,
                    role=Role.SYSTEM.value)
        session.add(user)
        await session.flush()
    return user
