"""What the running app holds: built at startup, shared by every request and socket."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.socket_caps import SocketCaps
from app.core.throttle import Throttle
from app.lobby.broker import LobbyBroker
from app.services.live_sessions import LiveSessions
from app.services.tickets import RedisTicketBook, TicketBook
from app.tables.registry import TableRegistry

if TYPE_CHECKING:
    from app.quickplay.service import QuickPlay


@dataclass
class AppState:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    broker: LobbyBroker
    registry: TableRegistry
    redis: Any = None  # with REDIS_URL: the client socket tickets and session ends go through
    throttles: Throttles = field(init=False)
    sockets: SocketCaps = field(init=False)
    tickets: TicketBook = field(init=False)
    live_sessions: LiveSessions = field(init=False)
    quickplay: QuickPlay | None = field(default=None)  # quick play (app.quickplay), set at startup

    def __post_init__(self) -> None:
        self.throttles = Throttles.of(self.settings)
        self.sockets = SocketCaps(self.settings.sockets_per_user, self.settings.sockets_per_ip)
        ttl, prefix = self.settings.ws_ticket_seconds, self.settings.redis_prefix
        self.tickets = TicketBook(ttl) if self.redis is None else RedisTicketBook(ttl, self.redis, prefix)
        self.live_sessions = LiveSessions(self.sessionmaker, redis=self.redis, prefix=prefix)


@dataclass
class Throttles:
    """The login and registration throttles of this process (limits: Settings, docs/settings.md).  The login
    throttles also count wrong current passwords on POST /api/me/password."""

    login_ip: Throttle
    login_user: Throttle  # failed logins (and wrong current passwords) per username key
    register_ip: Throttle

    def guess_wait(self, account_key: str, address: str) -> tuple[float, str]:
        """Seconds before a password guess on the account (its username key) from ``address`` may be checked
        (0: now), and the scope that asks for it (``username`` or ``ip``).  Wrong current passwords on
        POST /api/me/password count as failed logins (``count_wrong_password``), so a stolen token cannot
        guess its way to a permanent takeover any faster than a login can."""
        for scope, throttle, key in (("username", self.login_user, account_key), ("ip", self.login_ip, address)):
            wait = throttle.wait(key)
            if wait:
                return wait, scope
        return 0.0, ""

    def count_wrong_password(self, account_key: str, address: str) -> None:
        """A wrong current password: a failed login for the account and an attempt for the address."""
        self.login_user.hit(account_key)
        self.login_ip.hit(address)

    @classmethod
    def of(cls, settings: Settings) -> Throttles:
        return cls(
            login_ip=Throttle(settings.login_per_ip, settings.login_window_seconds),
            login_user=Throttle(settings.login_failures_per_user, settings.login_window_seconds),
            register_ip=Throttle(settings.register_per_ip, settings.register_window_seconds),
        )
