"""GET /ws/spectate/{table_id}?ticket=… (or an Authorization header): an operator or admin watches a live table.

A spectator gets a public snapshot (``table.seat`` = -1, every ``concealed`` null) and then what every seat
sees publicly: engine events as ``Event.for_seat(None)``, table events, hand results, game over.  Never a
prompt, never a seat's private part.  Client messages are ignored.  Close codes: 1008 no valid ticket or session, 4003 not an
operator or admin, 4004 no game running at that table, 4029
too many of those in a row.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.api.deps import StateDep
from app.models import User
from app.services.roles import Role, has_role
from app.tables.hosting.ends import Refusal
from app.tables.hosting.runtime import ProcessRuntime
from app.ws.guard import socket_owner
from app.ws.serve import hearing_notices, serve_link

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
    with state.live_sessions.watch(who) as ended:
        # here, or through the relay to the process that owns it; reconnect-throttled
        end = await runtime.reach(table_id, who.user_id, seat=False)
        if isinstance(end, Refusal):
            await websocket.close(code=end.code, reason=end.reason)
            return
        link = end.watch()
        with hearing_notices(state.broker, link):
            await serve_link(websocket, link, _drain(websocket), left=end.leave, ended=ended, kind="spectate")


async def _drain(websocket: WebSocket) -> None:
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass
