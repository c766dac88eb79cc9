"""Request and response bodies of the notices (公告) endpoints (app/api/routes/notices.py); their limits are
declared in app.services.notices."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.schemas import StrictIn, UtcDatetime, VisibleText, ZonedDatetime
from app.services.notices import SHOWN_MAX, TEXT_MAX

_TEXT = Field(min_length=1, max_length=TEXT_MAX)


class NoticeTextIn(StrictIn):
    """The notice in each language the client speaks (all three required: a player sees their own)."""

    zh_hans: VisibleText = _TEXT
    zh_hant: VisibleText = _TEXT
    en: VisibleText = _TEXT


class NoticeIn(StrictIn):
    text: NoticeTextIn
    starts_at: ZonedDatetime | None = Field(default=None, description="when it starts showing; null = now")
    ends_at: ZonedDatetime = Field(description="when it stops showing: in the future, after starts_at, at most "
                                   f"{SHOWN_MAX.days} days later (app.services.notices.SHOWN_MAX)")
    reason: VisibleText | None = Field(default=None, min_length=1, max_length=500,
                                       description="why, for the audit log")


class NoticeTextOut(BaseModel):
    zh_hans: str
    zh_hant: str
    en: str


class NoticeOut(BaseModel):
    id: int
    text: NoticeTextOut
    starts_at: UtcDatetime
    ends_at: UtcDatetime
