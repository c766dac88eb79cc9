"""Building the process's quick play: its store (Redis with ``REDIS_URL``, else in process), the queue
service, and the matcher with its lease (app.quickplay.matcher)."""

from __future__ import annotations

from app.models import User
from app.quickplay.matcher import Matcher, make_lease
from app.quickplay.matching import SpreadPolicy
from app.quickplay.redis_store import RedisQueueStore
from app.quickplay.service import QuickPlay
from app.quickplay.store import LocalQueueStore, QueueStore
from app.services.errors import Conflict, ErrorCode
from app.state import AppState
from app.tables.journal import TableJournal
from app.tables.registry import TableRegistry


class RegistrySeats:
    """Until the commitments service lands: the registry's own one-table-per-account look, nothing more."""

    def __init__(self, registry: TableRegistry) -> None:
        self.registry = registry

    async def hold(self, user: User, room: str, variant: str) -> None:
        table_id = await self.registry.seated_at(user.id)
        if table_id is not None:
            raise Conflict(f"you are already seated at another table ({table_id}); stand up there first",
                           ErrorCode.ALREADY_SEATED, table_id=table_id, seat=None)

    async def release(self, user_id: int, room: str, variant: str) -> bool:
        return True

    async def seat(self, table_id: str, room: str, variant: str, user_ids: list[int]) -> list[int]:
        return []

    async def unseat(self, table_id: str, room: str, variant: str, user_ids: list[int]) -> list[int]:
        return list(user_ids)


def make_quickplay(state: AppState, journal: TableJournal | None) -> Matcher:
    """The process's quick play and its matcher (``state.quickplay`` is the service the routes use)."""
    s = state.settings
    store: QueueStore = (RedisQueueStore(s.redis_url, prefix=s.redis_prefix) if s.redis_url
                         else LocalQueueStore())
    quickplay = QuickPlay(store, RegistrySeats(state.registry))

    async def table_live(table_id: str) -> bool:
        try:
            await state.registry.lookup(table_id)
            return True
        except Exception:
            return journal is not None and await journal.load(table_id) is not None

    policy = SpreadPolicy(start=s.quickplay_rank_spread, widen_seconds=s.quickplay_spread_widen_seconds)
    return Matcher(state, quickplay, lease=make_lease(state), policy=policy, wave_seconds=s.quickplay_wave_seconds,
                   lease_seconds=s.quickplay_lease_seconds, table_live=table_live)
