"""The table WebSocket protocol's messages, defined once: every message either side may send.

``docs/protocol.md`` and ``docs/protocol.schema.json`` are generated from these models
(``python -m app.docgen``, ``app.docgen.protocol``); a test fails when they are stale.

Every server message carries ``v``, the table's event number: it grows by one with every ``event`` the
table sends (all seats see every event number, each with only what that seat may see) and never goes
back, across hands.  An ``action`` must quote the ``v`` of the prompt it answers; anything else is stale.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.services.errors import WS_ERROR_CODES

# --- client → server ------------------------------------------------------------------------------


class _ClientMessage(BaseModel):
    # Unknown fields refused and nothing coerced: "30", 30.0 and true are not a v or a seat (issue 23).
    model_config = ConfigDict(extra="forbid", strict=True)


# Tiles exactly as prompts write them (mpsz notation, nothing around them): "5m", "7z", "2f"; a chow's
# "3m4m5m" (or the compact "345m").
TILE_PATTERN = r"^(?:[1-9][mps]|[1-7]z|[1-8]f)$"
CHOW_PATTERN = r"^(?:(?:[1-9][mps]){3}|[1-9]{3}[mps])$"


class ActionIn(_ClientMessage):
    """One of the actions of the open prompt, as the prompt listed it (the seat is the socket's)."""

    kind: Literal["discard", "win", "pass", "chow", "pong", "kong", "kill_pig"]
    seat: int | None = Field(default=None, description="optional; must be your own seat if given")
    tile: str | None = Field(default=None, pattern=TILE_PATTERN,
                             description="the discarded or konged tile, e.g. '5m'")
    tiles: str | None = Field(default=None, pattern=CHOW_PATTERN, description="a chow's three tiles, e.g. '3m4m5m'")
    declare: Literal["ready", "eye", "miji"] | None = Field(default=None, description="with a discard")


class ActionMessage(_ClientMessage):
    """Answer the open prompt.  ``v`` must be the prompt's ``v``."""

    type: Literal["action"]
    v: int
    action: ActionIn


class PingMessage(_ClientMessage):
    """Liveness and clock check; answered with ``pong``."""

    type: Literal["ping"]
    t: float | None = Field(default=None, description="any number; echoed back")


class ResyncMessage(_ClientMessage):
    """Ask for a fresh ``snapshot`` (e.g. after a gap in ``v``)."""

    type: Literal["resync"]


class BackMessage(_ClientMessage):
    """"I'm back": leave 托管 (auto-play).  Any accepted action does the same."""

    type: Literal["back"]


class AutoPlayMessage(_ClientMessage):
    """Switch 托管 (auto-play) on by hand: the server plays your seat until you say ``back`` or act."""

    type: Literal["auto_play"]


ClientMessage = Annotated[
    ActionMessage | PingMessage | ResyncMessage | BackMessage | AutoPlayMessage, Field(discriminator="type")
]
client_message = TypeAdapter(ClientMessage)

# --- server → client ------------------------------------------------------------------------------


class _ServerMessage(BaseModel):
    v: int = Field(description="the table's event number (the last event sent)")


class ActionOut(BaseModel):
    """An action as the engine writes it (``Action.to_json``); send it back as ``action``."""

    kind: str
    seat: int
    tile: str | None = None
    tiles: str | None = None
    declare: str | None = None


class WaitOut(BaseModel):
    """A winning tile (聽的牌) of a ready hand."""

    tile: str
    unseen: int = Field(description="copies you have not seen: in no place you can see (your hand, melds, "
                        "rivers, flowers, 財神 indicators); they may be in the wall or in other hands")


class DiscardWaitsOut(BaseModel):
    """What discarding ``tile`` would leave: a ready hand waiting on ``waits``."""

    tile: str
    waits: list[WaitOut]


class TurnHintsOut(BaseModel):
    """Hints with a turn prompt, from your own view only (engine/hints.py)."""

    discard_waits: list[DiscardWaitsOut] = Field(
        description="each discard of this prompt that leaves the hand ready, with the waits it leaves; a "
        "discard not listed leaves the hand not ready.  Show them when a tile is selected or hovered")
    suggestion: ActionOut | None = Field(
        default=None, description="practice tables with suggest_discard: what the normal bot would do now")


class PromptMessage(_ServerMessage):
    """You must act: one of ``actions`` before ``deadline_ms``, or the server acts for you (docs/rules/timing.md#timeout).

    Sent only to the seat concerned; claim prompts only to the seats entitled to claim.
    """

    type: Literal["prompt"] = "prompt"
    hand_no: int
    kind: Literal["turn", "claim", "rob", "split"] = Field(
        description="turn: discard/win/kong after a draw or claim; claim: after a discard; rob: 搶槓; "
        "split: 台炮 分牌 tile")
    actions: list[ActionOut]
    deadline_ms: int = Field(description="server Unix time (ms) when the prompt expires")
    expires_in_ms: int = Field(description="time left when this message was sent")
    auto_play: bool = Field(description="you are on 托管: the server will act for you shortly")
    hints: TurnHintsOut | None = Field(default=None, description="turn prompts: waits per discard, and on "
                                       "practice tables the normal bot's suggestion")


class SeatOut(BaseModel):
    seat: int
    username: str | None
    bot: bool
    connected: bool
    auto_play: bool = Field(description="托管: timed out twice in a row, or disconnected")


class TableOut(BaseModel):
    id: str
    variant: str
    practice: bool
    room: str | None
    coins_per_point: int | None = Field(description="null on practice and tournament tables (no coins move)")
    options: dict[str, Any]
    seat: int = Field(description="your seat; -1 for a spectator (an operator watching: public view only)")
    seats: list[SeatOut]
    hand_no: int = Field(description="0 before the first hand")
    hands_played: int
    dealer: int
    round_wind: int
    dealer_streak: int
    first_dealer: int | None = Field(None, description="the game's first dealer, drawn from "
                                     "``first_commitment`` (int(first_commitment, 16) mod the number of seats, "
                                     "docs/rules/common.md#first-dealer); null before the first deal")
    first_commitment: str | None = Field(None, description="the commitment of the game's first hand; null "
                                         "before the first deal")
    game_points: list[int] = Field(description="each seat's net points over this game so far (the plates' "
                                   "running totals)")
    game_coins: list[int] = Field(description="each seat's net coins over this game so far (0 at practice "
                                  "tables)")
    hands_limit: int | None = Field(None, description="the game ends after this many hands (a short practice "
                                    "game, a tournament round); null: it plays its 圈")
    discard_row: int = Field(6, description="牌池: how many discards one row holds before the next row "
                                            "(the variant's custom; 天台 lays rows of 10, seed 000)")


class SnapshotMessage(_ServerMessage):
    """Everything your seat may see now; sent on connect, on reconnect and on ``resync``."""

    type: Literal["snapshot"] = "snapshot"
    table: TableOut
    view: dict[str, Any] | None = Field(description="the hand as your seat sees it (engine seat_view); "
                                        "null before the first hand")
    commitment: str | None = Field(description="the current hand's commitment: "
                                    "sha256((seed + salt).encode()).hexdigest() of the hex strings")
    prompt: PromptMessage | None = Field(description="your open prompt, with the time left")
    server_ms: int


class EventMessage(_ServerMessage):
    """One table event as your seat may see it: an engine event (deal, draw, flower, discard, chow, pong,
    kong, kong_attempt, reveal, split_deal, hand_end) or a table event (hand_start, presence, auto_play,
    hand_void)."""

    type: Literal["event"] = "event"
    hand_no: int
    event: dict[str, Any]


class PaymentOut(BaseModel):
    payer: int
    payee: int
    points: int
    coins: int = Field(description="points × coins per point (what was owed; see forfeited); 0 when a bot "
                       "seat pays or is paid")
    reason: str
    bot: bool = Field(False, description="a bot seat pays or is paid: bots hold no coins, so this payment "
                      "moves no coins and no 積分 (a coin table the creator filled with bots)")


class HandResultMessage(_ServerMessage):
    """The settled hand: scores, payments in points and coins, and the wall's seed revealed.  Sent again after
    every snapshot until the next hand is dealt (a reconnect in the pause may have missed it; the same
    message, so a client that has it already can tell by ``hand_id``)."""

    type: Literal["hand_result"] = "hand_result"
    hand_no: int
    hand_id: int | None = Field(description="GET /api/hands/{hand_id}; null when the hand was voided")
    void: bool = Field(description="the server failed to settle: no coins moved")
    practice: bool = Field(description="the hand moves no coins and no 積分, and is recorded as a practice hand: "
                           "at a practice table, and at a tournament table (its points are tournament points)")
    result: dict[str, Any] = Field(description="winners, win_kind, hands, score (engine public_json)")
    payments: list[PaymentOut]
    coin_deltas: list[int] = Field(description="coins each seat actually gained or lost (sums to 0)")
    forfeited: list[int] = Field(description="coins a payer owed but could not pay")
    coins_after: list[int | None]
    game_points: list[int] = Field(description="each seat's net points over the game after this hand")
    game_coins: list[int] = Field(description="each seat's net coins over the game after this hand")
    seed: str
    salt: str
    commitment: str


class GameOverMessage(_ServerMessage):
    """The game is over; the socket closes after this."""

    type: Literal["game_over"] = "game_over"
    game_id: str = Field(description="the game's record: GET /api/games/{game_id} gives these standings with "
                         "every seat's title before and after, also after a reload or on another device")
    reason: Literal["rounds_complete", "player_left", "server_error", "table_closed"]
    hands_played: int
    points: list[int] = Field(description="net points per seat over the game")
    coins: list[int] = Field(description="net coins per seat over the game")
    stood_up: list[int] = Field(description="seats that fell below the room's entry and stood up")
    places: list[int] = Field(description="each seat's final place, 1 first, by net points; equal points "
                              "share a place (1, 2, 2, 4)")


class ServerRestartingMessage(_ServerMessage):
    """The server is restarting (a deploy): the socket closes with 1001 right after this.  Reconnect after
    about ``pause_seconds``; the hand resumes where it was, with every open prompt's full time again."""

    type: Literal["server_restarting"] = "server_restarting"
    pause_seconds: float = Field(description="the expected pause before the table can be reached again")


class NoticeTextOut(BaseModel):
    """A notice's text in each language of the client."""

    zh_hans: str
    zh_hant: str
    en: str


class NoticeMessage(BaseModel):
    """A notice to every player (公告: maintenance at 03:00, a tournament starting), sent to every lobby and
    table socket when it starts, and again with ``ends_at`` now when an admin ends it early.  Show it as a
    banner in the player's language until ``ends_at``; ``GET /api/notices`` lists those showing now.  Not a
    table event: it carries no ``v``."""

    type: Literal["notice"] = "notice"
    id: int
    text: NoticeTextOut
    starts_at: datetime = Field(description="when it started showing (RFC 3339, UTC)")
    ends_at: datetime = Field(description="when it stops showing; not after now: take the banner down")


# The socket's codes are rows of the one error table (app.services.errors.ErrorCode, docs/errors.md).
ErrorCode = Literal[WS_ERROR_CODES]  # type: ignore[valid-type]


class ErrorMessage(_ServerMessage):
    """Your last message was refused; nothing changed and the table goes on."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    params: dict[str, Any] = Field(default_factory=dict, description="values for a client's own wording of "
                                   "the code (docs/errors.md)")


class HintsMessage(_ServerMessage):
    """Your waits (聽牌) between your turns, sent whenever they change (also to "not ready": empty).

    Not re-sent during your own turn (the turn prompt's ``hints`` cover it): until you discard, the last
    waits are those of the hand you held before the draw or claim.

    Computed from your own view only; ``unseen`` counts fall as copies appear on the table.  Sent only
    after the events that changed them, so it never runs ahead of ``v``.
    """

    type: Literal["hints"] = "hints"
    hand_no: int
    waits: list[WaitOut] = Field(description="your winning tiles while your hand is ready; empty otherwise")


class PongMessage(_ServerMessage):
    type: Literal["pong"] = "pong"
    t: float | None
    server_ms: int


ServerMessage = Annotated[
    SnapshotMessage | EventMessage | PromptMessage | ErrorMessage | HandResultMessage | GameOverMessage
    | PongMessage | HintsMessage | ServerRestartingMessage | NoticeMessage,
    Field(discriminator="type"),
]
server_message = TypeAdapter(ServerMessage)
