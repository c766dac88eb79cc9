"""Errors a player or admin can cause, and the one table of their stable codes (錯誤代碼).

Every refusal the server sends carries a ``code`` from ``ErrorCode``: REST bodies are
``{"detail": <English>, "code": <code>, "params": {...}}`` and table-socket ``error`` messages carry
``code`` too.  Clients translate by code and fill the message from ``params``; ``detail`` stays English
for old clients and logs.  ``docs/errors.md`` is generated from this table (``python -m app.docs``).

Programming errors by callers inside the server (a bad seat index from a table actor) stay plain
ValueError/TypeError: they are bugs, not requests to refuse.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, cast

HTTP, WS = "http", "ws"


class ErrorCode(StrEnum):
    """A stable machine code: ``value``, the HTTP ``status`` (None: socket only), where it is used
    (``channels``), the ``params`` it carries and a one-line English ``doc``."""

    status: int | None
    channels: tuple[str, ...]
    params: tuple[str, ...]
    doc: str

    def __new__(cls, value: str, status: int | None, doc: str, params: tuple[str, ...] = (),
                channels: tuple[str, ...] = (HTTP,)) -> ErrorCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status, member.doc, member.params, member.channels = status, doc, params, channels
        return member

    @classmethod
    def parse(cls, value: str) -> ErrorCode:
        """The code sent as ``value``; ValueError if there is none.  (``ErrorCode(value)`` does the same at run
        time, but type checkers read it as defining a new member.)"""
        member = cls._value2member_map_.get(value)
        if member is None:
            raise ValueError(f"{value!r} is not an error code")
        return cast(ErrorCode, member)

    # -- 401 / 403 ----------------------------------------------------------------------------------
    NOT_AUTHENTICATED = "not_authenticated", 401, (
        "missing, unknown, expired or ended session token (logged out, password changed, frozen, an admin)")
    WRONG_PASSWORD = "wrong_password", 403, "the current password is wrong (changing the password)"
    BAD_CREDENTIALS = "bad_credentials", 401, "incorrect username or password (never says which)"
    FORBIDDEN = "forbidden", 403, "not allowed"
    CSRF_REFUSED = "csrf_refused", 403, (
        "a change authenticated by the session cookie came from another site (Origin / Sec-Fetch-Site) or "
        "without the X-Requested-With header; nothing changed"), ("reason",)
    ADMIN_ONLY = "admin_only", 403, "only admins may do this"
    OPERATOR_ONLY = "operator_only", 403, "only operators and admins may do this"
    ACCOUNT_FROZEN = "account_frozen", 403, "an admin froze this account: it cannot sit down or register"
    PRACTICE_PRIVATE = "practice_private", 403, "practice tables are private", ("table_id",)
    NOT_TABLE_CREATOR = "not_table_creator", 403, "only the player who opened the table may seat bots", (
        "table_id",)
    SYSTEM_ACCOUNT = "system_account", 403, (
        "the house, the director and the prize pools are not players' accounts: no freeze, log-out, role or "
        "adjustment applies to them; the house moves only through POST /api/admin/house, a pool only through "
        "its tournament"), ("user_id",)
    HAND_PRIVATE = "hand_private", 403, "you may not read this hand's record", ("hand_id",)
    GAME_PRIVATE = "game_private", 403, "only the game's players (and operators and admins) may read it", (
        "game_id",)
    # -- 404 -----------------------------------------------------------------------------------------
    NOT_FOUND = "not_found", 404, "no such resource (e.g. an unknown URL)"
    USER_NOT_FOUND = "user_not_found", 404, "no such account", ("user_id", "username")
    TABLE_NOT_FOUND = "table_not_found", 404, "no such table (it may have closed)", ("table_id",)
    TOURNAMENT_NOT_FOUND = "tournament_not_found", 404, "no such tournament", ("tournament_id",)
    HAND_NOT_FOUND = "hand_not_found", 404, "no such hand record", ("hand_id",)
    GAME_NOT_FOUND = "game_not_found", 404, "no such finished game", ("game_id",)
    SESSION_NOT_FOUND = "session_not_found", 404, "no such live session of yours", ("session_id",)
    PROCESS_NOT_FOUND = "process_not_found", 404, "no such live server process", ("process_id",)
    NOTICE_NOT_FOUND = "notice_not_found", 404, "no such notice", ("notice_id",)
    SCHEDULE_NOT_FOUND = "schedule_not_found", 404, "no such tournament schedule", ("schedule_id",)
    METHOD_NOT_ALLOWED = "method_not_allowed", 405, "this URL does not take that HTTP method"
    # -- 409: the request clashes with the current state -----------------------------------------------
    CONFLICT = "conflict", 409, "the request clashes with the current state"
    USERNAME_TAKEN = "username_taken", 409, "that username is already registered", ("username",)
    ALREADY_SEATED = "already_seated", 409, "you already sit at another table; stand up there first", (
        "table_id", "seat")
    ALREADY_AT_THIS_TABLE = "already_at_this_table", 409, "you already sit at this table", (
        "table_id", "seat")
    IN_QUEUE = "in_queue", 409, "you are waiting in the quick-play queue; leave it first", ("queue",)
    REGISTERED_ELSEWHERE = "registered_elsewhere", 409, (
        "you are registered in a tournament that has not finished; leave it before it starts, or wait for its "
        "end"), ("tournament_id",)
    NOT_SEATED = "not_seated", 409, "you do not sit at this table", ("table_id",)
    TABLE_NOT_WAITING = "table_not_waiting", 409, "this table is not taking players", ("table_id", "status")
    TABLE_FULL = "table_full", 409, "every seat of this table is taken", ("table_id",)
    SEAT_TAKEN = "seat_taken", 409, "that seat is taken", ("table_id", "seat")
    GAME_IN_PROGRESS = "game_in_progress", 409, "the game is being played; you cannot stand up now", (
        "table_id",)
    INSUFFICIENT_COINS = "insufficient_coins", 409, "you have fewer coins than the room's entry", (
        "room", "needed", "have")
    BALANCE_BELOW_ZERO = "balance_below_zero", 409, "the adjustment would make the balance negative", (
        "asset", "balance", "delta")
    OWN_ADMIN_ROLE = "own_admin_role", 409, "an admin cannot take away their own admin role"
    HAND_NOT_REPLAYABLE = "hand_not_replayable", 409, "this hand's record cannot be replayed", ("hand_id",)
    HAND_ALREADY_VOID = "hand_already_void", 409, "this hand was already voided", ("hand_id",)
    VOID_BELOW_ZERO = "void_below_zero", 409, (
        "voiding the hand would take an account's coins below 0; adjust it first"), (
        "hand_id", "user_id", "balance", "delta")
    TABLE_PLAYING = "table_playing", 409, "the table is playing; close it with force only if it is stuck", (
        "table_id",)
    TOURNAMENT_CLOSED = "tournament_closed", 409, "the tournament is not taking (or releasing) players now", (
        "tournament_id", "state")
    TOURNAMENT_WRONG_STATE = "tournament_wrong_state", 409, (
        "the tournament's state does not allow this (e.g. cancelling a finished one); see its actions"), (
        "tournament_id", "state", "action", "allowed")
    TOURNAMENT_PAID = "tournament_paid", 409, (
        "the tournament's prizes are paid: its hands can no longer be voided"), ("tournament_id", "hand_id")
    TOURNAMENT_GAME_PLAYING = "tournament_game_playing", 409, (
        "the hand's tournament table is still playing; void it once its game has ended"), (
        "tournament_id", "hand_id")
    TOURNAMENT_FULL = "tournament_full", 409, "every place of the tournament is taken", ("tournament_id",)
    HOUSE_SHORT = "house_short", 409, "the house account holds less than the guarantee", ("needed", "have")
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused", 409, (
        "this idempotency key was used for a different request")
    # -- 422: bad input --------------------------------------------------------------------------------
    INVALID_INPUT = "invalid_input", 422, "a field is missing, of the wrong type or out of range", (
        "field", "reason", "minimum", "maximum", "choices", "errors")
    INVALID_USERNAME = "invalid_username", 422, (
        "usernames are 3-20 letters, digits, underscores or Chinese characters (2-20 with a Chinese character); "
        "rule names the one broken: too_short, too_long or characters"), ("rule", "minimum", "maximum")
    INVALID_PASSWORD = "invalid_password", 422, "the password is too short or too long", (
        "minimum", "maximum")
    SEAT_OUT_OF_RANGE = "seat_out_of_range", 422, "no such seat at this table", ("seat", "minimum", "maximum")
    UNKNOWN_VARIANT = "unknown_variant", 422, "no such variant", ("variant", "choices")
    UNKNOWN_OPTION = "unknown_option", 422, "this variant has no option of that name", ("variant", "option")
    OPTION_WRONG_TYPE = "option_wrong_type", 422, "a table option has the wrong type", ("option", "type")
    OPTION_OUT_OF_RANGE = "option_out_of_range", 422, "a table option is outside its range or choices", (
        "option", "minimum", "maximum", "choices")
    OPTIONS_INCONSISTENT = "options_inconsistent", 422, "table options that are fine alone clash together", (
        "options",)
    BODY_TOO_LARGE = "body_too_large", 413, "the request body is over the server's limit (docs/settings.md)", (
        "maximum",)
    # -- 429 / 5xx -------------------------------------------------------------------------------------
    RATE_LIMITED = "rate_limited", 429, "too many attempts; wait Retry-After seconds", (
        "retry_after", "scope")
    SERVER_RESTARTING = "server_restarting", 503, (
        "the server is restarting (a deploy): no new tables or seats; try again in a few seconds")
    SERVER_DRAINING = "server_draining", 503, (
        "an operator is draining this server process: it opens no new table; try again (another process takes it)")
    QUEUE_UNAVAILABLE = "queue_unavailable", 503, (
        "the quick-play queue (Redis) cannot be reached: nothing changed; try again in a few seconds")
    SEATING_UNAVAILABLE = "seating_unavailable", 503, (
        "the tables' directory (Redis) cannot be reached to seat you: nothing changed; try again in a few seconds")
    INTERNAL = "internal", 500, "the server failed; nothing changed", (), (HTTP, WS)
    # -- table socket ``error`` messages (app.tables.protocol.messages.ErrorMessage) ---------------------------------
    MALFORMED = "malformed", None, "the message is not valid JSON of a known type", (), (WS,)
    STALE = "stale", None, "the action quotes an old prompt's v", (), (WS,)
    NOT_YOUR_TURN = "not_your_turn", None, "your seat has no open prompt", (), (WS,)
    NOT_LEGAL = "not_legal", None, "that action is not among the prompt's actions", (), (WS,)
    ALREADY_ANSWERED = "already_answered", None, "your seat already answered this prompt", (), (WS,)
    HAND_OVER = "hand_over", None, "the hand is over", (), (WS,)
    BAD_SEAT = "bad_seat", None, "you can act only for your own seat", (), (WS,)
    BUSY = "busy", None, "the table's inbox is full; try again", (), (WS,)
    RESYNC_LIMITED = "resync_limited", None, "too many resyncs; wait a moment", ("retry_after",), (WS,)


WS_ERROR_CODES: tuple[str, ...] = tuple(c.value for c in ErrorCode if WS in c.channels)


class ServiceError(Exception):
    """A refusal with its stable ``code``, the English ``message`` and the ``params`` a client needs
    to say it in its own words.  The HTTP status follows from the code."""

    default_code: ClassVar[ErrorCode] = ErrorCode.CONFLICT

    def __init__(self, message: str, code: ErrorCode | None = None, /, *,
                 headers: dict[str, str] | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.params = params
        self.headers = headers

    @property
    def status(self) -> int:
        return self.code.status or 400

    def body(self) -> dict[str, Any]:
        return {"detail": self.message, "code": self.code.value, "params": self.params}


class NotFound(ServiceError):
    default_code = ErrorCode.NOT_FOUND


class Conflict(ServiceError):
    """The request clashes with the current state (a taken name, a taken seat, too few coins)."""

    default_code = ErrorCode.CONFLICT


class Forbidden(ServiceError):
    default_code = ErrorCode.FORBIDDEN


class InvalidInput(ServiceError, ValueError):
    """Bad input.  Also a ValueError, so a pydantic validator may raise it and keep its code."""

    default_code = ErrorCode.INVALID_INPUT


class Unauthorized(ServiceError):
    default_code = ErrorCode.NOT_AUTHENTICATED


class RateLimited(ServiceError):
    default_code = ErrorCode.RATE_LIMITED


class Unavailable(ServiceError):
    """The server cannot take this now (it is restarting); the same request later will do (503)."""

    default_code = ErrorCode.SERVER_RESTARTING
