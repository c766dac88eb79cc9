"""What a seat or a spectator is shown of the table (快照): the snapshot's table, view and open prompt, built
from the game as it stands (``flow.HandFlow`` is the ``ShownGame``), and the game's state for the crash log.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Protocol

from app.game.rooms import ROOMS
from app.game.variants import VARIANT_INFO
from app.tables.fairness import WallSeed
from app.tables.play.clock import Clock
from app.tables.play.outbox import OpenPrompt, Outbox
from app.tables.play.seats import SeatSlot
from app.tables.protocol.messages import SeatOut, SnapshotMessage, TableOut
from app.tables.table_info import TableInfo
from engine.events import Event
from engine.match import Match
from engine.state import HandState


class ShownGame(Protocol):
    """The game a snapshot reads (read only)."""

    @property
    def info(self) -> TableInfo: ...
    @property
    def game_id(self) -> str: ...
    @property
    def match(self) -> Match: ...
    @property
    def hand(self) -> HandState | None: ...
    @property
    def hand_no(self) -> int: ...
    @property
    def wall(self) -> WallSeed | None: ...
    @property
    def first_commitment(self) -> str | None: ...
    @property
    def slots(self) -> list[SeatSlot]: ...
    @property
    def prompts(self) -> dict[int, OpenPrompt]: ...
    @property
    def pending(self) -> deque[Event]: ...
    @property
    def points(self) -> list[int]: ...
    @property
    def coins(self) -> list[int]: ...
    @property
    def out(self) -> Outbox: ...
    @property
    def clock(self) -> Clock: ...


def seat_snapshot(game: ShownGame, seat: int) -> SnapshotMessage:
    """What ``seat`` sees: its own view of the hand (``HandState.view``) and its open prompt."""
    hand, prompt = game.hand, game.prompts.get(seat)
    slot = game.slots[seat]
    return SnapshotMessage(
        v=game.out.v, table=table_out(game, seat), view=hand.view(seat) if hand else None,
        commitment=game.wall.commitment if game.wall else None,
        prompt=prompt.message(game.clock, slot.auto_played) if prompt else None,
        server_ms=game.clock.wall_ms(),
    )


def spectator_snapshot(game: ShownGame) -> SnapshotMessage:
    """What a spectator sees: the public view (``HandState.view(None)``: no concealed tile), seat -1."""
    hand = game.hand
    return SnapshotMessage(
        v=game.out.v, table=table_out(game, -1), view=hand.view(None) if hand else None,
        commitment=game.wall.commitment if game.wall else None, prompt=None,
        server_ms=game.clock.wall_ms(),
    )


def table_out(game: ShownGame, seat: int) -> TableOut:
    """The table as ``seat`` (-1: a spectator) is told it: room, variant, seats, the match so far."""
    info, match, hand = game.info, game.match, game.hand
    return TableOut(
        id=info.id, variant=info.variant.value, practice=info.practice,
        room=info.room.value if info.room else None,
        coins_per_point=ROOMS[info.room].coins_per_point if info.moves_coins and info.room else None,
        options=info.options, seat=seat, discard_row=VARIANT_INFO[info.variant].discard_row,
        seats=[SeatOut(seat=s.seat, username=s.username, bot=s.bot, connected=s.bot or s.connected,
                       auto_play=s.human and (s.auto or not s.connected)) for s in game.slots],
        hand_no=game.hand_no, hands_played=match.hands_played,
        dealer=hand.dealer if hand else match.dealer,
        round_wind=hand.round_wind if hand else match.round_wind,
        dealer_streak=hand.dealer_streak if hand else match.dealer_streak,
        first_dealer=match.first_dealer if game.first_commitment else None,
        first_commitment=game.first_commitment,
        game_points=list(game.points), game_coins=list(game.coins), hands_limit=info.hands_limit,
    )


def state_dump(game: ShownGame) -> dict[str, Any]:
    """The game's state for the critical log (never the seed: it stays secret until the hand ends)."""
    hand = game.hand
    return {
        "table": game.info.id, "game": game.game_id, "hand_no": game.hand_no, "v": game.out.v,
        "variant": game.info.variant.value, "phase": hand.phase.value if hand else None,
        "awaiting": hand.awaiting() if hand else [], "prompts": sorted(game.prompts),
        "pending": len(game.pending),
        "actions": [str(a) for a in hand.actions[-12:]] if hand else [],
        "seats": [(s.user_id, s.bot, s.connected, s.auto) for s in game.slots],
    }
