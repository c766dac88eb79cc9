"""What goes into a table actor's inbox.  Sockets post Join/Leave/Inbound; timers post Tick."""

from __future__ import annotations

from dataclasses import dataclass

from app.tables.play.seats import SeatLink
from app.tables.protocol.messages import (
    ActionMessage,
    AutoPlayMessage,
    BackMessage,
    PingMessage,
    ResyncMessage,
)


@dataclass(frozen=True, slots=True)
class Join:
    seat: int
    link: SeatLink


@dataclass(frozen=True, slots=True)
class Leave:
    seat: int
    link: SeatLink


@dataclass(frozen=True, slots=True)
class Inbound:
    seat: int
    link: SeatLink
    message: ActionMessage | PingMessage | ResyncMessage | BackMessage | AutoPlayMessage
    received: float = 0.0  # time.perf_counter() when the socket read it (for the latency metric)

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, seat: int, link: SeatLink,
                 message: ActionMessage | PingMessage | ResyncMessage | BackMessage | AutoPlayMessage,
                 received: float = 0.0) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "link", link)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "received", received)


@dataclass(frozen=True, slots=True)
class Tick:
    """A timer fired.  ``kind``: start, deadline, act, release, next_hand; ``key`` names the prompt."""

    kind: str
    key: int = 0
    seat: int = -1

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, kind: str, key: int = 0, seat: int = -1) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "seat", seat)


@dataclass(frozen=True, slots=True)
class Watch:
    """An operator's spectator socket: public events only (``Event.for_seat(None)``), never a prompt."""

    link: SeatLink


@dataclass(frozen=True, slots=True)
class Unwatch:
    link: SeatLink


@dataclass(frozen=True, slots=True)
class Freeze:
    """An admin froze this account: its seat plays on 托管 until the hand ends, then stands up."""

    user_id: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the actor.  ``server_restarting``: tell the seats (with the expected pause) and keep the journal.
    ``closed``: the table was closed for good (removed from the registry: an operator closed it, its
    tournament was cancelled): its game leaves the journal too, so no restart or other process resumes it."""

    reason: str = "table_closed"
    pause_seconds: float = 0.0
    closed: bool = False


Command = Join | Leave | Inbound | Tick | Freeze | Watch | Unwatch | Stop
