"""Issue 25: the quick-play queue's stores (in process; Redis when REDIS_URL is set) and the matcher's
recovery of a claim whose matcher died mid-match: a player is either seated or still queued."""

from __future__ import annotations

import os
import secrets
import time

import pytest

from app.quickplay.matching import QueueEntry
from app.quickplay.redis_store import RedisQueueStore
from app.quickplay.store import LocalQueueStore
from tests.app.support.cluster_harness import forget_keys

REDIS_URL = os.environ.get("REDIS_URL")


def _entry(uid: int, variant: str = "tiantai") -> QueueEntry:
    return QueueEntry(uid, f"p{uid}", "beginner", variant, time.time() - uid, 0, 0)


@pytest.fixture(params=["local"] + (["redis"] if REDIS_URL else []))
async def store(request):  # noqa: ANN001, ANN201
    if request.param == "local":
        yield LocalQueueStore()
        return
    prefix = f"t{secrets.token_hex(4)}"  # this test's own keys in the shared Redis
    found = RedisQueueStore(str(REDIS_URL), prefix=prefix)
    try:
        yield found
    finally:
        await forget_keys(found.redis, prefix)
        await found.close()


async def test_one_entry_per_player_and_remove_is_idempotent(store):
    a = _entry(1)
    assert await store.add(a) == a
    assert await store.add(_entry(1, "taiwan")) == a  # the entry held wins; no second pool
    assert await store.members("beginner", "taiwan", 1) == []
    assert await store.sizes() == {("beginner", "tiantai", 1): 1}
    assert await store.remove(1) == a
    assert await store.remove(1) is None
    assert await store.entry(1) is None and await store.sizes() == {}


async def test_a_claim_is_all_or_nothing(store):
    entries = [_entry(uid) for uid in (1, 2, 3)]
    for e in entries:
        await store.add(e)
    await store.remove(2)
    assert await store.claim("T1", entries) is False  # 2 left: nothing moves
    assert sorted(e.user_id for e in await store.members("beginner", "tiantai", 1)) == [1, 3]
    await store.add(entries[1])
    assert await store.claim("T1", entries) is True
    assert await store.claim("T2", entries) is False  # never matched twice
    await store.add(_entry(9))
    assert await store.claim("T1", [_entry(9)]) is False  # a table id claims once
    assert (await store.remove(9)).user_id == 9
    assert await store.members("beginner", "tiantai", 1) == []
    assert await store.remove(1) is None  # a claimed player is not in a pool; the claim decides
    assert (await store.entry(1)) == entries[0]  # still shown as queued while being seated
    [claim] = await store.claims()
    assert claim.table_id == "T1" and claim.entries == entries


async def test_finish_marks_the_table_and_give_back_restores_since(store):
    entries = [_entry(uid) for uid in (1, 2, 3)]
    for e in entries:
        await store.add(e)
    assert await store.claim("T1", entries)
    await store.give_back("T1", entries[:2])  # 3 left the queue meanwhile
    assert await store.claims() == []
    back = {e.user_id: e for e in await store.members("beginner", "tiantai", 1)}
    assert sorted(back) == [1, 2] and back[1].since == entries[0].since
    assert await store.entry(3) is None
    await store.add(entries[2])
    assert await store.claim("T2", entries)
    await store.finish("T2")
    await store.finish("T2")  # a second resolver finds it gone
    await store.give_back("T2", entries)  # and cannot put the seated players back
    assert await store.members("beginner", "tiantai", 1) == [] and await store.claims() == []
    matched = await store.matched(2)
    assert matched is not None and (matched.table_id, matched.variant) == ("T2", "tiantai")
    assert abs(matched.since - entries[1].since) < 1e-3
    await store.forget_matched(2)
    assert await store.matched(2) is None
