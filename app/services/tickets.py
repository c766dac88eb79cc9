"""WebSocket tickets: how a browser opens a socket without its session token in the URL.

``POST /api/ws-ticket`` (with the bearer token) returns a ticket; the client opens ``/ws/...?ticket=…``
within ``Settings.ws_ticket_seconds``.  A ticket is 256 random bits, good for one handshake only, and stored
as a digest.  With ``REDIS_URL`` tickets live in Redis, so a socket may land on any process (the table may
be owned by another one); if Redis fails, this process's own book still serves the tickets it issued, and
moves them to Redis when it answers again (``RedisTicketBook.rebuild``).  A ticket issued before Redis
restarted empty is gone: its client asks for a new one, as for an expired ticket.
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

from app.core.outage import Outage
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

    async def rebuild(self) -> int:
        """Nothing to rebuild without Redis (``RedisTicketBook.rebuild``)."""
        return 0

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
        self._away = Outage(log, "socket tickets (Redis)", "new tickets work on the process that issued them")

    async def issue(self, owner: SocketOwner) -> str:
        ticket = new_secret_token()
        digest = token_digest(ticket)
        try:
            await self.redis.set(f"{self.prefix}:ws-ticket:{digest}", json.dumps(asdict(owner)),
                                 px=int(self.ttl * 1000))
        except (RedisError, OSError) as exc:
            self._away.failed(exc)
            self._put_local(digest, owner)
        else:
            self._away.ok()
            await self.rebuild()
        return ticket

    async def rebuild(self) -> int:
        """Redis answers again: the tickets issued here meanwhile (kept in this process only) move to Redis,
        so a socket opened with one may land on any process; each leaves this book as it goes (a ticket is
        single use: it must live in one place).  Returns how many moved."""
        moved = 0
        now = time.monotonic()
        for digest in list(self._local):
            found = self._local.pop(digest, None)  # out first: never redeemable here and in Redis at once
            left = int((found[0] - now) * 1000) if found is not None else 0
            if found is None or left <= 0:
                continue
            try:
                await self.redis.set(f"{self.prefix}:ws-ticket:{digest}", json.dumps(asdict(found[1])), px=left,
                                     nx=True)
            except (RedisError, OSError):
                self._local[digest] = found  # still away: it stays here
                return moved
            moved += 1
        return moved

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
