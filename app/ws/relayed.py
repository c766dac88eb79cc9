"""A table socket whose table is owned by another process: served here, relayed to the owner.

The holder does what a local socket does before the actor (session, caps, size and rate limits) and passes
every client message on raw; the owner parses it, answers, and sends the seat's messages back over the
relay (``app.tables.cluster.relay``).  If the owner changes or stops answering, the socket closes with 1012 and
the client reconnects: the new owner's snapshot puts it back in step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import WebSocket

from app.services.tickets import SocketOwner
from app.state import AppState
from app.tables.cluster.relay import HeldLink
from app.tables.protocol.close_codes import TOO_MANY
from app.ws.guard import client_address, refuse
from app.ws.inbound import client_messages
from app.ws.serve import serve_link

if TYPE_CHECKING:
    from app.tables.cluster.cluster import ClusterRuntime


async def serve_relayed(websocket: WebSocket, state: AppState, runtime: ClusterRuntime, table_id: str,
                        owner: str, who: SocketOwner) -> None:
    assert runtime.relay is not None
    user_id = who.user_id
    with state.sockets.hold(user_id, client_address(websocket)) as over, state.live_sessions.watch(who) as ended:
        if over is not None:
            await refuse(websocket, TOO_MANY, f"too many open sockets for this {over}")
            return
        await websocket.accept()
        link = runtime.hold_link(table_id, owner)
        relay = runtime.relay
        relay.send(owner, {"k": "join", "t": table_id, "u": user_id, "l": link.link_id, "h": runtime.process_id})
        await serve_link(websocket, link, _receive(websocket, runtime, link),
                         left=lambda: runtime.drop_link(link, "leave"), ended=ended, kind="relayed")


async def _receive(websocket: WebSocket, runtime: ClusterRuntime, link: HeldLink) -> None:
    async for raw in client_messages(websocket, link, runtime.settings, runtime.clock, "relayed"):
        if runtime.relay is None:
            return
        runtime.relay.send(link.owner, {"k": "in", "l": link.link_id, "m": raw})
