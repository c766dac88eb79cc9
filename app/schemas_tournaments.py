"""Bodies of the tournament endpoints (app/api/routes/tournaments.py); limits from app.tournaments.spec."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.schemas import EnumText, StrictIn, VisibleText, ZonedDatetime
from app.tournaments.spec import LIMITS, NAME_MAX, TournamentSpec


def _range(name: str) -> FieldInfo:
    """The bounds ``LIMITS`` declares for a field (enforced by pydantic, shown in the OpenAPI schema)."""
    low, high = LIMITS[name]
    bounds: FieldInfo = Field(ge=low, le=high)
    return bounds


class TournamentSettingsIn(StrictIn):
    """A tournament's settings without its times (a schedule's occurrences take theirs from its recurrence)."""

    name: VisibleText = Field(min_length=1, max_length=NAME_MAX)
    room: Annotated[RoomKey, Field(strict=False), EnumText]
    variant: Annotated[VariantKey, Field(strict=False), EnumText]
    entry_fee: Annotated[int, _range("entry_fee")] = Field(description="coins, into the prize pool")
    player_limit: Annotated[int, _range("player_limit")] = Field(
        description="a multiple of the variant's table size")
    rounds: Annotated[int, _range("rounds")]
    hands_per_round: Annotated[int, _range("hands_per_round")] | None = Field(
        default=None, description="null: each round is a whole game of options.rounds 圈")
    prize_split: list[int] = Field(min_length=LIMITS["places_paid"][0], max_length=LIMITS["places_paid"][1],
                                   description="whole percentages of the pool per place, summing to 100, "
                                   "never paying a place more than the one above it")
    guarantee: Annotated[int, _range("guarantee")] = Field(
        default=0, description="coins the house adds to the pool (from the house account)")
    options: dict[str, Any] = Field(default_factory=dict, description="the tables' options (GET /api/variants)")


class TournamentIn(TournamentSettingsIn):
    starts_at: ZonedDatetime = Field(description="when play starts (registration closes); in the future, with a zone")
    opens_at: ZonedDatetime | None = Field(
        default=None, description="registration opens; null = at once; not after starts_at")

    def spec(self) -> TournamentSpec:
        return TournamentSpec(**self.model_dump())


class StartIn(StrictIn):
    reason: VisibleText | None = Field(default=None, max_length=500,
                                       description="why now (the audit log keeps it)")


class CancelIn(StrictIn):
    reason: VisibleText = Field(min_length=1, max_length=500)


class StandingOut(BaseModel):
    user_id: int
    username: str
    points: int
    place: int | None
    prize: int
    disqualified: bool = Field(description="frozen while the tournament ran: no further rounds, no prize")


class RefundOut(BaseModel):
    user_id: int
    username: str
    coins: int


class TournamentTableOut(BaseModel):
    round: int
    table_no: int
    table_id: str | None
    seats: list[int | None] = Field(description="user ids; null = a house bot (plays for no prize)")
    finished: bool
    points: list[int] | None
    hands_played: int
    closed_tables: list[str] = Field(default_factory=list, description="tables of this game an operator "
                                     "closed (it was played again from the start); their hands keep these ids")


class TournamentOut(BaseModel):
    id: int
    name: str
    room: str
    variant: str
    state: str = Field(description="scheduled, registering, running, finished or cancelled")
    entry_fee: int
    player_limit: int
    rounds: int
    hands_per_round: int | None
    prize_split: list[int]
    guarantee: int
    starts_at: str | None
    current_round: int
    actions: list[str] = Field(description="what an operator may do now: start and/or cancel (others are 409)")
    registered: int
    pool: int = Field(description="coins in the prize pool now (0 once paid out or refunded)")
    paid_out: int = Field(description="prize coins paid out of the pool")
    refunded: int = Field(description="entry fees refunded from the pool (players who left, or a cancel)")
    refunds: list[RefundOut] = Field(description="who got a refund, and how much")
    standings: list[StandingOut] = Field(description="best first; while running, a game's points count "
                                         "from every settled hand, before its table finishes")
    tables: list[TournamentTableOut]


class TournamentReportOut(BaseModel):
    id: int
    state: str
    pool: int
    fees_in: int
    refunds_out: int
    guarantee_net: int
    prizes_out: int
    balanced: bool = Field(description="every coin that entered the pool left it or is still in it")
