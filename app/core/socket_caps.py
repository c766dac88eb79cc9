"""Open WebSockets per account and per address in this process (Settings.sockets_per_user / sockets_per_ip).

The app state holds one ``SocketCaps`` (``AppState.sockets``); every socket endpoint (``app.ws``) counts its
socket here while it is open, lobby and table sockets together, and closes one over a cap with 4029.  Plain
counting, no transport: it sits with the other per-process limits so the state need not import the sockets.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator


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
