"""Bodies of the quick-play endpoints (app/api/routes/quickplay.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from app.game.variants import VariantKey
from app.quickplay.store import MATCHED_TTL_SECONDS
from app.schemas import EnumText, StrictIn


class QueueIn(StrictIn):
    variant: Annotated[VariantKey, Field(strict=False, description="the pool to wait in: tiantai (3 seats), "
                                      "taipao or taiwan (4)"), EnumText]


class QueuedOut(BaseModel):
    """202: the player waits in the room's pool for this variant."""

    queued: bool = Field(description="always true")
    room: str
    variant: str
    since: datetime = Field(description="when the player joined the queue (UTC)")


class LeftOut(BaseModel):
    queued: bool = Field(description="always false")


class QueueStatusOut(BaseModel):
    """GET /api/me/queue: waiting now, or the table the last match seated the player at."""

    queued: bool
    room: str | None = None
    variant: str | None = None
    since: datetime | None = Field(default=None, description="when the player joined the queue (UTC)")
    table_id: str | None = Field(default=None, description=f"set once matched (kept {MATCHED_TTL_SECONDS // 60} "
                                 "minutes, until the player queues again)")
