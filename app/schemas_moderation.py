"""Request and response bodies of the moderation endpoints (app/api/routes/moderation.py): an account's
sessions and notes, and the collusion report."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.schemas import StrictIn, UtcDatetime, VisibleText
from app.services.notes import NOTE_MAX


class AdminSessionOut(BaseModel):
    """One live login session of an account, as an admin sees it."""

    model_config = ConfigDict(from_attributes=True)

    id: str = Field(description="the session's public id: DELETE /api/admin/users/{id}/sessions/{session_id} ends it")
    created_at: UtcDatetime
    last_seen_at: UtcDatetime = Field(description="last use, to the minute")
    expires_at: UtcDatetime = Field(description="the absolute end; it also ends after SESSION_IDLE_SECONDS unused")
    user_agent: str = Field(description="the browser or client that logged in (its User-Agent, shortened)")
    address: str = Field(description="the address it logged in from")


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("a note needs some text")
    return value.strip()


class NoteIn(StrictIn):
    text: Annotated[VisibleText, AfterValidator(_not_blank)] = Field(
        min_length=1, max_length=NOTE_MAX, description="the note (surrounding spaces dropped)")


class NoteOut(BaseModel):
    """A moderator's note on an account (備註)."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int = Field(description="the account the note is about")
    author_id: int = Field(description="the admin who wrote it")
    author_name: str = Field("", description="the author's username")
    text: str
    created_at: UtcDatetime


class CollusionAccount(BaseModel):
    id: int
    username: str


class CollusionPairOut(BaseModel):
    """One pair of accounts that shared a coin hand in the period, with each signal of chip dumping
    (docs/operations.md, "The collusion report")."""

    giver: CollusionAccount = Field(description="the account the net coins flowed from")
    receiver: CollusionAccount = Field(description="the account they flowed to")
    score: float = Field(description="the ranking score, 0 to 5 (the formula is in docs/operations.md)")
    hands_together: int = Field(description="coin hands both sat at")
    tables_together: int = Field(description="distinct coin tables both sat at")
    together_rate: float = Field(description="hands together / the coin hands of whichever played fewer")
    net_coins: int = Field(description="coins from giver to receiver, net of what flowed back")
    loss_share: float = Field(description="of the giver's coin losses in the period, the share paid to the receiver")
    fed_wins: int = Field(description="hands the receiver won on the giver's discard")
    fed_wins_back: int = Field(description="hands the giver won on the receiver's discard")
    shared_address: bool = Field(description="a login session of each came from the same address")
    shared_device: bool = Field(description="a login session of each had the same User-Agent")
