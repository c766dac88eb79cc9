"""Request and response bodies of the operator and admin endpoints (app/api/routes/admin*.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas import AdminUserOut, LedgerEntryOut, StrictIn, TableOut, UtcDatetime, VisibleText

REASON = Field(min_length=1, max_length=500, description="why; recorded in the audit log")


class TitleStepOut(BaseModel):
    """One title of the ladder (docs/rules/rooms.md#titles): held from ``at`` 積分 up."""

    at: int = Field(description="the 積分 threshold")
    title: dict[str, str] = Field(description="the title as {zh_hans, zh_hant, en}")


class PlayerDetailOut(AdminUserOut):
    current_table: str | None = Field(description="the table the account is seated at in this process")
    recent_hands: list[int] = Field(description="ids of the latest coin hands that moved its coins or 積分")
    ledger: list[LedgerEntryOut] = Field(description="the latest ledger entries, newest first")
    title_ladder: list[TitleStepOut] = Field(
        default_factory=list, description="every title's 積分 threshold, lowest first (app/game/titles.py)")


class FreezeIn(StrictIn):
    frozen: bool
    reason: VisibleText = REASON


class RoleIn(StrictIn):
    role: Literal["player", "operator", "admin"]
    reason: VisibleText = REASON


class ReasonIn(StrictIn):
    reason: VisibleText = REASON


class AccountActOut(AdminUserOut):
    """The account after an admin's freeze or role change."""

    changed: bool = Field(description="false: the account already was so (the role it has, an unfreeze of an "
                          "account that is not frozen): nothing changed and no audit row was written; a freeze "
                          "of a frozen account still ends its sessions and is audited `{frozen: true}` → "
                          "`{frozen: true}`")


class SessionsEndedOut(BaseModel):
    ended: int = Field(description="how many live sessions were ended")


class CloseTableIn(StrictIn):
    reason: VisibleText = REASON
    force: bool = Field(default=False, description="also close a table that is playing (a stuck one)")


class LiveTableOut(TableOut):
    hand_no: int | None = Field(description="the hand being played, None before the actor starts")
    inbox: int = Field(description="commands waiting in the table actor's inbox")


class VoidOut(BaseModel):
    hand_id: int
    entries: list[LedgerEntryOut] = Field(description="the reversing entries, one per account and asset")


class AuditEntryOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    actor_id: int | None = Field(description="null: the command line")
    actor_name: str = Field("", description="the actor's username; `director` for the tournament director's "
                            "own acts, `command line` when there is no actor")
    target_name: str | None = Field(None, description="a user target's username, a tournament target's name")
    action: str
    target_type: str
    target_id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    reason: str | None
    created_at: UtcDatetime
