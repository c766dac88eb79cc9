"""GET /ws/lobby?token=…: a snapshot of the lobby's tables, then every change as it happens.

Messages (server → client, JSON):
  {"type": "snapshot", "tables": [table, …]}
  {"type": "table_created" | "table_updated" | "table_removed", "table": table}
  {"type": "server_restarting", "pause_seconds": s}: this server is restarting; the socket closes with 1001
  {"type": "queue_sizes", "queues": [{"room", "variant", "queued"}, …]}: quick play's waiting players per pool
  {"type": "matched", "table_id": id}: to one player only, when quick play seated them (app.quickplay)
The snapshot carries ``queues`` too (the same list as ``queue_sizes``).
Each table carries a ``version``; an event older than what the client holds can be ignored.  The socket is
closed with 1013 if the client falls too far behind (reconnecting yields a fresh snapshot), with 1008 for a
missing, invalid or expired token (also when the token expires while connected) and with 4029 over the
per-account or per-address socket caps.  Refusals accept first, so the client sees the close code.
Client messages are read and ignored (the lobby is push-only).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect, status

from app import metrics
from app.api.deps import StateDep
from app.lobby.broker import Subscription
from app.models import User
from app.quickplay.matcher import queue_sizes
from app.state import AppState
from app.ws.guard import TOO_MANY, client_address, expiry, refuse, token_owner

router = APIRouter(tags=["lobby"])


@router.websocket("/ws/lobby")
async def lobby(websocket: WebSocket, state: StateDep, token: str | None = None) -> None:
    owner = token_owner(state.settings, token)
    if owner is not None:
        # A short session: a socket lives for hours and must not hold a database connection while it does.
        async with state.sessionmaker() as session:
            if await session.get(User, owner[0]) is None:
                owner = None
    if owner is None:
        await refuse(websocket, status.WS_1008_POLICY_VIOLATION, "invalid or expired token")
        return
    user_id, expires_in = owner
    with state.sockets.hold(user_id, client_address(websocket)) as over:
        if over is not None:
            await refuse(websocket, TOO_MANY, f"too many open sockets for this {over}")
            return
        await websocket.accept()
        metrics.SOCKETS_OPEN_BY_KIND["lobby"].inc()
        code = 1006  # unless _serve returns: the socket broke
        try:
            code = await _serve(websocket, state, user_id, expires_in)
        finally:
            metrics.SOCKETS_OPEN_BY_KIND["lobby"].dec()
            metrics.socket_closed("lobby", code)


async def _serve(websocket: WebSocket, state: AppState, user_id: int, expires_in: float) -> int:
    """Serve the socket; returns the close code it ended with (1000 when the client left)."""
    # Subscribe before the snapshot, so no change falls between the two.
    with state.broker.subscribe() as subscription:
        tables = [t.public() for t in await state.registry.listing()]
        queues = queue_sizes(await state.quickplay.store.sizes()) if state.quickplay is not None else []
        await websocket.send_json({"type": "snapshot", "tables": tables, "queues": queues})
        metrics.MESSAGES_OUT_BY_KIND["lobby"].inc()
        sender = asyncio.create_task(_forward(websocket, subscription, user_id))
        receiver = asyncio.create_task(_drain(websocket))
        expired = asyncio.create_task(expiry(expires_in))
        try:
            await asyncio.wait({sender, receiver, expired}, return_when=asyncio.FIRST_COMPLETED)
            token_expired = expired.done()
        finally:
            for task in (sender, receiver, expired):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                    await task
        if subscription.close_code is not None:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close(code=subscription.close_code, reason="the server is restarting")
            return int(subscription.close_code)
        if token_expired or subscription.dropped:
            code, reason = ((status.WS_1008_POLICY_VIOLATION, "token expired; log in again") if token_expired
                            else (status.WS_1013_TRY_AGAIN_LATER, "too slow; reconnect"))
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close(code=code, reason=reason)
            return code
        return 1000


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
