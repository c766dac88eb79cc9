"""A variant is data plus a few overridable hooks (規則變體).

The hand flow in ``engine.state`` asks its ``Variant`` every question whose answer differs between
天台, 台炮 and 台灣; nothing else in the engine tests a variant's name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from engine.tiles import FLOWER_BASE, HONOUR_BASE, Tile

if TYPE_CHECKING:
    from engine.seat import SeatState


class PassLock(str, Enum):
    """What passing a claim forbids afterwards (過碰 / 過胡 / 過水)."""

    NONE = "none"
    UNTIL_OWN_DRAW = "until_own_draw"  # 天台 過碰/過胡: discards and robs only; a self-drawn X is fine
    UNTIL_OWN_DISCARD = "until_own_discard"  # 台灣 過水: discards, robs and self-draws


class WallEnd(str, Enum):
    """What happens when a normal draw is due and only the reserve is left."""

    EXHAUSTED = "exhausted"  # 流局
    SPLIT_DEAL = "split_deal"  # 台炮 分牌, then 黄牌


def standard_kinds(suits: str = "mps", honours: bool = True, flowers: bool = True) -> tuple[int, ...]:
    """Every physical tile as its kind: 4 of each suited/honour kind, 1 of each flower."""
    kinds: list[int] = []
    for i, s in enumerate("mps"):
        if s in suits:
            kinds.extend(k for k in range(9 * i, 9 * i + 9) for _ in range(4))
    if honours:
        kinds.extend(k for k in range(HONOUR_BASE, FLOWER_BASE) for _ in range(4))
    if flowers:
        kinds.extend(range(FLOWER_BASE, FLOWER_BASE + 8))
    return tuple(kinds)


class HandFacts(Protocol):
    """What a variant's hooks read of the hand in play (牌局), and nothing more.

    ``engine.board.HandBoard`` (and so ``engine.state.HandState``) is one; declaring it here keeps the variants
    below the hand's flow instead of tied to it in a circle.
    """

    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def seats(self) -> Sequence[SeatState]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def kongs(self) -> int: ...
    @property
    def wildcards(self) -> tuple[Tile, ...]: ...
    @property
    def discards_total(self) -> int: ...
    @property
    def any_claim(self) -> bool: ...

    def first_turn_open(self) -> bool: ...
    def is_dealers_first_discard(self) -> bool: ...


class OptionError(ValueError):
    """A room option the rules refuse (房間設定錯誤), with what a client needs to say why.

    ``problem`` is "unknown", "type", "range" or "inconsistent"; ``params`` names the option and its
    allowed type, range or choices.
    """

    def __init__(self, message: str, problem: str, **params: Any) -> None:
        super().__init__(message)
        self.problem = problem
        self.params = params


@dataclass(frozen=True)
class Option:
    """One room option (房間設定) with its type, default and allowed values (docs/rules/timing.md#room-options).

    ``kind`` is int, float, bool, str or list (``length`` integers, each within ``low``..``high``).
    Numbers must lie within ``low``..``high`` and be finite; ``choices``, when given, list every allowed
    value.  Checking never costs more as a value grows (no ranges are built, no float conversion).
    """

    default: Any
    kind: type
    choices: tuple[Any, ...] = ()
    low: int | float | None = None
    high: int | float | None = None
    doc: str = ""
    length: int = 0  # list options: how many values

    @property
    def type_name(self) -> str:
        return self.kind.__name__

    def bounds(self) -> dict[str, Any]:
        """What a client needs to show the allowed values: choices, or minimum and maximum."""
        if self.choices:
            return {"choices": list(self.choices)}
        return {"minimum": self.low, "maximum": self.high}

    def _wrong(self, key: str, value: Any) -> OptionError:
        what = f"a list of {self.length} integers" if self.kind is list else self.type_name
        return OptionError(f"option {key!r} must be {what}, got {value!r}"[:200], "type", option=key,
                           type=self.type_name, **({"length": self.length} if self.kind is list else {}))

    def _out_of_range(self, key: str, value: Any) -> OptionError:
        allowed = (f"one of {list(self.choices)}" if self.choices
                   else f"between {self.low} and {self.high}")
        return OptionError(f"option {key!r} must be {allowed}, got {value!r}"[:200], "range", option=key,
                           **self.bounds())

    def _in_range(self, number: int | float) -> bool:
        return ((self.low is None or number >= self.low) and (self.high is None or number <= self.high))

    def check(self, key: str, value: Any) -> Any:
        """``value`` (floats widened from ints, lists as tuples) if allowed; else OptionError."""
        if self.kind is list:
            if not isinstance(value, list | tuple) or len(value) != self.length or not all(
                    isinstance(x, int) and not isinstance(x, bool) for x in value):
                raise self._wrong(key, value)
            if not all(self._in_range(x) for x in value):
                raise self._out_of_range(key, value)
            return tuple(value)
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value) if -(2**53) <= value <= 2**53 else math.inf
        if not isinstance(value, self.kind) or (self.kind is not bool and isinstance(value, bool)):
            raise self._wrong(key, value)
        if isinstance(value, float) and not math.isfinite(value):
            raise self._out_of_range(key, value)
        if self.choices and value not in self.choices:
            raise self._out_of_range(key, value)
        if isinstance(value, int | float) and not self._in_range(value):
            raise self._out_of_range(key, value)
        return value


COMMON_OPTIONS: dict[str, Option] = {
    "rounds": Option(4, int, low=1, high=4, doc="圈 per game"),
    "discard_seconds": Option(30.0, float, low=1, high=600, doc="seconds to discard after a draw or claim"),
    "claim_seconds": Option(10.0, float, low=0.5, high=120, doc="claim window after a discard, seconds"),
}


@dataclass(frozen=True)
class Variant:
    """The data of a rule set; subclasses override hooks where the rules differ."""

    name: str
    chinese: str
    n_seats: int
    hand_size: int  # tiles dealt to a non-dealer; the dealer gets one more
    kinds: tuple[int, ...]  # every physical tile, as kinds
    reserve_tiles: int  # R: tiles never drawn normally (docs/rules/common.md#wall)
    has_chow: bool
    multiple_winners: bool  # 一炮多響 on a discard (robs are always first-counterclockwise)
    dice_count: int
    pass_pong_lock: bool
    pass_win_lock: PassLock
    last_discard_win_only: bool  # the discard after the 海底 draw may only be won on
    kong_chain_through_bonus: bool = False  # a win on a flower replacement that followed a kong is 槓上開花
    wall_end: WallEnd = WallEnd.EXHAUSTED
    akong_revealed: bool = False  # 天台 turns one tile of an 暗槓 face up (docs/rules/tiantai.md#own-turn)
    options: Mapping[str, Option] = field(default_factory=dict)

    # -- options ---------------------------------------------------------------------------------

    def all_options(self) -> dict[str, Option]:
        return {**COMMON_OPTIONS, **self.options}

    def resolve_options(self, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults merged with the room's overrides; play options are type- and range-checked.

        Keys the play rules do not know are passed through for the scorer, which checks its own.
        """
        known = self.all_options()
        out = {k: o.default for k, o in known.items()}
        for key, value in (overrides or {}).items():
            out[key] = known[key].check(key, value) if key in known else value
        return out

    # -- hooks -------------------------------------------------------------------------------------

    def wildcard_faces(self, indicators: Sequence[Tile]) -> tuple[Tile, ...]:
        """財神 faces for this hand; none by default."""
        return ()

    def indicator_count(self) -> int:
        """How many tail tiles are turned face up to choose 財神; they are out of play (D-1)."""
        return 0

    def is_bonus(self, tile: Tile, wildcards: tuple[Tile, ...]) -> bool:
        """Bonus tiles are shown and replaced from the tail (花)."""
        return tile >= FLOWER_BASE and tile not in wildcards

    def open_seat(self, dealer: int, dice: Sequence[int]) -> int | None:
        """台灣 隨開門; None where seat winds simply follow the dealer."""
        return None

    def seat_wind(self, seat: int, dealer: int, open_seat: int | None, options: Mapping[str, Any]) -> int:
        """Wind index 0..3 (東南西北) of a seat for this hand."""
        return (seat - dealer) % self.n_seats

    def reserve(self, state: HandFacts, kongs: int | None = None) -> int:
        """Tiles never drawn normally (R, docs/rules/common.md#wall), with ``kongs`` declared (default: as many as now)."""
        return self.reserve_tiles

    def flower_win(self, state: HandFacts) -> tuple[int, str] | None:
        """(winner, kind) when a flower count ends the hand.

        By default only the room option ``eight_flowers`` (花胡: docs/rules/tiantai.md#eight-flowers, docs/rules/taipao.md#eight-flowers, off by default)
        ends it, when one seat holds all eight flowers; 台灣 overrides with 八仙過海 / 七搶一.
        """
        mode = state.options.get("eight_flowers", False)
        if not mode or mode == "off":
            return None
        for seat, s in enumerate(state.seats):
            if sum(1 for t in s.flowers if t >= FLOWER_BASE) == 8:
                return seat, "eight_flowers"
        return None

    def can_declare(self, state: HandFacts, seat: int) -> tuple[str, ...]:
        """Declarations a discard may carry now ("ready", "eye", "miji")."""
        return ()

    def can_kill_pig(self, state: HandFacts, seat: int) -> bool:
        return False

    def first_turn_flags(self, state: HandFacts, winner: int, self_drawn: bool) -> dict[str, bool]:
        """天胡 / 地胡 / 人胡 as this variant defines them (docs/rules/tiantai.md#heavenly-earthly, docs/rules/taipao.md#heavenly-earthly, docs/rules/taiwan.md#heavenly-earthly)."""
        out = {"heavenly": False, "earthly": False, "human": False}
        if self_drawn and winner == state.dealer and state.first_turn_open():
            out["heavenly"] = True
        elif not self_drawn and state.is_dealers_first_discard() and winner != state.dealer:
            out["earthly"] = True
        return out

    def next_dealer(self, dealer: int, dealer_won: bool, drawn: bool, kongs: int,
                    options: Mapping[str, Any]) -> int:
        """Who deals next: the dealer stays after winning, otherwise the 下家 deals."""
        return dealer if dealer_won else (dealer + 1) % self.n_seats
