"""WebSocket tickets: how a browser opens a socket without its session token in the URL.

``POST /api/ws-ticket`` (with the bearer token) returns a ticket; the client opens ``/ws/...?ticket=…``
within ``Settings.ws_ticket_seconds``.  A ticket is 256 random bits, good for one handshake only, and stored
as a digest.  With ``REDIS_URL`` tickets live in Redis, so a socket may land on any process (the table may
be owned by another one); if Redis fails, this process's own book still serves the tickets it issued.
A ticket in an access log is worth nothing: it was used once, seconds before the line was written
(and ``app.core.redact`` masks it anyway).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass
from typing import Any

from redis.exceptions import RedisError

from app.core.security import new_secret_token, token_digest
from app.services.sessions import Authenticated, aware

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SocketOwner:
    """Who a socket belongs to: the account and the session it was opened from."""

    user_id: int
    session_id: str
    expires_at: float  # Unix time: the session's absolute end (an open socket keeps it from going idle)

    @classmethod
    def of(cls, found: Authenticated) -> SocketOwner:
        return cls(found.user.id, found.login.id, aware(found.login.expires_at).timestamp())

    def ends_in(self) -> float:
        return max(self.expires_at - time.time(), 0.0)


class TicketBook:
    """Tickets of this process (no Redis): a dict of digest → (deadline, owner), pruned as it is used."""

    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self._local: dict[str, tuple[float, SocketOwner]] = {}

    async def issue(self, owner: SocketOwner) -> str:
        ticket = new_secret_token()
        self._put_local(token_digest(ticket), owner)
        return ticket

    async def redeem(self, ticket: str) -> SocketOwner | None:
        """The ticket's owner, once: a second use, a stale or an unknown ticket is None."""
        return self._pop_local(token_digest(ticket))

    def _put_local(self, digest: str, owner: SocketOwner) -> None:
        now = time.monotonic()
        for key in [k for k, (deadline, _) in self._local.items() if deadline <= now]:
            del self._local[key]
        self._local[digest] = (now + self.ttl, owner)

    def _pop_local(self, digest: str) -> SocketOwner | None:
        found = self._local.pop(digest, None)
        return found[1] if found is not None and found[0] > time.monotonic() else None


class RedisTicketBook(TicketBook):
    """Tickets in Redis (``{prefix}:ws-ticket:{digest}``, expiring), readable by every process."""

    def __init__(self, ttl: float, redis: Any, prefix: str) -> None:
        super().__init__(ttl)
        self.redis, self.prefix = redis, prefix

    async def issue(self, owner: SocketOwner) -> str:
        ticket = new_secret_token()
        digest = token_digest(ticket)
        try:
            await self.redis.set(f"{self.prefix}:ws-ticket:{digest}", json.dumps(asdict(owner)),
                                 px=int(self.ttl * 1000))
        except (RedisError, OSError) as exc:
            log.warning("Redis unavailable for socket tickets (%s); this ticket works on this process only",
                        type(exc).__name__)
            self._put_local(digest, owner)
        return ticket

    async def redeem(self, ticket: str) -> SocketOwner | None:
        digest = token_digest(ticket)
        local = self._pop_local(digest)
        if local is not None:
            return local
        try:
            raw = await self.redis.getdel(f"{self.prefix}:ws-ticket:{digest}")  # single use, atomically
        except (RedisError, OSError):
            return None
        return None if raw is None else SocketOwner(**json.loads(raw))
