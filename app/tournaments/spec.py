"""What an operator asks for when creating a tournament (比賽), and the checks it must pass.

Every limit is declared once in ``LIMITS`` / ``NAME_MAX``: ``validate`` enforces them, the request schema
(``app.schemas_tournaments``) bounds its fields with them and ``docs/tournaments.md`` is written from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from app.game.rooms import RoomKey
from app.game.variants import VARIANT_INFO, TableOptionError, VariantKey, validate_options
from app.services.errors import InvalidInput
from app.services.text import visible_text

# Every limit of a tournament, declared once (docs/tournaments.md is written from these).
LIMITS = {
    "player_limit": (2, 256),
    "rounds": (1, 10),
    "hands_per_round": (1, 64),
    "entry_fee": (0, 10**9),
    "guarantee": (0, 10**10),
    "places_paid": (1, 32),
}
NAME_MAX = 60


class TournamentState(StrEnum):
    SCHEDULED = "scheduled"
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN = (TournamentState.SCHEDULED, TournamentState.REGISTERING)

# What an operator may do to a tournament in each state, declared once: the service refuses anything else
# with a coded 409 (``tournament_wrong_state``), the API lists these as ``actions`` and the console and the
# command line offer only them.
OPERATOR_ACTIONS: dict[TournamentState, tuple[str, ...]] = {
    TournamentState.SCHEDULED: ("cancel",),
    TournamentState.REGISTERING: ("start", "cancel"),
    TournamentState.RUNNING: ("cancel",),
    TournamentState.FINISHED: (),
    TournamentState.CANCELLED: (),
}


def operator_actions(state: str) -> list[str]:
    """The operator's possible acts on a tournament in ``state`` (``OPERATOR_ACTIONS``)."""
    return list(OPERATOR_ACTIONS[TournamentState(state)])


@dataclass(frozen=True)
class TournamentSpec:
    """What an operator sets when creating a tournament (docs/rules/rooms.md#tournaments)."""

    name: str
    room: RoomKey
    variant: VariantKey
    starts_at: datetime
    entry_fee: int
    player_limit: int
    rounds: int
    prize_split: list[int]
    options: dict[str, Any]
    hands_per_round: int | None = None  # None: each round is a whole game of options["rounds"] 圈
    guarantee: int = 0
    opens_at: datetime | None = None  # None: registration opens at once

    def __post_init__(self) -> None:
        # Plain strings from the command line become the enums (ValueError → the CLI's message).
        object.__setattr__(self, "room", RoomKey(self.room))
        object.__setattr__(self, "variant", VariantKey(self.variant))


def _check_range(name: str, value: int) -> None:
    low, high = LIMITS[name]
    if type(value) is not int or not low <= value <= high:
        raise InvalidInput(f"{name} must be an integer from {low} to {high}", field=name, reason="range",
                           minimum=low, maximum=high)


def _check_times(spec: TournamentSpec, now: datetime) -> None:
    """Times carry their zone; play starts in the future; registration opens before play starts."""
    for field in ("starts_at", "opens_at"):
        moment = getattr(spec, field)
        if moment is not None and moment.utcoffset() is None:
            raise InvalidInput(f"{field} needs a zone (e.g. ...Z or ...+08:00)", field=field, reason="naive")
    if spec.starts_at <= now:
        raise InvalidInput("starts_at is in the past", field="starts_at", reason="past")
    if spec.opens_at is not None and spec.opens_at > spec.starts_at:
        raise InvalidInput("opens_at is after starts_at", field="opens_at", reason="after_start")


def validate(spec: TournamentSpec, now: datetime | None = None) -> dict[str, Any]:
    """Check a spec; returns the full table options.  Raises InvalidInput naming the field."""
    name = visible_text(spec.name, "name")
    if not name.strip() or len(name) > NAME_MAX:
        raise InvalidInput(f"name must be 1-{NAME_MAX} characters", field="name", reason="length")
    _check_times(spec, now or datetime.now(UTC))
    for field in ("player_limit", "rounds", "entry_fee", "guarantee"):
        _check_range(field, getattr(spec, field))
    if spec.hands_per_round is not None:
        _check_range("hands_per_round", spec.hands_per_round)
    seats = VARIANT_INFO[spec.variant].seats
    if spec.player_limit % seats:
        # Refused at creation: a full field must fill whole tables (house bots cover only a short field).
        raise InvalidInput(f"player_limit must be a multiple of the table size {seats}", field="player_limit",
                           reason="multiple", multiple_of=seats)
    _check_range("places_paid", len(spec.prize_split))
    if len(spec.prize_split) > spec.player_limit or sum(spec.prize_split) != 100 or any(
            type(p) is not int or p <= 0 for p in spec.prize_split):
        raise InvalidInput("prize_split must be positive whole percentages summing to 100, at most one per "
                           "player", field="prize_split", reason="split")
    if any(lower > higher for higher, lower in zip(spec.prize_split, spec.prize_split[1:], strict=False)):
        raise InvalidInput("prize_split pays a place more than the one above it", field="prize_split",
                           reason="increasing")
    try:
        return validate_options(spec.variant, spec.options)
    except TableOptionError as exc:
        raise InvalidInput(str(exc), field="options", reason="option") from None
