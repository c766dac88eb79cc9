"""Admin tools: accounts, balances, roles, freezes, voided hands, the audit log.

Every change is audited; balances change only through ledger entries naming the admin and the reason.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, status

from app.api.deps import (
    ID_MAX,
    NO_NUL,
    AdminUser,
    BeforeId,
    HandId,
    RegistryDep,
    SessionDep,
    StateDep,
    UserId,
)
from app.core.db import begin_write
from app.game.titles import TITLES
from app.models import User
from app.schemas import AdjustmentIn, AdminUserOut, HouseAdjustmentIn, LedgerEntryOut
from app.schemas_admin import (
    AccountActOut,
    AuditEntryOut,
    FreezeIn,
    PlayerDetailOut,
    ReasonIn,
    RoleIn,
    SessionsEndedOut,
    TitleStepOut,
    VoidOut,
)
from app.services import accounts, admin, audit, ledger, roles, sessions
from app.services.audit import AUDIT_PAGE_MAX
from app.services.errors import ErrorCode, NotFound
from app.tables.cluster.admin import apply_freeze
from app.tournaments import accounts as tournament_accounts
from app.tournaments import service as tournament_service
from app.tournaments import voids

router = APIRouter(prefix="/api/admin", tags=["admin"])
DETAIL_LEDGER = 20  # ledger entries shown in a player's detail


async def _user(session: SessionDep, user_id: int) -> User:
    user = await accounts.get_user(session, user_id=user_id)
    if user is None:
        raise NotFound("no such user", ErrorCode.USER_NOT_FOUND, user_id=user_id)
    return user


@router.get("/users")
async def find_users(
    _admin: AdminUser,
    session: SessionDep,
    prefix: Annotated[str | None, Query(max_length=20, pattern=NO_NUL, description="start of the name, any case")] = None,
    id: Annotated[int | None, Query(ge=1, le=ID_MAX, description="an account id")] = None,  # noqa: A002 - the API's word
    limit: Annotated[int, Query(ge=1, le=admin.FIND_MAX)] = 20,
) -> list[AdminUserOut]:
    """Accounts by name prefix and/or id, by name."""
    users = await admin.find_players(session, prefix=prefix, user_id=id, limit=limit)
    return [AdminUserOut.of(user) for user in users]


@router.get("/users/{user_id}")
async def read_user(_admin: AdminUser, session: SessionDep, registry: RegistryDep, user_id: UserId) -> PlayerDetailOut:
    """Coins, 積分, title, role, current table, recent hands and the latest ledger entries."""
    user = await _user(session, user_id)
    entries = await ledger.list_entries(session, user_id=user_id, limit=DETAIL_LEDGER)
    return PlayerDetailOut(
        **AdminUserOut.of(user).model_dump(),
        current_table=await registry.seated_at(user_id),  # across processes (app.tables.cluster.directory)
        recent_hands=await admin.recent_hand_ids(session, user_id=user_id),
        ledger=[LedgerEntryOut.model_validate(entry) for entry in entries],
        title_ladder=[TitleStepOut(at=at, title=names.to_json()) for at, names in TITLES],
    )


@router.post("/users/{user_id}/adjustments", status_code=status.HTTP_201_CREATED)
async def adjust_user(admin_user: AdminUser, session: SessionDep, user_id: UserId, body: AdjustmentIn) -> LedgerEntryOut:
    """Add (or take) a player's coins or 積分 with a reason.  409 if the balance would go below 0; 403
    system_account for the house (POST /api/admin/house) and the prize pools (moved only by their tournament)."""
    await _user(session, user_id)
    entry = await ledger.adjust_balance(
        session, user_id=user_id, asset=body.asset, delta=body.delta, reason=body.reason,
        actor_id=admin_user.id, idempotency_key=body.idempotency_key,
    )
    return LedgerEntryOut.model_validate(entry)


@router.post("/house", status_code=status.HTTP_201_CREATED)
async def adjust_house(admin_user: AdminUser, session: SessionDep, body: HouseAdjustmentIn) -> LedgerEntryOut:
    """Fund (positive delta) or drain (negative) the house account that pays tournament guarantees, with a
    reason; audited as ``house.adjust``.  The players' adjustment route refuses the house (403 system_account)."""
    entry = await tournament_accounts.adjust_house(session, delta=body.delta, reason=body.reason,
                                                  actor_id=admin_user.id, idempotency_key=body.idempotency_key)
    return LedgerEntryOut.model_validate(entry)


@router.get("/users/{user_id}/ledger")
async def read_user_ledger(
    _admin: AdminUser,
    session: SessionDep,
    user_id: UserId,
    asset: Literal["coins", "rank_points"] | None = None,
    before_id: BeforeId = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[LedgerEntryOut]:
    await _user(session, user_id)
    entries = await ledger.list_entries(session, user_id=user_id, asset=asset, before_id=before_id, limit=limit)
    return [LedgerEntryOut.model_validate(entry) for entry in entries]


SYSTEM_REFUSED: dict[int | str, dict[str, Any]] = {403: {"description": "system_account: the house, the director and the prize pools"}}


@router.post("/users/{user_id}/freeze", responses=SYSTEM_REFUSED)
async def freeze_user(
    admin_user: AdminUser, session: SessionDep, registry: RegistryDep, state: StateDep, request: Request,
    user_id: UserId, body: FreezeIn,
) -> AccountActOut:
    """Freeze or unfreeze.  Frozen: no sitting down, no tournament registration; a live seat plays on 托管
    until the hand ends, then stands up — at a tournament table until the round ends, and the player is
    disqualified from a running tournament (no further rounds, no prize) or refunded from one not started.
    Every freeze ends the account's sessions and is audited, also of a frozen account (``changed`` false);
    an unfreeze of an account that is not frozen changes nothing and is not audited (``changed`` false)."""
    act = await admin.set_frozen(session, user_id=user_id, frozen=body.frozen, actor_id=admin_user.id,
                                 reason=body.reason)
    if body.frozen:  # disqualified first: the seat's 托管 may end the round at once, and the next must not seat them
        await tournament_service.disqualify(session, user_id, actor_id=admin_user.id, reason=body.reason)
        await state.live_sessions.revoke(session, user_id=user_id, reason=sessions.EndReason.FROZEN)
        await apply_freeze(registry, request.app.state.table_runtime, user_id)
    return AccountActOut(**AdminUserOut.of(act.user).model_dump(), changed=act.changed)


@router.post("/users/{user_id}/logout-everywhere", responses=SYSTEM_REFUSED)
async def logout_everywhere(admin_user: AdminUser, session: SessionDep, state: StateDep, user_id: UserId,
                            body: ReasonIn) -> SessionsEndedOut:
    """End every session of the account (a stolen password, a shared device): its tokens stop working and
    its open sockets close at once (4401).  Audited, also when there was none to end (``ended`` 0)."""
    roles.refuse_system_account(await _user(session, user_id))
    ended = await state.live_sessions.revoke(session, user_id=user_id, reason=sessions.EndReason.ADMIN)
    await begin_write(session)
    audit.record(session, actor_id=admin_user.id, action="account.logout_everywhere", target_type="user",
                 target_id=user_id, before={"sessions": len(ended)}, after={"sessions": 0}, reason=body.reason.strip())
    await session.commit()
    return SessionsEndedOut(ended=len(ended))


@router.post("/users/{user_id}/role", responses=SYSTEM_REFUSED)
async def set_role(admin_user: AdminUser, session: SessionDep, user_id: UserId, body: RoleIn) -> AccountActOut:
    """Grant or revoke a role (player / operator / admin); audited.  The role the account already has changes
    nothing and is not audited (``changed`` false)."""
    act = await roles.set_role(session, user_id=user_id, role=roles.Role(body.role), actor_id=admin_user.id,
                               reason=body.reason)
    return AccountActOut(**AdminUserOut.of(act.user).model_dump(), changed=act.changed)


@router.post("/hands/{hand_id}/void")
async def void_hand(admin_user: AdminUser, session: SessionDep, hand_id: HandId, body: ReasonIn) -> VoidOut:
    """Reverse a settled hand's coin and 積分 movements with new entries naming the hand and the admin.
    Once: a second void is 409; 409 too if an account has since spent its winnings.  A tournament hand's
    points come off the standings instead: after its table's game ended and before the prizes are paid
    (else 409 tournament_game_playing / tournament_paid)."""
    result = await voids.void_hand(session, hand_id=hand_id, actor_id=admin_user.id, reason=body.reason)
    return VoidOut(hand_id=result.hand_id, entries=[LedgerEntryOut.model_validate(e) for e in result.entries])


@router.get("/audit")
async def read_audit(
    _admin: AdminUser,
    session: SessionDep,
    actor_id: Annotated[int | None, Query(ge=1, le=ID_MAX)] = None,
    action: Annotated[str | None, Query(max_length=40, pattern=NO_NUL)] = None,
    target_type: Annotated[str | None, Query(max_length=20, pattern=NO_NUL)] = None,
    target_id: Annotated[str | None, Query(max_length=64, pattern=NO_NUL)] = None,
    before_id: BeforeId = None,
    limit: Annotated[int, Query(ge=1, le=AUDIT_PAGE_MAX)] = 50,
) -> list[AuditEntryOut]:
    """The audit log, newest first, filtered by any of the fields."""
    entries = await audit.list_entries(session, actor_id=actor_id, action=action, target_type=target_type,
                                       target_id=target_id, before_id=before_id, limit=limit)
    actors, targets = await audit.names(session, entries)
    return [AuditEntryOut.model_validate(entry).model_copy(update={
        "actor_name": audit.COMMAND_LINE if entry.actor_id is None else actors.get(entry.actor_id, ""),
        "target_name": targets.get((entry.target_type, entry.target_id))}) for entry in entries]
