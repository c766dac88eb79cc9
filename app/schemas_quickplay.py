"""Bodies of the quick-play endpoints (app/api/routes/quickplay.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field

from app.game.variants import VariantKey
from app.quickplay.matching import DEFAULT_QUICK_PLAY_ROUNDS, QUICK_PLAY_ROUNDS
from app.quickplay.store import MATCHED_TTL_SECONDS
from app.schemas import EnumText, StrictIn


def _offered_length(rounds: int) -> int:
    if rounds not in QUICK_PLAY_ROUNDS:
        raise ValueError(f"rounds must be one of {', '.join(map(str, QUICK_PLAY_ROUNDS))}")
    return rounds


_LENGTHS = " or ".join(map(str, QUICK_PLAY_ROUNDS))
Rounds = Annotated[int, AfterValidator(_offered_length),
                   Field(description=f"圈 per game: {_LENGTHS} (1: 東風戰, 4: 全莊; each length is its own pool, "
                                     "docs/rules/rooms.md#quick-play)", json_schema_extra={"enum": list(QUICK_PLAY_ROUNDS)})]


class QueueIn(StrictIn):
    variant: Annotated[VariantKey, Field(strict=False, description="the pool to wait in: tiantai (3 seats), "
                                      "taipao or taiwan (4)"), EnumText]
    rounds: Rounds = DEFAULT_QUICK_PLAY_ROUNDS


class QueuedOut(BaseModel):
    """202: the player waits in the room's pool for this variant."""

    queued: bool = Field(description="always true")
    room: str
    variant: str
    rounds: int = Field(description="圈 per game of the pool")
    since: datetime = Field(description="when the player joined the queue (UTC)")


class LeftOut(BaseModel):
    queued: bool = Field(description="always false")


class QueueStatusOut(BaseModel):
    """GET /api/me/queue: waiting now, or the table the last match seated the player at."""

    queued: bool
    room: str | None = None
    variant: str | None = None
    rounds: int | None = Field(default=None, description="圈 per game of the pool (and of the matched table)")
    since: datetime | None = Field(default=None, description="when the player joined the queue (UTC)")
    table_id: str | None = Field(default=None, description=f"set once matched (kept {MATCHED_TTL_SECONDS // 60} "
                                 "minutes, until the player queues again)")
