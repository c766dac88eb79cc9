"""The quick-play queue in Redis (several processes): the same store as ``LocalQueueStore``.

Keys, under ``{prefix}:quickplay:``:

* ``pool:{room}:{variant}:{rounds}``: hash user id → entry (JSON);
* ``where``: hash user id → ``{room}:{variant}:{rounds}`` while queued, ``@{table_id}`` while claimed;
* ``claims``: hash table id → ``{"at", "entries"}``;
* ``matched:{user id}``: the matched marker (JSON), expiring after ``MATCHED_TTL_SECONDS``.

Every change is one Lua script, so a queue, a cancel and a claim from different processes never interleave.
Entries are lost only if Redis loses its data (documented: the client queues again).

A command on a pooled connection that Redis closed (it restarted) is sent once more on a new connection
(``retry_on_error``), so the first request after a restart is answered.  The scripts may run twice then: a
second ``_ADD``/``_REMOVE``/``_END_CLAIM`` finds its work done; a second ``_CLAIM`` says 0, and recovery
gives that claim's players back (app.quickplay.matcher).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.quickplay.matching import DEFAULT_QUICK_PLAY_ROUNDS, QUICK_PLAY_ROUNDS, QueueEntry
from app.quickplay.store import MATCHED_TTL_SECONDS, Claim, Matched, Pool

_ADD = """
local w = redis.call('hget', KEYS[1], ARGV[1])
if w then return w end
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
redis.call('hset', KEYS[2], ARGV[1], ARGV[3])
return false
"""
_REMOVE = """
local w = redis.call('hget', KEYS[1], ARGV[1])
if (not w) or string.sub(w, 1, 1) == '@' then return false end
local pool = ARGV[2] .. w
local e = redis.call('hget', pool, ARGV[1])
redis.call('hdel', pool, ARGV[1])
redis.call('hdel', KEYS[1], ARGV[1])
return e
"""
_CLAIM = """
if redis.call('hexists', KEYS[3], ARGV[1]) == 1 then return 0 end
for i = 3, #ARGV do
  if redis.call('hexists', KEYS[2], ARGV[i]) == 0 then return 0 end
end
for i = 3, #ARGV do
  redis.call('hdel', KEYS[2], ARGV[i])
  redis.call('hset', KEYS[1], ARGV[i], '@' .. ARGV[1])
end
redis.call('hset', KEYS[3], ARGV[1], ARGV[2])
return 1
"""
# Both end a claim once: a second resolver (a recovering matcher racing the first) finds it gone.
_END_CLAIM = """
local c = redis.call('hget', KEYS[2], ARGV[1])
if not c then return 0 end
redis.call('hdel', KEYS[2], ARGV[1])
for _, e in ipairs(cjson.decode(c)['entries']) do
  local uid = tostring(e['user_id'])
  if redis.call('hget', KEYS[1], uid) == '@' .. ARGV[1] then redis.call('hdel', KEYS[1], uid) end
  if ARGV[3] ~= '' then
    redis.call('set', ARGV[2] .. uid, cjson.encode({table_id = ARGV[1], room = e['room'],
               variant = e['variant'], since = e['since'], rounds = e['rounds']}), 'EX', ARGV[3])
  end
end
for i = 4, #ARGV, 3 do
  if not redis.call('hget', KEYS[1], ARGV[i]) then
    redis.call('hset', KEYS[1], ARGV[i], ARGV[i + 1])
    redis.call('hset', ARGV[2] .. ARGV[i + 1], ARGV[i], ARGV[i + 2])
  end
end
return 1
"""


def _pool(room: str, variant: str, rounds: int) -> str:
    return f"{room}:{variant}:{rounds}"


class RedisQueueStore:
    def __init__(self, redis_url: str, *, prefix: str) -> None:
        self.redis: Any = Redis.from_url(redis_url, retry_on_error=[RedisConnectionError, RedisTimeoutError])
        base = f"{prefix}:quickplay:"
        self.pool_prefix, self.where, self.claims_key = f"{base}pool:", f"{base}where", f"{base}claims"
        self.matched_prefix = f"{base}matched:"
        self.poke_channel = f"{base}poke"  # a player queued: the matcher (on any process) need not wait
        self._add, self._remove, self._claim, self._end = (
            self.redis.register_script(s) for s in (_ADD, _REMOVE, _CLAIM, _END_CLAIM))

    def _pool_key(self, room: str, variant: str, rounds: int) -> str:
        return self.pool_prefix + _pool(room, variant, rounds)

    async def add(self, entry: QueueEntry) -> QueueEntry:
        already_at = await self._add(keys=[self.where, self._pool_key(*entry.pool)],
                                     args=[entry.user_id, _pool(*entry.pool),
                                           json.dumps(entry.to_json())])
        if already_at is None:
            with contextlib.suppress(RedisError, OSError):  # a lost poke: the next wave comes anyway
                await self.redis.publish(self.poke_channel, entry.variant)
            return entry
        found = await self.entry(entry.user_id)
        return found or entry  # resolved meanwhile: the caller's entry is as good as any

    async def remove(self, user_id: int) -> QueueEntry | None:
        raw = await self._remove(keys=[self.where], args=[user_id, self.pool_prefix])
        return QueueEntry.of(json.loads(raw)) if raw else None

    async def entry(self, user_id: int) -> QueueEntry | None:
        where = await self.redis.hget(self.where, user_id)
        if where is None:
            return None
        where = where.decode()
        if where.startswith("@"):
            raw = await self.redis.hget(self.claims_key, where[1:])
            entries = json.loads(raw)["entries"] if raw else []
            return next((QueueEntry.of(e) for e in entries if e["user_id"] == user_id), None)
        raw = await self.redis.hget(self.pool_prefix + where, user_id)
        return QueueEntry.of(json.loads(raw)) if raw else None

    async def claim_of(self, user_id: int) -> str | None:
        where = await self.redis.hget(self.where, user_id)
        return where.decode()[1:] if where is not None and where.startswith(b"@") else None

    async def members(self, room: str, variant: str, rounds: int) -> list[QueueEntry]:
        return [QueueEntry.of(json.loads(v)) for v in await self.redis.hvals(self._pool_key(room, variant, rounds))]

    async def sizes(self) -> dict[Pool, int]:
        pools = [(r.value, v.value, n) for r in RoomKey for v in VariantKey for n in QUICK_PLAY_ROUNDS]
        async with self.redis.pipeline(transaction=False) as pipe:
            for pool in pools:
                pipe.hlen(self._pool_key(*pool))
            counts = await pipe.execute()
        return {pool: int(n) for pool, n in zip(pools, counts, strict=True) if n}

    async def claim(self, table_id: str, entries: list[QueueEntry]) -> bool:
        first = entries[0]
        body = json.dumps({"at": time.time(), "entries": [e.to_json() for e in entries]})
        done = await self._claim(keys=[self.where, self._pool_key(*first.pool), self.claims_key],
                                 args=[table_id, body, *(e.user_id for e in entries)])
        return bool(done)

    async def give_back(self, table_id: str, entries: list[QueueEntry]) -> None:
        requeued_args = [x for e in entries for x in (e.user_id, _pool(*e.pool), json.dumps(e.to_json()))]
        await self._end(keys=[self.where, self.claims_key], args=[table_id, self.pool_prefix, "", *requeued_args])

    async def finish(self, table_id: str) -> None:
        await self._end(keys=[self.where, self.claims_key],
                        args=[table_id, self.matched_prefix, MATCHED_TTL_SECONDS])

    async def claims(self) -> list[Claim]:
        found = await self.redis.hgetall(self.claims_key)
        out = []
        for table_id, raw in found.items():
            body = json.loads(raw)
            out.append(Claim(table_id.decode(), float(body["at"]), [QueueEntry.of(e) for e in body["entries"]]))
        return out

    async def matched(self, user_id: int) -> Matched | None:
        raw = await self.redis.get(f"{self.matched_prefix}{user_id}")
        if raw is None:
            return None
        body = json.loads(raw)
        return Matched(str(body["table_id"]), str(body["room"]), str(body["variant"]), float(body["since"]),
                       int(body.get("rounds", DEFAULT_QUICK_PLAY_ROUNDS)))

    async def forget_matched(self, user_id: int) -> None:
        await self.redis.delete(f"{self.matched_prefix}{user_id}")

    async def pokes(self, joined: asyncio.Event) -> None:
        """Set ``joined`` whenever a player queues on any process (runs until cancelled).  Pub/sub may lose a
        poke; the next wave comes anyway."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.poke_channel)
            while True:
                try:
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            joined.set()
                except (RedisError, OSError):
                    await asyncio.sleep(1)  # redis-py resubscribes on the next read
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def close(self) -> None:
        await self.redis.aclose()
