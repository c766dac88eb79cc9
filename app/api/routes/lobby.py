"""GET /ws/lobby?token=…: a snapshot of the lobby's tables, then every change as it happens.

Messages (server → client, JSON):
  {"type": "snapshot", "tables": [table, …]}
  {"type": "table_created" | "table_updated" | "table_removed", "table": table}
Each table carries a ``version``; an event older than what the client holds can be ignored.  The socket is
closed with 1013 if the client falls too far behind; reconnecting yields a fresh snapshot.
Client messages are read and ignored (the lobby is push-only).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect, status

from app.api.deps import StateDep, user_from_token
from app.lobby.broker import Subscription

router = APIRouter(tags=["lobby"])


@router.websocket("/ws/lobby")
async def lobby(websocket: WebSocket, state: StateDep, token: str | None = None) -> None:
    # A short session: a socket lives for hours and must not hold a database connection (or, on SQLite,
    # the write lock) while it does.
    async with state.sessionmaker() as session:
        user = await user_from_token(session, state.settings, token)
    if user is None:
        await websocket.close(code=status.WS_1008_POLICY_VIOLATION, reason="invalid or expired token")
        return
    await websocket.accept()
    # Subscribe before the snapshot, so no change falls between the two.
    with state.broker.subscribe() as subscription:
        tables = [t.public() for t in state.registry.list_tables()]
        await websocket.send_json({"type": "snapshot", "tables": tables})
        sender = asyncio.create_task(_forward(websocket, subscription))
        receiver = asyncio.create_task(_drain(websocket))
        try:
            await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sender, receiver):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                    await task
        if subscription.dropped:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close(code=status.WS_1013_TRY_AGAIN_LATER, reason="too slow; reconnect")


async def _forward(websocket: WebSocket, subscription: Subscription) -> None:
    async for event in subscription:
        await websocket.send_json(event)


async def _drain(websocket: WebSocket) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
