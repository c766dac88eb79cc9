"""The relay's two ends inside one process (mixed into ``ClusterRuntime``).

* Holder side: the sockets (seats and spectators) served here for tables owned elsewhere: their outboxes
  (``HeldLink``) are fed by the owner's ``out`` / ``close`` records.
* Owner side: the sockets held elsewhere for tables owned here: a ``RemoteLink`` in the seat (or among the
  spectators) of the actor, fed by ``join`` / ``in`` / ``leave`` / ``watch`` / ``unwatch`` records.
* Requests between processes (``call`` / ``reply``): seating forwarded to a table's owner
  (``app.tables.cluster.directory``), answered by ``handlers``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from app.tables.cluster.relay import RELAY_GAP, HeldLink, Relay, RemoteLink
from app.tables.play.commands import Inbound, Join, Leave, Unwatch, Watch
from app.tables.protocol.messages import ErrorMessage, client_message

if TYPE_CHECKING:
    from app.tables.play.actor import TableActor
    from app.tables.settings import TableSettings

log = logging.getLogger(__name__)


class RelayEnds:
    relay: Relay | None
    process_id: str
    settings: TableSettings
    actors: dict[str, TableActor]
    remote: dict[str, tuple[RemoteLink, TableActor, int]]
    watching: dict[str, tuple[RemoteLink, TableActor]]
    held: dict[str, HeldLink]
    handlers: dict[str, Callable[[dict[str, Any]], Awaitable[Any]]]
    _calls: dict[str, asyncio.Future[Any]]

    def hold_link(self, table_id: str, owner: str) -> HeldLink:
        link = HeldLink(self.settings.outbox_size, secrets.token_hex(8), table_id, owner)
        self.held[link.link_id] = link
        return link

    def drop_link(self, link: HeldLink, tell: str) -> None:
        """The socket of a held link ended: forget the link and tell its owner (``leave`` for a seat,
        ``unwatch`` for a spectator)."""
        self.held.pop(link.link_id, None)
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
        actor = self.actors.get(table_id)
        if actor is None or actor.closed:
            self.relay.send(holder, {"k": "close", "l": link_id, "c": RELAY_GAP, "r": "the table moved; reconnect"})
            return
        seat = next((s.seat for s in actor.slots if s.user_id == user_id and not s.bot), None)
        if seat is None:
            self.relay.send(holder, {"k": "close", "l": link_id, "c": 4003, "r": "you are not seated at this table"})
            return
        rlink = RemoteLink(self.relay, holder, link_id, self._remote_closed)
        self.remote[link_id] = (rlink, actor, seat)
        actor.post(Join(seat, rlink))

    def _remote_watch(self, table_id: str, link_id: str, holder: str) -> None:
        """An operator's spectator socket on another process (``app.ws.spectate``): public events only."""
        assert self.relay is not None
        actor = self.actors.get(table_id)
        if actor is None or actor.closed:
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
        try:
            parsed = client_message.validate_json(raw)
        except ValidationError as exc:
            detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
            rlink.send(ErrorMessage(v=actor.out.v, code="malformed", message=detail or "bad message").model_dump_json())
            return
        if not actor.offer(Inbound(seat, rlink, parsed, time.perf_counter())):
            rlink.send(ErrorMessage(v=actor.out.v, code="busy", message="the table is busy; try again").model_dump_json())

    def _relay_broken(self) -> None:
        """Our subscription broke, so frames may be lost: every relayed socket here reconnects."""
        for link in list(self.held.values()):
            link.close(RELAY_GAP, "the connection between servers was lost; reconnect", drop=True)

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


def error_payload(exc: Exception) -> dict[str, Any]:
    """A service error as data, so the caller's process raises the same error (``raise_payload``)."""
    from app.services.errors import ServiceError

    if isinstance(exc, ServiceError):
        return {"kind": type(exc).__name__, "message": str(exc), "code": getattr(exc, "code", None),
                "params": getattr(exc, "params", None)}
    log.exception("cluster: a forwarded request failed")
    return {"kind": "internal", "message": "the request failed on the table's server"}
