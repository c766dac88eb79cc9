"""The payloads inside ``event`` messages and the ``view`` of a snapshot, declared once.

The engine builds these as plain dicts (``engine.events.Event.for_seat``, ``engine.view.seat_view``); the
models here describe them for clients and docs/protocol.md.  tests/app/ws/test_event_payloads.py plays hands
of every variant and validates every event and view each seat receives against these models, with
unknown fields forbidden, so a field the engine adds or drops fails the suite until it is declared here.

Tiles are strings: ``"5m"`` (萬), ``"5p"`` (筒), ``"5s"`` (條), ``"1z"``-``"7z"`` (東南西北中發白) and
``"1f"``-``"8f"`` (flowers).  Seats are 0-based; winds are 0-3 (東南西北).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Tile = str


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _EngineEvent(_Payload):
    seq: int = Field(description="the event's number within the hand (1, 2, …)")


class DealEvent(_EngineEvent):
    """The deal.  ``tiles`` is your own hand only, and includes the flowers dealt to you: they are replaced
    by the ``flower`` and ``draw`` events that follow."""

    type: Literal["deal"]
    dealer: int
    dice: list[int]
    open_seat: int | None = Field(description="台灣 隨開門: the seat the wall opens at; null elsewhere")
    seat_winds: list[int] = Field(description="each seat's wind this hand (0-3 = 東南西北)")
    wildcards: list[Tile] = Field(description="台炮 財神 faces; empty elsewhere")
    indicators: list[Tile] = Field(description="the tiles turned up to choose the 財神")
    wall: int = Field(description="tiles left to draw")
    tiles: list[Tile] | None = Field(default=None, description="your dealt tiles (flowers included); absent "
                                     "for other seats")


class DrawEvent(_EngineEvent):
    """A draw.  Another seat's draw carries no ``tile`` (unless your 眼牌 / Miji reveals their hand)."""

    type: Literal["draw"]
    seat: int
    tail: bool = Field(description="drawn from the back of the wall: a flower or kong replacement")
    wall: int = Field(description="tiles left to draw")
    tile: Tile | None = Field(default=None, description="only for the drawer (and a revealing declarer)")


class FlowerEvent(_EngineEvent):
    """A flower (or other bonus tile) laid aside; a tail ``draw`` replaces it."""

    type: Literal["flower"]
    seat: int
    tile: Tile
    wall: int


class DiscardEvent(_EngineEvent):
    type: Literal["discard"]
    seat: int
    tile: Tile
    declare: Literal["ready", "eye", "miji"] | None = Field(default=None, description="台炮 聽, 台灣 眼牌 or "
                                                             "Miji, declared with this discard")


class RevealEvent(_EngineEvent):
    """After a 眼牌 or Miji declaration: the other hands, sent to the declarer only (others see the seat)."""

    type: Literal["reveal"]
    seat: int = Field(description="the declarer")
    hands: dict[str, list[Tile]] | None = Field(default=None, description="declarer only: every other "
                                                "seat's concealed tiles, keyed by the seat as a string")


class MeldEvent(_EngineEvent):
    """A chow, pong or 明槓 claimed on a discard: ``tiles`` is the whole meld, ``tile`` the claimed
    discard and ``from`` the discarder."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    type: Literal["chow", "pong", "kong"]
    seat: int
    from_: int = Field(alias="from", description="the seat that discarded the claimed tile")
    tile: Tile
    tiles: list[Tile]


class OwnKongEvent(_EngineEvent):
    """A kong from your own tiles: ``akong`` (暗槓, its tile hidden from others except in 天台, which shows
    it) or ``added`` (加槓 onto your pong)."""

    type: Literal["kong"]
    seat: int
    kind: Literal["akong", "added"]
    tile: Tile | None = Field(description="null for others' 暗槓 where the variant hides it")


class KongAttemptEvent(_EngineEvent):
    """A 加槓 others may rob (搶槓) before it completes."""

    type: Literal["kong_attempt"]
    seat: int
    tile: Tile


class SplitDealEvent(_EngineEvent):
    """台炮 分牌: the wall's reserve is dealt out, one tile each, starting with ``from``."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    type: Literal["split_deal"]
    from_: int = Field(alias="from")
    wall: int


class HandEndEvent(_EngineEvent):
    """The hand is over: every hand shown (``hands`` per seat), the score and the payments in points."""

    type: Literal["hand_end"]
    winners: list[int]
    win_kind: str | None = Field(description="e.g. self_draw, discard, rob_kong; null for a drawn hand")
    winning_tile: Tile | None
    discarder: int | None
    hands: list[list[Tile]] = Field(description="each seat's concealed tiles")
    score: dict[str, Any] = Field(description="the scorer's result: items per seat, totals and payments "
                                  "(docs/scoring.md)")


class HandStartEvent(_Payload):
    """Table event: a hand is dealt next; ``commitment`` fixes its wall before the deal."""

    type: Literal["hand_start"]
    hand_no: int
    dealer: int
    round_wind: int
    dealer_streak: int
    commitment: str
    first_dealer: int = Field(description="the game's first dealer, drawn from ``first_commitment``: "
                              "int(first_commitment, 16) mod the number of seats (docs/rules/common.md#first-dealer)")
    first_commitment: str | None = Field(description="the commitment of the game's first hand (this one's, in "
                                         "hand 1); null only in a game begun before the draw existed")


class PresenceEvent(_Payload):
    type: Literal["presence"]
    seat: int
    connected: bool
    auto_play: bool = Field(description="托管 now: an absent seat is auto-played; one that is back is not, "
                                        "unless it timed out twice")


class AutoPlayEvent(_Payload):
    type: Literal["auto_play"]
    seat: int
    on: bool
    reason: str = Field(description="timeouts, back, …")


class HandVoidEvent(_Payload):
    """The server broke the hand: no coins move, the seed is revealed and the next hand is dealt."""

    type: Literal["hand_void"]
    hand_no: int
    seed: str
    salt: str
    reason: str


ENGINE_EVENTS: list[type[BaseModel]] = [DealEvent, DrawEvent, FlowerEvent, DiscardEvent, RevealEvent, MeldEvent, OwnKongEvent,
                                         KongAttemptEvent, SplitDealEvent, HandEndEvent]
TABLE_EVENTS: list[type[BaseModel]] = [HandStartEvent, PresenceEvent, AutoPlayEvent, HandVoidEvent]
# ``kong`` has two shapes (claimed / own): tried in order, without a discriminator.
EventPayload = Annotated[
    DealEvent | DrawEvent | FlowerEvent | DiscardEvent | RevealEvent | MeldEvent | OwnKongEvent
    | KongAttemptEvent | SplitDealEvent | HandEndEvent | HandStartEvent | PresenceEvent | AutoPlayEvent
    | HandVoidEvent,
    Field(union_mode="left_to_right"),
]
event_payload = TypeAdapter(EventPayload)


# --- the snapshot's view (engine.view.seat_view) -------------------------------------------------


class MeldView(_Payload):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    kind: Literal["chow", "pong", "kong", "akong"]
    added: bool = Field(description="a 加槓 (a kong added onto a pong)")
    tiles: list[Tile | None] = Field(description="the meld; four nulls for another seat's hidden 暗槓")
    claimed: Tile | None = Field(default=None, description="the discard claimed into it (absent for own melds)")
    from_: int | None = Field(default=None, alias="from", description="who discarded it (with ``claimed``)")


class PlayerView(_Payload):
    seat: int
    wind: int
    concealed_count: int
    concealed: list[Tile] | None = Field(description="yours; others' only once the hand is over or when "
                                         "your 眼牌 / Miji reveals them")
    melds: list[MeldView]
    flowers: list[Tile]
    river: list[Tile] = Field(description="discards still lying in front of the seat (claimed ones removed)")
    declaration: Literal["ready", "eye", "miji"] | None
    drawn: Tile | None = Field(default=None, description="your seat only: the tile you just drew, if it is "
                               "your turn")


class LastDiscardView(_Payload):
    seat: int
    tile: Tile


class HandView(_Payload):
    """``snapshot.view``: the hand as your seat may see it."""

    variant: str
    seat: int | None
    n_seats: int
    dealer: int
    dealer_streak: int
    round_wind: int
    dice: list[int]
    open_seat: int | None
    wildcards: list[Tile]
    indicators: list[Tile]
    wall_remaining: int
    reserve: int = Field(description="tiles at the end of the wall that are never drawn normally")
    phase: str
    current: int | None = Field(description="the seat whose turn it is")
    awaiting: list[int] = Field(description="[your seat] when the hand waits on you, else []")
    last_discard: LastDiscardView | None
    players: list[PlayerView]
    actions: list[dict[str, Any]] = Field(description="your legal actions now (as in a prompt)")
    result: dict[str, Any] | None = Field(default=None, description="once the hand is over: as hand_end")


VIEW_PARTS: list[type[BaseModel]] = [HandView, PlayerView, MeldView, LastDiscardView]
