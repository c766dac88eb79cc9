"""GET /ws/spectate/{table_id}?ticket=… (or an Authorization header): an operator or admin watches a live table.

A spectator gets a public snapshot (``table.seat`` = -1, every ``concealed`` null) and then what every seat
sees publicly: engine events as ``Event.for_seat(None)``, table events, hand results, game over.  Never a
prompt, never a seat's private part.  Client messages are ignored.  Close codes: 1008 no valid ticket or session, 4003 not an
operator or admin, 4004 no game running at that table.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket

from app.api.deps import StateDep
from app.models import User
from app.services.live_sessions import SessionEnd
from app.services.roles import Role, has_role
from app.tables.cluster.cluster import MOVING, ClusterRuntime
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.play.commands import Unwatch, Watch
from app.tables.play.seats import SeatLink
from app.ws.guard import socket_owner
from app.ws.serve import serve_link

router = APIRouter(tags=["tables"])


@router.websocket("/ws/spectate/{table_id}")
async def spectate(websocket: WebSocket, table_id: str, state: StateDep) -> None:
    who = await socket_owner(websocket, state)
    await websocket.accept()
    user = None
    if who is not None:
        async with state.sessionmaker() as session:
            user = await session.get(User, who.user_id)
            await session.commit()
    if who is None or user is None:
        await websocket.close(code=1008, reason="missing, used or expired ticket, or invalid session token")
        return
    if not has_role(user, Role.OPERATOR):
        await websocket.close(code=4003, reason="operators and admins only")
        return
    runtime: ProcessRuntime = websocket.app.state.table_runtime
    actor = runtime.actors.get(table_id)
    with state.live_sessions.watch(who) as ended:
        if (actor is None or actor.closed) and isinstance(runtime, ClusterRuntime):
            found = await runtime.locate(table_id)  # several processes: watch through the relay
            if found == MOVING:
                await websocket.close(code=1013, reason="the table is moving between servers; reconnect")
                return
            if isinstance(found, str):
                await _watch_relayed(websocket, runtime, table_id, found, ended)
                return
            actor = found
        if actor is None or actor.closed:
            await websocket.close(code=4004, reason="no game is running at this table")
            return
        link = SeatLink(runtime.settings.outbox_size)
        actor.post(Watch(link))
        await serve_link(websocket, link, _drain(websocket), left=lambda: actor.post(Unwatch(link)), ended=ended,
                         kind="spectate")


async def _drain(websocket: WebSocket) -> None:
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass


async def _watch_relayed(websocket: WebSocket, runtime: ClusterRuntime, table_id: str, owner: str,
                         ended: asyncio.Future[SessionEnd]) -> None:
    """The table plays on another process: its public messages come over the relay (app.tables.cluster.relay)."""
    assert runtime.relay is not None
    link = runtime.hold_link(table_id, owner)
    runtime.relay.send(owner, {"k": "watch", "t": table_id, "l": link.link_id, "h": runtime.process_id})
    await serve_link(websocket, link, _drain(websocket), left=lambda: runtime.drop_link(link, "unwatch"),
                     ended=ended, kind="spectate")
