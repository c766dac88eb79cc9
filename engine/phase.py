"""Where a hand stands (階段), how the current seat came to its turn, and the claim window that may be open."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from engine.actions import Action
from engine.scoring.situation import KongKind
from engine.tiles import Tile


class Phase(str, Enum):
    TURN = "turn"  # the current seat draws/claimed and must act (打牌 / 自摸 / 槓)
    CLAIMS = "claims"  # claim window after a discard (吃碰槓胡)
    ROB = "rob"  # window to rob an added kong (搶槓)
    SPLIT = "split"  # 台炮 分牌: the current seat may only win on its tile
    ENDED = "ended"


class Source(str, Enum):
    """How the current seat came to its turn (decides 自摸 / 槓上開花 / 天胡 …)."""

    DEAL = "deal"
    DRAW = "draw"
    CLAIM = "claim"
    KONG = "kong"
    FLOWER = "flower"


@dataclass(frozen=True, slots=True)
class TurnContext:
    """Immutable, so that the common ones are built once (``DRAWN``, ``DRAWN_LAST``, ``CLAIMED``)."""

    source: Source
    last: bool = False  # the 海底 draw
    kong_kind: KongKind | None = None
    kong_tile: Tile | None = None

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, source: Source, last: bool = False, kong_kind: KongKind | None = None,
                 kong_tile: Tile | None = None) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "last", last)
        object.__setattr__(self, "kong_kind", kong_kind)
        object.__setattr__(self, "kong_tile", kong_tile)


DRAWN: Final = TurnContext(Source.DRAW)
"""A normal draw from the head (摸牌)."""
DRAWN_LAST: Final = TurnContext(Source.DRAW, last=True)
"""The last normal draw (海底)."""
CLAIMED: Final = TurnContext(Source.CLAIM)
"""A turn that began with a claimed discard (吃 / 碰)."""


@dataclass(slots=True)
class ClaimWindow:
    """A claim window (吃碰槓胡 after a discard, 搶槓 after an added kong): ``options[seat]`` are the answers a
    seat may give (always including 過); ``answers`` so far.  ``engine.claims`` opens and resolves it."""

    kind: str  # "discard" or "rob"
    from_seat: int
    tile: Tile
    options: dict[int, list[Action]] = field(default_factory=dict)
    answers: dict[int, Action] = field(default_factory=dict)

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, kind: str, from_seat: int, tile: Tile, options: dict[int, list[Action]] | None = None,
                 answers: dict[int, Action] | None = None) -> None:
        self.kind, self.from_seat, self.tile = kind, from_seat, tile
        self.options = {} if options is None else options
        self.answers = {} if answers is None else answers
