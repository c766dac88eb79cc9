"""Building the process's quick play: its store (Redis with ``REDIS_URL``, else in process), the queue
service, and the matcher with its lease (app.quickplay.matcher)."""

from __future__ import annotations

from app.quickplay.commitments import ServiceCommitments
from app.quickplay.matcher import Matcher, make_lease
from app.quickplay.matching import SpreadPolicy
from app.quickplay.redis_store import RedisQueueStore
from app.quickplay.service import QuickPlay
from app.quickplay.store import LocalQueueStore, QueueStore
from app.state import AppState
from app.tables.durability.journal import TableJournal


def make_quickplay(state: AppState, journal: TableJournal | None) -> Matcher:
    """The process's quick play and its matcher (``state.quickplay`` is the service the routes use)."""
    s = state.settings
    store: QueueStore = (RedisQueueStore(s.redis_url, prefix=s.redis_prefix) if s.redis_url
                         else LocalQueueStore())
    quickplay = QuickPlay(store, ServiceCommitments(state.sessionmaker, probe=state.registry.holds),
                          settle_seconds=s.quickplay_lease_seconds)

    async def table_live(table_id: str) -> bool:
        try:
            await state.registry.lookup(table_id)
            return True
        except Exception:
            return journal is not None and await journal.load(table_id) is not None

    async def table_durable(table_id: str) -> bool:
        return journal is None or await journal.load(table_id) is not None

    policy = SpreadPolicy(start=s.quickplay_rank_spread, widen_seconds=s.quickplay_spread_widen_seconds)
    return Matcher(state, quickplay, lease=make_lease(state), policy=policy, wave_seconds=s.quickplay_wave_seconds,
                   lease_seconds=s.quickplay_lease_seconds, table_live=table_live,
                   table_durable=table_durable)
