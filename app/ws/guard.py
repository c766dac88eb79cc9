"""What every WebSocket (lobby, table, spectator) checks before it serves anyone: who it is, and the caps.

Who: a single-use ticket (``?ticket=``, from ``POST /api/ws-ticket``: app.services.tickets) from a browser, or
the session token in an ``Authorization: Bearer`` header from any other client.  Never the token in the URL:
URLs end up in access logs.  Refusals are sent as close codes after accepting (``refuse``): a browser cannot
read an HTTP 403 from a WebSocket handshake, only a close code (docs/protocol.md, "Close codes").  An
accepted socket is closed with 4401 when its session ends (app.services.live_sessions).  Caps
(``app.core.socket_caps``, Settings.sockets_per_user / sockets_per_ip) count every socket together; over a
cap: 4029.
"""

from __future__ import annotations

import contextlib
from typing import Protocol

from fastapi import WebSocket, WebSocketDisconnect
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import metrics
from app.core.config import Settings
from app.core.request_ids import note_user
from app.services import sessions
from app.services.live_sessions import LiveSessions
from app.services.tickets import SocketOwner, TicketBook


async def refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Accept, then close with ``code``: the client sees the code instead of a bare handshake failure."""
    metrics.socket_closed("lobby" if websocket.url.path.startswith("/ws/lobby") else "table", code)
    with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
        await websocket.accept()
        await websocket.close(code=code, reason=reason)


class SocketAuthority(Protocol):
    """What the guard needs to know who opens a socket (the app state has it; the guard does not import the
    state, which holds the guard's socket caps)."""

    settings: Settings
    sessionmaker: async_sessionmaker[AsyncSession]
    tickets: TicketBook
    live_sessions: LiveSessions


async def socket_owner(websocket: WebSocket, state: SocketAuthority) -> SocketOwner | None:
    """Who opens this socket: the ticket's owner (browsers), else the bearer header's session (other
    clients); None when neither is valid, or the session ended since the ticket was issued.  The socket's
    access line names the owner (``app.core.request_ids.note_user``)."""
    owner = await _owner(websocket, state)
    if owner is not None:
        note_user(owner.user_id)
    return owner


async def _owner(websocket: WebSocket, state: SocketAuthority) -> SocketOwner | None:
    ticket = websocket.query_params.get("ticket")
    if ticket:
        owner = await state.tickets.redeem(ticket)
        return None if owner is None or state.live_sessions.is_revoked(owner.session_id) else owner
    scheme, _, token = websocket.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    # A short session: a socket lives for hours and must not hold a database connection while it does.
    async with state.sessionmaker() as session:
        found = await sessions.authenticate(session, state.settings, token.strip())
        await session.commit()
    if found is None:
        return None
    return SocketOwner.of(found)


def client_address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"
