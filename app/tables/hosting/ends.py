"""How one socket reaches a table, wherever the table plays.

The runtime answers ``connect(table_id)`` with a ``Refusal`` or a ``TableEnd``, and the socket endpoints
(``app.ws.table_socket``, ``app.ws.spectate``) serve both kinds of end the same way: admit, accept, join (or
watch), pass every client message to ``TableEnd.forward``, leave.  Which process plays the table is the
end's business, never the socket's:

* ``ActorEnd`` (here): the table's actor plays in this process.  ``forward`` parses the message and offers
  it to the actor (``forward`` below).
* ``RelayEnd`` (``app.tables.cluster.remote``): the table plays on another process.  The socket's link is
  held here and its messages go to the owner raw; the owner runs the same ``forward`` on them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from pydantic import ValidationError

from app.tables.play.actor import TableActor
from app.tables.play.clock import Clock
from app.tables.play.commands import Inbound, Join, Leave, Unwatch, Watch
from app.tables.play.seats import SeatLink
from app.tables.protocol.close_codes import NO_GAME, NOT_SEATED, TOO_MANY
from app.tables.protocol.messages import ErrorMessage, client_message


@dataclass(frozen=True)
class Refusal:
    """Why a socket does not reach the table: the close code it gets and the reason (docs/protocol.md)."""

    code: int
    reason: str


NO_GAME_HERE = Refusal(NO_GAME, "no game is running at this table")
NOT_SEATED_HERE = Refusal(NOT_SEATED, "you are not seated at this table")
TOO_MANY_RECONNECTS = Refusal(TOO_MANY, "too many reconnects; wait a few seconds")
# Refusals a client may retry in a loop (no game, no seat): each still costs a lookup (in a cluster, Redis
# round trips), so they count against the account's reconnect throttle (ProcessRuntime.reach).
COUNTED_REFUSALS = frozenset({NO_GAME, NOT_SEATED})


class TableEnd(Protocol):
    """One socket's way to a table: a player's seat (``admit`` then ``join``) or a spectator (``watch``).
    An end serves one socket."""

    kind: str  # the socket's metrics label (app.metrics.SOCKET_KINDS) when it is a seat's
    clock: Clock  # what the socket's rate limit counts time with

    def admit(self, user_id: int) -> Refusal | None:
        """Before the socket is accepted: why this account may not take its seat, if this end can tell
        (otherwise the table refuses it after ``join``, with the same close code)."""
        ...

    def join(self) -> SeatLink:
        """Once the socket is accepted: the admitted account's link, joined to its seat."""
        ...

    def watch(self) -> SeatLink:
        """A spectator's link: the table's public messages only."""
        ...

    def forward(self, raw: str) -> None:
        """One message from the seat's client, within the size and rate limits, as it came."""
        ...

    def leave(self) -> None:
        """The socket ended: the table lets go of its link (the seat is held and auto-played)."""
        ...


def forward(actor: TableActor, seat: int, link: SeatLink, raw: str) -> None:
    """A seat's client message to its actor, the same for a socket here and one relayed from another
    process: parsed (a malformed one is answered ``malformed``), then offered to the actor's inbox (a full
    inbox is answered ``busy``).  Neither answer changes anything at the table."""
    try:
        parsed = client_message.validate_json(raw)
    except ValidationError as exc:
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
        link.send(ErrorMessage(v=actor.out.v, code="malformed", message=detail or "bad message").model_dump_json())
        return
    if not actor.offer(Inbound(seat, link, parsed, time.perf_counter())):
        link.send(ErrorMessage(v=actor.out.v, code="busy", message="the table is busy; try again").model_dump_json())


def seat_of(actor: TableActor, user_id: int) -> int | None:
    """The seat this account holds at the actor's table (never a bot's), or None."""
    return next((s.seat for s in actor.slots if s.user_id == user_id and not s.bot), None)


class ActorEnd:
    """The table's actor plays in this process: the socket's link goes straight into its seat."""

    kind = "table"

    def __init__(self, actor: TableActor, outbox_size: int) -> None:
        self.actor, self.outbox_size = actor, outbox_size
        self.clock = actor.clock
        self.seat: int | None = None
        self.link: SeatLink | None = None
        self.watching = False

    def admit(self, user_id: int) -> Refusal | None:
        self.seat = seat_of(self.actor, user_id)
        return NOT_SEATED_HERE if self.seat is None else None

    def join(self) -> SeatLink:
        assert self.seat is not None, "admit first"
        self.link = SeatLink(self.outbox_size)
        self.actor.post(Join(self.seat, self.link))
        return self.link

    def watch(self) -> SeatLink:
        self.link, self.watching = SeatLink(self.outbox_size), True
        self.actor.post(Watch(self.link))
        return self.link

    def forward(self, raw: str) -> None:
        assert self.seat is not None and self.link is not None, "join first"
        forward(self.actor, self.seat, self.link, raw)

    def leave(self) -> None:
        if self.link is None:
            return
        if self.watching:
            self.actor.post(Unwatch(self.link))
        elif self.seat is not None:
            self.actor.post(Leave(self.seat, self.link))
