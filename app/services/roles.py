"""Roles: player < operator < admin, stored on the account (``users.role``).

A role is granted only by an admin (``set_role`` with the admin as actor) or, for the first admin, by
``python -m app make-admin NAME`` (actor None).  Never by registering a name.  Every grant is audited.
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy.ext.asyncio import AsyncSession

from app.models import User
from app.services import audit
from app.services.errors import Conflict, ErrorCode, InvalidInput
from app.services.ledger import lock_users


class Role(StrEnum):
    """Who an account is: 玩家 player, 營運 operator (runs tournaments), 管理員 admin (accounts, balances)."""

    PLAYER = "player"
    OPERATOR = "operator"
    ADMIN = "admin"
    # Not a person: the house and each tournament's prize pool (app.tournaments.service); never granted.
    SYSTEM = "system"


GRANTABLE = (Role.PLAYER, Role.OPERATOR, Role.ADMIN)
_RANK = {Role.SYSTEM: -1, Role.PLAYER: 0, Role.OPERATOR: 1, Role.ADMIN: 2}


def has_role(user: User, role: Role) -> bool:
    """True when the account's role is ``role`` or above it (an admin may do what an operator may)."""
    return _RANK[Role(user.role)] >= _RANK[role]


async def set_role(
    session: AsyncSession, *, user_id: int, role: Role, actor_id: int | None, reason: str
) -> User:
    """Give an existing account ``role`` and audit it.  Raises NotFound, InvalidInput, Conflict.

    An admin cannot demote themself: the last admin could otherwise lock everyone out.
    """
    if not reason.strip():
        raise InvalidInput("a reason is required", field="reason", reason="missing")
    user = (await lock_users(session, [user_id]))[user_id]
    if role not in GRANTABLE or user.role == Role.SYSTEM:
        await session.rollback()
        raise InvalidInput("system accounts neither get nor give roles", field="role", reason="choices",
                           choices=[r.value for r in GRANTABLE])
    if actor_id == user_id and role != Role.ADMIN:
        await session.rollback()
        raise Conflict("an admin cannot take away their own admin role", ErrorCode.OWN_ADMIN_ROLE)
    before = user.role
    if before == role.value:
        await session.commit()
        return user
    user.role = role.value
    audit.record(session, actor_id=actor_id, action="role.set", target_type="user", target_id=user_id,
                 before={"role": before}, after={"role": role.value}, reason=reason.strip())
    await session.commit()
    return user
