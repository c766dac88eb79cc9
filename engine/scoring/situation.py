"""What a scorer needs to know about a finished hand (計分情境).

The game builds one ``Situation`` at the end of every hand; ``python -m engine score`` reads the same
thing from JSON.  It is deliberately flat and explicit: everything that changes a score is a field here,
and nothing here needs the wall or the event log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from engine.melds import Meld
from engine.tiles import Tile


class WinKind(str, Enum):
    """How the hand was won (胡牌方式)."""

    DISCARD = "discard"  # 放銃胡 / 點炮: on another player's discard
    SELF_DRAW = "self_draw"  # 自摸 on a normal draw from the head of the wall
    KONG_REPLACEMENT = "kong_replacement"  # 槓上開花: on the tail replacement after a kong
    FLOWER_REPLACEMENT = "flower_replacement"  # on the tail replacement after a flower (or 台炮 白板)
    ROB_KONG = "rob_kong"  # 搶槓: on the tile another player added to a pong
    SPLIT_DEAL = "split_deal"  # 台炮 分牌: on a tile drawn in the 分牌 phase
    KILL_PIG = "kill_pig"  # 台炮 plain 杀猪 declared on the player's own turn, any shape
    EIGHT_FLOWERS = "eight_flowers"  # 台灣 八仙過海: one player holds all 8 flowers
    SEVEN_ROB_ONE = "seven_rob_one"  # 台灣 七搶一: flowers split 7–1, the 7-holder wins


class KongKind(str, Enum):
    """Which kong gave the replacement tile of a 槓上開花."""

    EXPOSED = "kong"  # 明槓 on a discard
    ADDED = "added"  # 加槓 / 補槓 onto an own pong
    CONCEALED = "akong"  # 暗槓


class Declaration(str, Enum):
    """台灣 眼牌 / Miji declarations."""

    EYE = "eye"  # 眼牌
    MIJI = "miji"  # MIGI 咪幾


SELF_DRAWN_KINDS: Final = frozenset(
    {WinKind.SELF_DRAW, WinKind.KONG_REPLACEMENT, WinKind.FLOWER_REPLACEMENT}
)
FED_KINDS = frozenset({WinKind.DISCARD, WinKind.ROB_KONG})  # won on another player's tile (discard or rob)


@dataclass(frozen=True)
class SeatHand:
    """One seat at the end of the hand.

    ``concealed`` are the tiles in hand; for a winner it **includes the winning tile** (also on a discard
    or a rob).  ``flowers`` are the bonus tiles collected (花, and 台炮's 白板 when 白 is not 財神).
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    declaration: Declaration | None = None


@dataclass(frozen=True)
class Situation:
    """A finished hand, as the scorer sees it.

    * ``winners`` is empty for a drawn hand (流局 / 黄牌): nobody pays.
    * ``discarder`` is the seat that fed the win: the discarder for ``DISCARD``, the konger for
      ``ROB_KONG``; None otherwise.
    * ``round_wind`` is 0..3 (東 南 西 北 圈); seat winds are derived from ``dealer`` (天台, 台炮) or
      from ``open_seat`` (台灣 隨開門).
    * ``wildcards`` are the 財神 faces (台炮); one face when both revealed tiles match.
    * ``last_tile`` marks a win on the 海底 draw (海底撈月 when self-drawn).
    * ``heavenly`` / ``earthly`` / ``human`` are the variant's 天胡 / 地胡 / 人胡 conditions, decided by
      the game under the variant's own definition.
    * ``options`` are the room's overrides of the scorer's values (docs/rules/timing.md#room-options).
    """

    variant: str
    seats: tuple[SeatHand, ...]
    dealer: int
    winners: tuple[int, ...] = ()
    winning_tile: Tile | None = None
    win_kind: WinKind | None = None
    discarder: int | None = None
    kong_kind: KongKind | None = None
    kong_tile: Tile | None = None
    dealer_streak: int = 0
    round_wind: int = 0
    open_seat: int | None = None
    wildcards: tuple[Tile, ...] = ()
    last_tile: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    @property
    def is_draw(self) -> bool:
        return not self.winners
