"""Player actions and the typed refusal of an illegal one (動作)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from engine.tiles import TILES, Tile, parse_tiles


class ActionKind(str, Enum):
    DISCARD = "discard"  # 打牌 (optionally declaring 聽 / 眼牌 / Miji)
    WIN = "win"  # 胡: 自摸, on a discard, robbing a kong, or on a 分牌 tile
    PASS = "pass"  # 過
    CHOW = "chow"  # 吃 (only from the 上家)
    PONG = "pong"  # 碰
    KONG = "kong"  # 槓: 明槓 on a discard, 暗槓 or 加槓 on the own turn
    KILL_PIG = "kill_pig"  # 台炮 杀猪: win on a qualifying 財神 holding, any shape


class Declare(str, Enum):
    """What a discard may declare."""

    READY = "ready"  # 台炮 聽: hand lock, auto-discards
    EYE = "eye"  # 台灣 眼牌
    MIJI = "miji"  # 台灣 Miji (眼牌 inside the first 8 discards)


@dataclass(frozen=True, slots=True)
class Action:
    """One action of one seat.  ``tile`` is the discarded or konged tile; ``tiles`` a chow's three tiles."""

    kind: ActionKind
    seat: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    declare: Declare | None = None

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, kind: ActionKind, seat: int, tile: Tile | None = None, tiles: tuple[Tile, ...] = (),
                 declare: Declare | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "declare", declare)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = str(self.tile)
        if self.tiles:
            out["tiles"] = "".join(str(t) for t in self.tiles)
        if self.declare is not None:
            out["declare"] = self.declare.value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        """Parse the JSON form; raises ValueError with a clear message on bad input."""
        try:
            kind = ActionKind(data["kind"])
            seat = int(data["seat"])
        except (KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"bad action: {exc}") from None
        tile = None
        if data.get("tile") is not None:
            found = parse_tiles(str(data["tile"]))
            if len(found) != 1:
                raise ValueError("action 'tile' must be exactly one tile")
            tile = TILES[found[0]]
        tiles = tuple(TILES[t] for t in parse_tiles(str(data.get("tiles") or "")))
        declare = Declare(data["declare"]) if data.get("declare") else None
        return cls(kind, seat, tile, tiles, declare)

    def __str__(self) -> str:
        parts = [f"{self.seat}:{self.kind.value}"]
        if self.tile is not None:
            parts.append(str(self.tile))
        if self.tiles:
            parts.append("".join(str(t) for t in self.tiles))
        if self.declare is not None:
            parts.append(f"+{self.declare.value}")
        return " ".join(parts)


_INTERNED: Final[dict[tuple[ActionKind, int, Tile | None, tuple[Tile, ...], Declare | None], Action]] = {}


def act(kind: ActionKind, seat: int, tile: Tile | None = None, tiles: tuple[Tile, ...] = (),
        declare: Declare | None = None) -> Action:
    """An interned ``Action``: legal-action lists are rebuilt every turn, and building frozen
    dataclasses dominated that; the set of distinct actions is small (kinds × seats × tiles)."""
    key = (kind, seat, tile, tiles, declare)
    found = _INTERNED.get(key)
    if found is None:
        found = _INTERNED[key] = Action(kind, seat, tile, tiles, declare)
    return found


class Refusal(str, Enum):
    """Why an action was refused."""

    HAND_OVER = "hand_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_LEGAL = "not_legal"
    ALREADY_ANSWERED = "already_answered"
    BAD_SEAT = "bad_seat"


class IllegalAction(Exception):
    """An action the state does not allow; the state is unchanged."""

    def __init__(self, reason: Refusal, action: Action, detail: str = "") -> None:
        super().__init__(f"{reason.value}: {action}" + (f" ({detail})" if detail else ""))
        self.reason = reason
        self.action = action
        self.detail = detail
