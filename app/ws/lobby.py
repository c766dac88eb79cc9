"""GET /ws/lobby?ticket=… (or an Authorization header): a snapshot of the lobby's tables, then every change as it happens.

Messages (server → client, JSON):
  {"type": "snapshot", "tables": [table, …]}
  {"type": "table_created" | "table_updated" | "table_removed", "table": table}
  {"type": "server_restarting", "pause_seconds": s}: this server is restarting; the socket closes with 1001
  {"type": "queue_sizes", "queues": [{"room", "variant", "rounds", "minutes", "queued"}, …]}: quick play's waiting
  players per pool (room, variant, rounds: 1 圈 first, then 4) and a game's typical minutes
  {"type": "matched", "table_id": id}: to one player only, when quick play seated them (app.quickplay)
  {"type": "notice", "id", "text", "starts_at", "ends_at"}: a notice to every player (app.lobby.notices;
    NoticeMessage in docs/protocol.md), also sent on every table socket
The snapshot carries ``queues`` too (the same list as ``queue_sizes``).
Each table carries a ``version``; an event older than what the client holds can be ignored.  The socket is
closed with 1013 if the client falls too far behind (reconnecting yields a fresh snapshot), with 1008 for a
missing, used or expired ticket (or an invalid session token), with 4401 when its login session ends while
connected (logout, revoked, expired) and with 4029 over the per-account or per-address socket caps.
Refusals accept first, so the client sees the close code.
Client messages are read and ignored (the lobby is push-only).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect, status

from app import metrics
from app.api.deps import StateDep
from app.core.outage import REDIS_ERRORS
from app.lobby.broker import Subscription
from app.quickplay.matcher import lobby_queues
from app.services.live_sessions import SessionEnd
from app.state import AppState
from app.tables.protocol.close_codes import TOO_MANY
from app.ws.guard import client_address, refuse, socket_owner

router = APIRouter(tags=["lobby"])


@router.websocket("/ws/lobby")
async def lobby(websocket: WebSocket, state: StateDep) -> None:
    who = await socket_owner(websocket, state)
    if who is None:
        await refuse(websocket, status.WS_1008_POLICY_VIOLATION,
                     "missing, used or expired ticket, or invalid session token")
        return
    with state.sockets.hold(who.user_id, client_address(websocket)) as over, state.live_sessions.watch(who) as ended:
        if over is not None:
            await refuse(websocket, TOO_MANY, f"too many open sockets for this {over}")
            return
        await websocket.accept()
        metrics.SOCKETS_OPEN_BY_KIND["lobby"].inc()
        code = 1006  # unless _serve returns: the socket broke
        try:
            code = await _serve(websocket, state, who.user_id, ended)
        finally:
            metrics.SOCKETS_OPEN_BY_KIND["lobby"].dec()
            metrics.socket_closed("lobby", code)


async def _serve(websocket: WebSocket, state: AppState, user_id: int, ended: asyncio.Future[SessionEnd]) -> int:
    """Serve the socket; returns the close code it ended with (1000 when the client left)."""
    # Subscribe before the snapshot, so no change falls between the two.
    with state.broker.subscribe() as subscription:
        tables = [t.public() for t in await state.registry.listing()]
        queues = await _queues(state)
        await websocket.send_json({"type": "snapshot", "tables": tables, "queues": queues})
        metrics.MESSAGES_OUT_BY_KIND["lobby"].inc()
        sender = asyncio.create_task(_forward(websocket, subscription, user_id))
        receiver = asyncio.create_task(_drain(websocket))
        try:
            waiting: set[asyncio.Future[Any]] = {sender, receiver, ended}
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sender, receiver):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                    await task
        if subscription.close_code is not None:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close(code=subscription.close_code, reason="the server is restarting")
            return int(subscription.close_code)
        if ended.done() or subscription.dropped:
            code, reason = ended.result() if ended.done() else (status.WS_1013_TRY_AGAIN_LATER, "too slow; reconnect")
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close(code=code, reason=reason)
            return code
        return 1000


async def _queues(state: AppState) -> list[dict[str, Any]]:
    """Quick play's queue sizes for the snapshot; none while their store (Redis) is away: the socket stays up."""
    if state.quickplay is None:
        return []
    try:
        return lobby_queues(await state.quickplay.store.sizes())
    except REDIS_ERRORS:
        return []


async def _forward(websocket: WebSocket, subscription: Subscription, user_id: int) -> None:
    sent = metrics.MESSAGES_OUT_BY_KIND["lobby"].inc
    async for event in subscription:
        if "to" in event:  # one player's event (quick play's ``matched``): theirs only, without the address
            if event["to"] != user_id:
                continue
            event = {k: v for k, v in event.items() if k != "to"}
        await websocket.send_json(event)
        sent()


async def _drain(websocket: WebSocket) -> None:
    received = metrics.MESSAGES_IN_BY_KIND["lobby"].inc
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        received()
