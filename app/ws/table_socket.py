"""GET /ws/table/{table_id}?ticket=… (or an Authorization header): a seated player's socket to the table actor (docs/protocol.md).

The socket only parses, rate-limits and forwards: client messages become commands in the actor's inbox,
and a sender task drains the seat's outbox.  Refusals that need no game state (too big, malformed,
over the rate limit) are handled here; everything else by the actor.
"""

from __future__ import annotations

import asyncio
import time

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from app.api.deps import StateDep
from app.services.live_sessions import SessionEnd
from app.tables.cluster.cluster import MOVING, ClusterRuntime
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.play.actor import TableActor
from app.tables.play.commands import Inbound, Join, Leave
from app.tables.play.seats import SeatLink
from app.tables.protocol.close_codes import TOO_MANY
from app.tables.protocol.messages import ErrorMessage, client_message
from app.tables.settings import TableSettings
from app.ws.guard import client_address, refuse, socket_owner
from app.ws.inbound import client_messages
from app.ws.relayed import serve_relayed
from app.ws.serve import serve_link

router = APIRouter(tags=["tables"])


@router.websocket("/ws/table/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, state: StateDep) -> None:
    runtime: ProcessRuntime = websocket.app.state.table_runtime  # see app.main
    # A browser's ticket names the account without a database round trip (a reconnect storm must not queue
    # behind settlements); being seated at the table is the authorisation.
    who = await socket_owner(websocket, state)
    if who is None:
        await refuse(websocket, 1008, "missing, used or expired ticket, or invalid session token")
        return
    user_id = who.user_id
    actor = runtime.actors.get(table_id)
    if (actor is None or actor.closed) and isinstance(runtime, ClusterRuntime):
        found = await runtime.locate(table_id)  # several processes: the table may be owned elsewhere
        if found == MOVING:
            await refuse(websocket, 1013, "the table is moving between servers; reconnect")
            return
        if isinstance(found, str):
            await serve_relayed(websocket, state, runtime, table_id, found, who)
            return
        actor = found
    if actor is None or actor.closed:
        await refuse(websocket, 4004, "no game is running at this table")
        return
    seat = next((s.seat for s in actor.slots if s.user_id == user_id and not s.bot), None)
    if seat is None:
        await refuse(websocket, 4003, "you are not seated at this table")
        return
    with state.sockets.hold(user_id, client_address(websocket)) as over, state.live_sessions.watch(who) as ended:
        if over is not None:
            await refuse(websocket, TOO_MANY, f"too many open sockets for this {over}")
            return
        await websocket.accept()
        await _serve(websocket, actor, seat, runtime.settings, ended)


async def _serve(websocket: WebSocket, actor: TableActor, seat: int, settings: TableSettings,
                 ended: asyncio.Future[SessionEnd]) -> None:
    link = SeatLink(settings.outbox_size)
    actor.post(Join(seat, link))
    await serve_link(websocket, link, _receive(websocket, actor, seat, link, settings),
                     left=lambda: actor.post(Leave(seat, link)), ended=ended)


async def _receive(websocket: WebSocket, actor: TableActor, seat: int, link: SeatLink,
                   settings: TableSettings) -> None:
    async for raw in client_messages(websocket, link, settings, actor.clock):
        _forward(actor, seat, link, raw)


def _forward(actor: TableActor, seat: int, link: SeatLink, raw: str) -> None:
    try:
        parsed = client_message.validate_json(raw)
    except ValidationError as exc:
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
        link.send(ErrorMessage(v=actor.out.v, code="malformed", message=detail or "bad message").model_dump_json())
        return
    if not actor.offer(Inbound(seat, link, parsed, time.perf_counter())):
        link.send(ErrorMessage(v=actor.out.v, code="busy", message="the table is busy; try again").model_dump_json())
