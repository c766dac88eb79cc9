"""What every WebSocket (lobby and table) checks before it serves anyone: the token, and the caps.

Refusals are sent as close codes after accepting (``refuse``): a browser cannot read an HTTP 403 from a
WebSocket handshake, only a close code (docs/protocol.md, "Close codes").  An accepted socket is closed
with 1008 when its token expires (``expiry``).  Caps (Settings.sockets_per_user / sockets_per_ip) count
lobby and table sockets together; over a cap the socket is closed with 4029.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Iterator

from fastapi import WebSocket, WebSocketDisconnect

from app import metrics
from app.core.config import Settings
from app.core.security import read_access_token_expiry

TOO_MANY = 4029  # too many sockets (account or address), or too many reconnects


async def refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Accept, then close with ``code``: the client sees the code instead of a bare handshake failure."""
    metrics.socket_closed("lobby" if websocket.url.path.startswith("/ws/lobby") else "table", code)
    with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
        await websocket.accept()
        await websocket.close(code=code, reason=reason)


def token_owner(settings: Settings, token: str | None) -> tuple[int, float] | None:
    """(user id, seconds until the token expires), or None for a missing, forged or expired token."""
    found = read_access_token_expiry(token or "", secret_key=settings.secret_key,
                                     max_age=settings.token_ttl_seconds)
    return None if found is None else (found[0], max(found[1] - time.time(), 0.0))


def client_address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


async def expiry(seconds: float) -> None:
    """Finishes when the socket's token expires (a task the socket waits on with its others)."""
    await asyncio.sleep(seconds)


class SocketCaps:
    """Open sockets per account and per address, in this process."""

    def __init__(self, per_user: int, per_ip: int) -> None:
        self.per_user, self.per_ip = per_user, per_ip
        self.users: Counter[int] = Counter()
        self.ips: Counter[str] = Counter()

    @contextlib.contextmanager
    def hold(self, user_id: int, ip: str) -> Iterator[str | None]:
        """Count a socket while it is open; yields None, or "account" / "address" when over a cap (then
        nothing is counted and the caller closes the socket with 4029)."""
        over = ("account" if self.users[user_id] >= self.per_user
                else "address" if self.ips[ip] >= self.per_ip else None)
        if over is not None:
            yield over
            return
        self.users[user_id] += 1
        self.ips[ip] += 1
        try:
            yield None
        finally:
            self.users[user_id] -= 1
            self.ips[ip] -= 1
            if not self.users[user_id]:
                del self.users[user_id]
            if not self.ips[ip]:
                del self.ips[ip]
