"""What the running app holds: built at startup, shared by every request and socket."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.lobby.broker import LobbyBroker
from app.tables.registry import TableRegistry


@dataclass
class AppState:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    broker: LobbyBroker
    registry: TableRegistry
