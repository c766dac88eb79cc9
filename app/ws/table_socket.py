"""GET /ws/table/{table_id}?token=…: a seated player's socket to the table actor (docs/protocol.md).

The socket only parses, rate-limits and forwards: client messages become commands in the actor's inbox,
and a sender task drains the seat's outbox.  Refusals that need no game state (too big, malformed,
over the rate limit) are handled here; everything else by the actor.
"""

from __future__ import annotations

import time

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from app.api.deps import StateDep
from app.tables.cluster.cluster import MOVING, ClusterRuntime
from app.tables.cluster.runtime import TableRuntime
from app.tables.play.actor import TableActor
from app.tables.play.commands import Inbound, Join, Leave
from app.tables.play.seats import SeatLink
from app.tables.settings import TableSettings
from app.ws.guard import TOO_MANY, client_address, refuse, token_owner
from app.ws.inbound import client_messages
from app.ws.protocol import ErrorMessage, client_message
from app.ws.relayed import serve_relayed
from app.ws.serve import serve_link

router = APIRouter(tags=["tables"])


@router.websocket("/ws/table/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, state: StateDep, token: str | None = None) -> None:
    runtime: TableRuntime = websocket.app.state.table_runtime  # see app.main
    # The signed token names the account; being seated at the table is the authorisation, so no database
    # round trip here (a reconnect storm must not queue behind settlements).
    owner = token_owner(state.settings, token)
    if owner is None:
        await refuse(websocket, 1008, "invalid or expired token")
        return
    user_id, expires_in = owner
    actor = runtime.actors.get(table_id)
    if (actor is None or actor.closed) and isinstance(runtime, ClusterRuntime):
        found = await runtime.locate(table_id)  # several processes: the table may be owned elsewhere
        if found == MOVING:
            await refuse(websocket, 1013, "the table is moving between servers; reconnect")
            return
        if isinstance(found, str):
            await serve_relayed(websocket, state, runtime, table_id, found, user_id, expires_in)
            return
        actor = found
    if actor is None or actor.closed:
        await refuse(websocket, 4004, "no game is running at this table")
        return
    seat = next((s.seat for s in actor.slots if s.user_id == user_id and not s.bot), None)
    if seat is None:
        await refuse(websocket, 4003, "you are not seated at this table")
        return
    with state.sockets.hold(user_id, client_address(websocket)) as over:
        if over is not None:
            await refuse(websocket, TOO_MANY, f"too many open sockets for this {over}")
            return
        await websocket.accept()
        await _serve(websocket, actor, seat, runtime.settings, expires_in)


async def _serve(websocket: WebSocket, actor: TableActor, seat: int, settings: TableSettings,
                 expires_in: float) -> None:
    link = SeatLink(settings.outbox_size)
    actor.post(Join(seat, link))
    await serve_link(websocket, link, _receive(websocket, actor, seat, link, settings),
                     left=lambda: actor.post(Leave(seat, link)), expires_in=expires_in)


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
