"""GET /ws/table/{table_id}?ticket=… (or an Authorization header): a seated player's socket to the table (docs/protocol.md).

The socket only checks, rate-limits and forwards.  Where the table plays is not its business: the runtime's
``connect`` answers a ``TableEnd`` (``app.tables.hosting.ends``), the actor in this process or the relay
to the process that owns the table, or a refusal.  Refusals that need no game state (too big, over the rate
limit) are handled here (``app.ws.inbound``); everything else by the table.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.api.deps import StateDep
from app.tables.hosting.ends import Refusal, TableEnd
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.play.seats import SeatLink
from app.tables.protocol.close_codes import TOO_MANY
from app.tables.settings import TableSettings
from app.ws.guard import client_address, refuse, socket_owner
from app.ws.inbound import client_messages
from app.ws.serve import hearing_notices, serve_link

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
    end = await runtime.reach(table_id, who.user_id, seat=True)  # connect and admit, reconnect-throttled
    if isinstance(end, Refusal):
        await refuse(websocket, end.code, end.reason)
        return
    with state.sockets.hold(who.user_id, client_address(websocket)) as over, state.live_sessions.watch(who) as ended:
        if over is not None:
            await refuse(websocket, TOO_MANY, f"too many open sockets for this {over}")
            return
        await websocket.accept()
        link = end.join()
        with hearing_notices(state.broker, link):
            await serve_link(websocket, link, _receive(websocket, end, link, runtime.settings), left=end.leave,
                             ended=ended, kind=end.kind)


async def _receive(websocket: WebSocket, end: TableEnd, link: SeatLink, settings: TableSettings) -> None:
    async for raw in client_messages(websocket, link, settings, end.clock, end.kind):
        end.forward(raw)
