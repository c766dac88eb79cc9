"""The relay's two sides inside one process (``RelaySides``, mixed into ``ClusterRuntime``), and the end a
socket holds for a table owned elsewhere (``RelayEnd``).

* Holder side: the sockets (seats and spectators) served here for tables owned elsewhere, each through a
  ``RelayEnd`` (``ClusterRuntime.connect``): their outboxes (``HeldLink``) are fed by the owner's ``out`` /
  ``close`` records.  A link that lost frames (a gap, a broken subscription: a Redis blip) resyncs: it
  joins again under a new id and gets a fresh snapshot, its socket staying open (``resync``).
* Owner side: the sockets held elsewhere for tables owned here: a ``RemoteLink`` in the seat (or among the
  spectators) of the actor, fed by ``join`` / ``in`` / ``leave`` / ``watch`` / ``unwatch`` records; a relayed
  client message goes to the actor through the same ``forward`` as a local socket's
  (``app.tables.hosting.ends``).
* Requests between processes (``call`` / ``reply``): seating forwarded to a table's owner
  (``app.tables.cluster.directory``), answered by ``handlers``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app import metrics
from app.tables.cluster.relay import RELAY_GAP, HeldLink, Relay, RemoteLink
from app.tables.hosting.ends import NOT_SEATED_HERE, Refusal, forward, seat_of
from app.tables.play.commands import Join, Leave, Unwatch, Watch

if TYPE_CHECKING:
    from app.tables.play.actor import TableActor
    from app.tables.play.clock import Clock
    from app.tables.settings import TableSettings

log = logging.getLogger(__name__)


class RelaySides:
    relay: Relay | None
    process_id: str
    settings: TableSettings
    clock: Clock
    actors: dict[str, TableActor]
    serving: Callable[[str], TableActor | None]  # ProcessRuntime.serving: the actor answering a table's sockets
    remote: dict[str, tuple[RemoteLink, TableActor, int]]
    watching: dict[str, tuple[RemoteLink, TableActor]]
    held: dict[str, HeldLink]
    requests: dict[str, dict[str, Any]]  # holder side: link id -> its join / watch record (for a resync)
    handlers: dict[str, Callable[[dict[str, Any]], Awaitable[Any]]]
    _calls: dict[str, asyncio.Future[Any]]

    def hold_link(self, table_id: str, owner: str) -> HeldLink:
        link = HeldLink(self.settings.outbox_size, secrets.token_hex(8), table_id, owner, on_gap=self.resync)
        self.held[link.link_id] = link
        return link

    def resync(self, link: HeldLink) -> None:
        """Put a held socket back in step without closing it: the link joins (or watches) again under a new
        id, so the owner's actor replaces the old link and sends a fresh snapshot; what the old id still
        receives is ignored.  A spectator's old link is unwatched (a seat's is replaced by the join)."""
        request = self.requests.get(link.link_id)
        if self.relay is None or request is None:
            link.close(RELAY_GAP, "a relayed message was lost; reconnect", drop=True)
            return
        old = link.link_id
        self.held.pop(old, None)
        self.requests.pop(old, None)
        link.link_id, link.seq, link.answered, link.waited, link.stale = secrets.token_hex(8), 0, False, 0, False
        link.resyncs += 1
        self.held[link.link_id] = link
        self.requests[link.link_id] = {**request, "l": link.link_id}
        self.relay.send(link.owner, self.requests[link.link_id])
        if request["k"] == "watch":
            self.relay.send(link.owner, {"k": "unwatch", "l": old})
        metrics.RELAY_RESYNCS.inc()

    def ask(self, link: HeldLink, request: dict[str, Any]) -> None:
        """Send the ``join`` / ``watch`` record of a held link (kept for a resync)."""
        assert self.relay is not None
        self.requests[link.link_id] = request
        self.relay.send(link.owner, request)

    def drop_link(self, link: HeldLink, tell: str) -> None:
        """The socket of a held link ended: forget the link and tell its owner (``leave`` for a seat,
        ``unwatch`` for a spectator)."""
        self.held.pop(link.link_id, None)
        self.requests.pop(link.link_id, None)
        if self.relay is not None:
            self.relay.send(link.owner, {"k": tell, "l": link.link_id})

    def _on_record(self, header: dict[str, Any], texts: list[str]) -> None:
        kind = header.get("k")
        if kind == "out":
            link = self.held.get(header["l"])
            if link is not None:
                link.deliver(int(header["s"]), texts)
        elif kind == "close":
            link = self.held.get(header["l"])
            if link is not None:
                link.answered = True
                link.close(int(header["c"]), str(header["r"]))
        elif kind == "join":
            self._remote_join(header["t"], int(header["u"]), header["l"], header["h"])
        elif kind == "in":
            self._remote_in(header["l"], header["m"])
        elif kind == "leave":
            entry = self.remote.pop(header["l"], None)
            if entry is not None:
                rlink, actor, seat = entry
                actor.post(Leave(seat, rlink))
        elif kind == "watch":
            self._remote_watch(header["t"], header["l"], header["h"])
        elif kind == "unwatch":
            watched = self.watching.pop(header["l"], None)
            if watched is not None:
                watched[1].post(Unwatch(watched[0]))
        elif kind == "call":
            asyncio.get_running_loop().create_task(self._answer(header))
        elif kind == "reply":
            future = self._calls.pop(header["id"], None)
            if future is not None and not future.done():
                future.set_result(header)

    def _remote_join(self, table_id: str, user_id: int, link_id: str, holder: str) -> None:
        assert self.relay is not None
        actor = self.serving(table_id)
        if actor is None:
            self.relay.send(holder, {"k": "close", "l": link_id, "c": RELAY_GAP, "r": "the table moved; reconnect"})
            return
        seat = seat_of(actor, user_id)
        if seat is None:
            refusal = NOT_SEATED_HERE  # the holder admitted the socket; the seat is checked here
            self.relay.send(holder, {"k": "close", "l": link_id, "c": refusal.code, "r": refusal.reason})
            return
        rlink = RemoteLink(self.relay, holder, link_id, self._remote_closed)
        self.remote[link_id] = (rlink, actor, seat)
        actor.post(Join(seat, rlink))

    def _remote_watch(self, table_id: str, link_id: str, holder: str) -> None:
        """An operator's spectator socket on another process (``app.ws.spectate``): public events only."""
        assert self.relay is not None
        actor = self.serving(table_id)
        if actor is None:
            self.relay.send(holder, {"k": "close", "l": link_id, "c": RELAY_GAP, "r": "the table moved; reconnect"})
            return
        rlink = RemoteLink(self.relay, holder, link_id, self._remote_closed)
        self.watching[link_id] = (rlink, actor)
        actor.post(Watch(rlink))

    def _remote_closed(self, rlink: RemoteLink) -> None:
        self.remote.pop(rlink.link_id, None)
        self.watching.pop(rlink.link_id, None)
        if self.relay is not None:
            self.relay.forget(rlink.link_id)

    def _remote_in(self, link_id: str, raw: str) -> None:
        entry = self.remote.get(link_id)
        if entry is None:
            return
        rlink, actor, seat = entry
        forward(actor, seat, rlink, raw)

    def _relay_broken(self) -> None:
        """Our subscription broke, so frames may be lost: every relayed socket here resyncs once Redis answers
        again (the next watch round, ``ClusterRuntime._watch_held``); none is closed."""
        for link in self.held.values():
            link.stale = True

    # -- requests to another process ---------------------------------------------------------------------------

    async def call(self, process_id: str, op: str, timeout: float = 5.0, **args: Any) -> dict[str, Any]:
        """Ask ``process_id`` to run handler ``op``; its reply header (``ok`` and ``result`` or ``error``)."""
        assert self.relay is not None
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        self.relay.send(process_id, {"k": "call", "id": call_id, "op": op, "a": args, "h": self.process_id})
        try:
            return dict(await asyncio.wait_for(future, timeout))
        finally:
            self._calls.pop(call_id, None)

    async def _answer(self, header: dict[str, Any]) -> None:
        assert self.relay is not None
        handler = self.handlers.get(header["op"])
        reply: dict[str, Any] = {"k": "reply", "id": header["id"]}
        if handler is None:
            reply.update(ok=False, error={"kind": "unknown", "message": f"no handler {header['op']}"})
        else:
            try:
                reply.update(ok=True, result=await handler(header.get("a") or {}))
            except Exception as exc:
                reply.update(ok=False, error=error_payload(exc))
        self.relay.send(header["h"], reply)


class RelayEnd:
    """A socket held here for a table its ``owner`` process plays: the link is a ``HeldLink`` fed over the
    relay, and client messages go to the owner raw (it parses them, answers, and refuses an account with no
    seat by closing the link with 4003)."""

    kind = "relayed"

    def __init__(self, sides: RelaySides, table_id: str, owner: str) -> None:
        self.sides, self.table_id, self.owner = sides, table_id, owner
        self.clock = sides.clock
        self.user_id: int | None = None
        self.link: HeldLink | None = None
        self.tell = "leave"  # what the owner hears when the socket ends: ``leave`` a seat, ``unwatch``

    def admit(self, user_id: int) -> Refusal | None:
        self.user_id = user_id  # whether it holds a seat, only the owner knows
        return None

    def join(self) -> HeldLink:
        assert self.sides.relay is not None and self.user_id is not None, "admit first"
        self.link = self.sides.hold_link(self.table_id, self.owner)
        self.sides.ask(self.link, {"k": "join", "t": self.table_id, "u": self.user_id, "l": self.link.link_id,
                                   "h": self.sides.process_id})
        return self.link

    def watch(self) -> HeldLink:
        assert self.sides.relay is not None
        self.link, self.tell = self.sides.hold_link(self.table_id, self.owner), "unwatch"
        self.sides.ask(self.link, {"k": "watch", "t": self.table_id, "l": self.link.link_id,
                                   "h": self.sides.process_id})
        return self.link

    def forward(self, raw: str) -> None:
        assert self.link is not None, "join first"
        if self.sides.relay is None:  # this process's relay stopped (shutdown): the socket ends
            self.link.close(1000, "bye")
            return
        self.sides.relay.send(self.owner, {"k": "in", "l": self.link.link_id, "m": raw})

    def leave(self) -> None:
        if self.link is not None:
            self.sides.drop_link(self.link, self.tell)


def error_payload(exc: Exception) -> dict[str, Any]:
    """A service error as data, so the caller's process raises the same error (``raise_payload``)."""
    from app.services.errors import ServiceError

    if isinstance(exc, ServiceError):
        return {"kind": type(exc).__name__, "message": str(exc), "code": getattr(exc, "code", None),
                "params": getattr(exc, "params", None)}
    log.exception("cluster: a forwarded request failed")
    return {"kind": "internal", "message": "the request failed on the table's server"}
