"""Request and response bodies of the HTTP API."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
)

from app.bots import DEFAULT_BOT_LEVEL, BotLevel
from app.game.names import Language
from app.game.titles import title_names_for
from app.game.variants import VariantKey
from app.models import User
from app.services.accounts import canonical_username, check_password
from app.services.ledger import ADJUSTMENT_MAX
from app.services.roles import Role
from app.services.text import visible_text
from app.tables.settings import DEFAULT_BOT_SPEED, PRACTICE_HANDS_MAX, BotSpeed
from engine.variants import Option


class ErrorOut(BaseModel):
    """Every refusal's body (docs/errors.md): English ``detail``, the stable ``code`` and its ``params``."""

    detail: str = Field(description="English, for logs and old clients")
    code: str = Field(description="the stable code (app.services.errors.ErrorCode); clients translate by it")
    params: dict[str, Any] = Field(description="what the client needs to say it in its own words")


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# A stored moment as sent: always with its zone.  The database keeps UTC; SQLite hands it back naive, and a
# naive time is not the RFC 3339 date-time the OpenAPI document promises.
UtcDatetime = Annotated[datetime, AfterValidator(_utc)]


# Documented on every operation, so the OpenAPI document says what a 4xx body is (not FastAPI's default).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": ErrorOut, "description": "refused: a coded error (docs/errors.md)"},
}


IDEMPOTENCY_KEY = r"^[\x21-\x7e]+$"  # printable ASCII, no spaces: a key is compared, never shown


class StrictIn(BaseModel):
    """Every request body: unknown fields are refused, and nothing is coerced — ``"1"``, ``true`` and ``1.0``
    are not integers, ``"yes"`` is not a boolean (issue 23).  A 422 ``invalid_input`` names the field."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _iso_text(value: object) -> object:
    if not isinstance(value, str):  # a number is not a moment: no Unix-time coercion
        raise ValueError("a date-time must be an ISO 8601 string with a zone, e.g. 2026-12-03T18:00:00Z")
    return value


# A moment with its zone ("…Z" or "…+08:00"); a naive time (whose zone would be a guess) is refused.
ZonedDatetime = Annotated[AwareDatetime, Field(strict=False), BeforeValidator(_iso_text)]


def _visible(value: str) -> str:
    return visible_text(value)


# Text others read (names, reasons): NFC, with no control, bidi or zero-width character (app.services.text).
VisibleText = Annotated[str, AfterValidator(_visible)]
# An enum member given by its JSON string (strict mode would want the Python member itself).
def _enum_text(value: object) -> object:
    if not isinstance(value, str):
        raise ValueError("must be one of the listed strings")
    return value


class Credentials(StrictIn):
    username: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class RegisterIn(Credentials):
    # InvalidInput is a ValueError: pydantic reports it, and the 422 keeps its code and params.
    @field_validator("username")
    @classmethod
    def _username(cls, value: str) -> str:
        return canonical_username(value)[0]

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        check_password(value)
        return value


class CurrentSeatOut(BaseModel):
    """Where the account sits now (one table per account at a time)."""

    table_id: str
    seat: int
    status: str = Field(description="the table's status: waiting or playing")
    practice: bool


class MeOut(BaseModel):
    id: int
    username: str
    coins: int
    rank_points: int = Field(description="積分: cumulative net settlement points, floored at 0")
    title: str = Field(description="rank title for the 積分 in 繁體, e.g. 白板, 一萬 … 麻將王")
    title_names: dict[str, str] = Field(description="the same title as {zh_hans, zh_hant, en}")
    is_admin: bool = Field(description="role == admin (kept for older clients)")
    role: Role
    frozen: bool = Field(description="a frozen account cannot sit down or register for tournaments")
    language: Language | None = Field(description="the client language chosen for this account; null = not chosen")
    table: CurrentSeatOut | None = Field(default=None, description="GET /api/me only: the table and seat you "
                                         "occupy now; null when you sit nowhere")

    @classmethod
    def of(cls, user: User) -> MeOut:
        title = title_names_for(user.rank_points)
        return cls(
            id=user.id, username=user.username, coins=user.coins, rank_points=user.rank_points,
            title=title.zh_hant, title_names=title.to_json(), is_admin=user.is_admin, role=Role(user.role),
            frozen=user.frozen,
            language=user.language,  # type: ignore[arg-type]  # only LANGUAGES are ever stored (MePatch)
        )


class MePatch(StrictIn):
    """Settings of your own account.  Only the fields sent change."""

    model_config = ConfigDict(extra="forbid")

    language: Language | None = Field(default=None, description="zh-Hans, zh-Hant or en")


class TokenOut(BaseModel):
    access_token: str
    token_type: Literal["bearer"] = "bearer"
    expires_in: int
    user: MeOut


class RoomOut(BaseModel):
    key: str
    name: str = Field(description="繁體, e.g. 初級")
    names: dict[str, str] = Field(description="{zh_hans, zh_hant, en}")
    coins_per_point: int
    entry_coins: int


class OptionSpecOut(BaseModel):
    """One row of the engine's option table (engine.options.option_table)."""

    type: Literal["int", "float", "bool", "str", "list"]
    default: Any
    minimum: float | None = Field(default=None, description="numbers (and each list item): the least allowed")
    maximum: float | None = Field(default=None, description="numbers (and each list item): the most allowed")
    choices: list[Any] | None = Field(default=None, description="when set, the only values allowed")
    length: int | None = Field(default=None, description="list options: how many integers")
    doc: str = ""

    @classmethod
    def of(cls, spec: Option) -> OptionSpecOut:
        return cls(type=spec.type_name, default=spec.default, minimum=spec.low, maximum=spec.high,  # type: ignore[arg-type]
                   choices=list(spec.choices) if spec.choices else None, length=spec.length or None, doc=spec.doc)


class ScoringItemOut(BaseModel):
    """One scoring item of a variant for the rules page: its names, unit and default value (the room option
    of the same key may change the value)."""

    key: str
    names: dict[str, str] = Field(description='{"zh_hans", "zh_hant", "en"}')
    unit: str = Field(description='"tai" (台) or "hu" (胡)')
    value: int | float | list[int] = Field(description="台 / 胡; a list where the value depends on a count")


class VariantOut(BaseModel):
    key: str
    name: str
    seats: int
    options: dict[str, OptionSpecOut]
    items: list[ScoringItemOut] = Field(default_factory=list, description="every scoring item, in rule order")


EnumText = BeforeValidator(_enum_text)


class TableCreateIn(StrictIn):
    variant: Annotated[VariantKey, Field(strict=False), EnumText]
    options: dict[str, Any] = Field(default_factory=dict)


class PracticeCreateIn(TableCreateIn):
    """A practice table: the variant and options of any table, plus how its bots play and whether to hint."""

    bot_level: BotLevel = Field(default=DEFAULT_BOT_LEVEL, description="server bots: easy, normal or strong")
    suggest_discard: bool = Field(default=True, description="turn prompts carry the normal bot's discard")
    bot_speed: BotSpeed = Field(default=DEFAULT_BOT_SPEED, description="how fast the bots answer "
                                "(app.tables.settings.BOT_SPEEDS)")
    hands: int | None = Field(default=None, ge=1, le=PRACTICE_HANDS_MAX, description="a short game: it ends "
                              "after this many hands (or its 圈, whichever comes first); null plays the 圈")


class SitIn(StrictIn):
    seat: int | None = Field(default=None, description="a seat index; omitted = the first free seat")


class SeatOut(BaseModel):
    seat: int
    user_id: int | None
    username: str | None
    bot: bool


class TableOut(BaseModel):
    id: str
    room: str | None
    variant: str
    options: dict[str, Any]
    seats: list[SeatOut]
    status: str
    practice: bool
    bot_level: str | None = Field(default=None, description="practice tables: easy, normal or strong")
    suggest_discard: bool = False
    bot_speed: str | None = Field(default=None, description="practice tables: normal or fast")
    creator_id: int | None = Field(default=None, description="who opened the table: they may seat bots "
                                   "(POST /api/tables/{id}/bots); bots hold no coins")
    version: int


class StandOut(BaseModel):
    table: TableOut | None = Field(description="null when the table closed because nobody is left")


class AdjustmentIn(StrictIn):
    asset: Literal["coins", "rank_points"]
    # strict: a JSON integer only; "100", true and 1000.0 are refused (issue 9 item 6).
    delta: int = Field(
        strict=True, ge=-ADJUSTMENT_MAX, le=ADJUSTMENT_MAX,
        description=f"a JSON integer, signed, never 0, at most {ADJUSTMENT_MAX:,} either way",
    )
    reason: VisibleText = Field(min_length=1, max_length=500)
    idempotency_key: str | None = Field(default=None, max_length=100, pattern=IDEMPOTENCY_KEY,
                                        description="retry-safe if given: printable ASCII")


class HouseAdjustmentIn(StrictIn):
    """Fund (positive) or drain (negative) the house account that pays tournament guarantees."""

    delta: int = Field(ge=-ADJUSTMENT_MAX, le=ADJUSTMENT_MAX,
                       description=f"coins: a JSON integer, signed, never 0, at most {ADJUSTMENT_MAX:,} either way")
    reason: VisibleText = Field(min_length=1, max_length=500)
    idempotency_key: str | None = Field(default=None, max_length=100, pattern=IDEMPOTENCY_KEY,
                                        description="retry-safe if given: printable ASCII")


class LedgerEntryOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    asset: str
    delta: int
    balance_after: int
    reason: str
    idempotency_key: str
    hand_id: int | None
    actor_id: int | None
    note: str | None
    created_at: UtcDatetime


class AdminUserOut(MeOut):
    created_at: UtcDatetime

    @classmethod
    def of(cls, user: User) -> AdminUserOut:
        return cls(**MeOut.of(user).model_dump(), created_at=user.created_at)


class DeviceOut(BaseModel):
    """A login's browser and operating system (登入裝置), each null when its User-Agent does not say."""

    browser: str | None = Field(description="e.g. Chrome, Safari, Firefox, Edge")
    os: str | None = Field(description="e.g. Android, iOS, Windows, Mac OS X, Linux")


class SessionOut(BaseModel):
    """One of your live login sessions (登入), as ``GET /api/me/sessions`` lists them."""

    model_config = ConfigDict(from_attributes=True)

    id: str = Field(description="the session's public id (not its token): DELETE /api/me/sessions/{id} ends it")
    created_at: datetime
    last_seen_at: datetime = Field(description="last use, to the minute")
    expires_at: datetime = Field(description="the absolute end; it also ends after SESSION_IDLE_SECONDS unused")
    user_agent: str = Field(description="the browser or client that logged in (its User-Agent, shortened)")
    address: str = Field(description="the address it logged in from")
    current: bool = Field(default=False, description="the session making this request")
    device: DeviceOut | None = Field(default=None, description="the browser and system read from user_agent "
                                     "(app.services.devices), for \"Chrome on Android\"")


class TicketOut(BaseModel):
    """A single-use WebSocket ticket: open ``/ws/...?ticket=`` with it within ``expires_in`` seconds."""

    ticket: str
    expires_in: float
    node: str | None = Field(default=None, description="with `?table=`: the name of the server process that "
                             "owns the table (Settings.node_name); add `node=` to the socket's URL so the "
                             "proxy routes it to that process.  Null: any process will do (one process, "
                             "unnamed processes, or the owner is not known yet)")


class PasswordChangeIn(StrictIn):
    current_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)
