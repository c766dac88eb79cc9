"""Roles: player < operator < admin, stored on the account (``users.role``).

A role is granted only by an admin (``set_role`` with the admin as actor) or, for the first admin, by
``python -m app make-admin NAME`` (actor None).  Never by registering a name.  Every grant is audited.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy.ext.asyncio import AsyncSession

from app.models import User
from app.services import audit
from app.services.errors import Conflict, ErrorCode, Forbidden, InvalidInput
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


@dataclass(frozen=True)
class AccountAct:
    """What an admin's act on an account did: the account after it, and whether it changed anything.  A no-op
    (the role it already has, unfreezing an account that is not frozen) writes no audit row and answers
    ``changed: false``."""

    user: User
    changed: bool


def refuse_system_account(user: User) -> None:
    """Forbidden (``system_account``) when ``user`` is a system account (the house, the director, a prize
    pool): they are moved only by their own routes (POST /api/admin/house, their tournament), never by an
    admin's act on a player's account (freeze, log out everywhere, role, adjustment)."""
    if user.role == Role.SYSTEM:
        raise Forbidden("system accounts are not players' accounts: no admin act on an account applies to them",
                        ErrorCode.SYSTEM_ACCOUNT, user_id=user.id)


def has_role(user: User, role: Role) -> bool:
    """True when the account's role is ``role`` or above it (an admin may do what an operator may)."""
    return _RANK[Role(user.role)] >= _RANK[role]


async def set_role(
    session: AsyncSession, *, user_id: int, role: Role, actor_id: int | None, reason: str
) -> AccountAct:
    """Give an existing account ``role`` and audit it.  Raises NotFound, InvalidInput, Forbidden
    (``system_account``), Conflict.

    An admin cannot demote themself: the last admin could otherwise lock everyone out.
    """
    if not reason.strip():
        raise InvalidInput("a reason is required", field="reason", reason="missing")
    if role not in GRANTABLE:
        raise InvalidInput("system is not a role anyone is given", field="role", reason="choices",
                           choices=[r.value for r in GRANTABLE])
    user = (await lock_users(session, [user_id]))[user_id]
    try:
        refuse_system_account(user)
    except Forbidden:
        await session.rollback()
        raise
    if actor_id == user_id and role != Role.ADMIN:
        await session.rollback()
        raise Conflict("an admin cannot take away their own admin role", ErrorCode.OWN_ADMIN_ROLE)
    before = user.role
    if before == role.value:
        await session.commit()
        return AccountAct(user, changed=False)
    user.role = role.value
    audit.record(session, actor_id=actor_id, action="role.set", target_type="user", target_id=user_id,
                 before={"role": before}, after={"role": role.value}, reason=reason.strip())
    await session.commit()
    return AccountAct(user, changed=True)
