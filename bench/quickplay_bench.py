"""Quick play (快速開始): the matcher's CPU per 10,000 queued players, and the time from the last needed
player queueing to every seat receiving its table, with one and two server processes.

    python bench/quickplay_bench.py --cpu                            # the matcher alone (no servers)
    python bench/quickplay_bench.py --database-url postgresql+asyncpg://postgres@127.0.0.1/h_quickplay \\
        --redis-url redis://127.0.0.1:6379/0 --processes 1,2 --tables 30

``--cpu``: 10,000 players spread over the 9 pools, titles at random, waits of 0-120 s: the CPU of one
``form_tables`` pass over every pool, then of a whole wave through the Redis store (read every pool, claim
every formed table: the store's round trips included, no database), each the best of 5.

Latency: for each process count P the database is emptied and P real servers (``python -m app``, Redis,
Postgres) start.  Each round, a table's players open lobby sockets on random processes; all but one queue
(on random processes), then the last one queues at t0; the figure is the time until the last of the
table's lobby sockets has its ``matched`` push.  Reported: p50 / p99 / max over ``--tables`` rounds, for
台灣16張 (4 seats).  The machine is shared: run ``uptime`` beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.game.rooms import RoomKey  # noqa: E402
from app.game.variants import VARIANT_INFO, VariantKey  # noqa: E402
from app.quickplay.matching import QueueEntry, SpreadPolicy, form_tables  # noqa: E402

N_PLAYERS = 10_000
POLICY = SpreadPolicy(start=1, widen_seconds=15.0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _players(rng: random.Random, now: float) -> list[QueueEntry]:
    pools = [(r.value, v.value) for r in RoomKey for v in VariantKey]
    out = []
    for uid in range(N_PLAYERS):
        room, variant = rng.choice(pools)
        title = rng.randrange(16)
        out.append(QueueEntry(uid, f"p{uid}", room, variant, now - rng.uniform(0, 120), title, title * 1000))
    return out


def _form_all(players: list[QueueEntry], now: float) -> int:
    by_pool: dict[tuple[str, str], list[QueueEntry]] = {}
    for e in players:
        by_pool.setdefault((e.room, e.variant), []).append(e)
    rng = random.Random(1)
    return sum(len(form_tables(members, VARIANT_INFO[VariantKey(v)].seats, now=now, policy=POLICY, rng=rng))
               for (_r, v), members in by_pool.items())


async def _redis_wave(redis_url: str, players: list[QueueEntry], now: float) -> tuple[float, float, int]:
    from app.quickplay.redis_store import RedisQueueStore

    best_cpu, best_wall, tables = float("inf"), float("inf"), 0
    for _ in range(5):
        prefix = f"bench{secrets.token_hex(4)}"
        store = RedisQueueStore(redis_url, prefix=prefix)
        try:
            for e in players:
                await store.add(e)
            cpu, wall = time.process_time(), time.perf_counter()
            tables = 0
            rng = random.Random(1)
            for room in RoomKey:
                for variant in VariantKey:
                    members = await store.members(room.value, variant.value)
                    for group in form_tables(members, VARIANT_INFO[variant].seats, now=now, policy=POLICY, rng=rng):
                        tables += await store.claim(secrets.token_hex(6), group)
            best_cpu = min(best_cpu, time.process_time() - cpu)
            best_wall = min(best_wall, time.perf_counter() - wall)
        finally:
            keys = [k async for k in store.redis.scan_iter(f"{prefix}:*")]
            for i in range(0, len(keys), 1000):
                await store.redis.delete(*keys[i:i + 1000])
            await store.close()
    return best_cpu, best_wall, tables


def cpu_bench(redis_url: str | None) -> None:
    now = time.time()
    players = _players(random.Random(25), now)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        tables = _form_all(players, now)
        best = min(best, time.process_time() - start)
    print(f"form_tables over {N_PLAYERS:,} queued players in 9 pools: {best * 1000:.1f} ms CPU, {tables} tables")
    if redis_url:
        cpu, wall, tables = asyncio.run(_redis_wave(redis_url, players, now))
        print(f"a whole wave through the Redis store ({N_PLAYERS:,} players, {tables} claims): "
              f"{cpu * 1000:.0f} ms CPU in the matcher, {wall * 1000:.0f} ms wall")


async def latency_bench(database_url: str, redis_url: str, processes: int, rounds: int, log_dir: Path) -> None:
    import httpx
    import websockets

    from tests.app.quickplay.test_quickplay_cluster import _reset
    from tests.app.support.live_server import ServerProcess, register

    await _reset(database_url)
    prefix = f"bench{secrets.token_hex(4)}"
    env = {"REDIS_URL": redis_url, "REDIS_PREFIX": prefix, "LOBBY_CHANNEL": f"{prefix}:lobby",
           "TOURNAMENT_DIRECTOR": "false", "LOG_FORMAT": "json"}
    servers = [ServerProcess(database_url, log_dir / f"quickplay-bench-{processes}-{i}.log", **env)
               for i in range(processes)]
    seats = VARIANT_INFO[VariantKey.TAIWAN].seats
    rng = random.Random(7)
    try:
        await servers[0].start()
        await asyncio.gather(*(s.start() for s in servers[1:]))
        urls = [s.url for s in servers]
        gate = asyncio.Semaphore(4)

        async def account(i: int) -> dict:
            async with gate:
                return await register(urls[i % processes], f"b{processes}_{i}_{secrets.token_hex(2)}")
        players = list(await asyncio.gather(*(account(i) for i in range(rounds * seats))))
        waits: list[float] = []
        async with httpx.AsyncClient(timeout=30) as client:
            for r in range(rounds):
                group = players[r * seats:(r + 1) * seats]
                sockets = [await websockets.connect(rng.choice(urls).replace("http", "ws", 1) + "/ws/lobby",
                                                    additional_headers={"Authorization": f"Bearer {p['token']}"})
                           for p in group]
                for ws in sockets:
                    await ws.recv()  # the snapshot
                for p in group[:-1]:
                    await client.post(f"{rng.choice(urls)}/api/rooms/beginner/queue", headers=p["headers"],
                                      json={"variant": "taiwan"})
                t0 = time.perf_counter()
                await client.post(f"{rng.choice(urls)}/api/rooms/beginner/queue", headers=group[-1]["headers"],
                                  json={"variant": "taiwan"})

                async def matched(ws) -> float:  # noqa: ANN001
                    while True:
                        if json.loads(await ws.recv()).get("type") == "matched":
                            return time.perf_counter()
                done = await asyncio.wait_for(asyncio.gather(*(matched(ws) for ws in sockets)), 30)
                waits.append(max(done) - t0)
                for ws in sockets:
                    await ws.close()
        print(f"{processes} process(es), {rounds} tables of {seats}: last needed player queues -> every seat "
              f"has its table: p50 {percentile(waits, 0.5) * 1000:.0f} ms, p99 {percentile(waits, 0.99) * 1000:.0f} ms, "
              f"max {max(waits) * 1000:.0f} ms")
    finally:
        for s in servers:
            s.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu", action="store_true", help="the matcher's CPU only (no servers)")
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL"))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL"))
    parser.add_argument("--processes", default="1,2")
    parser.add_argument("--tables", type=int, default=30, help="rounds (tables seated) per process count, <= 200")
    args = parser.parse_args()
    cpu_bench(args.redis_url)
    if args.cpu:
        return
    if not (args.database_url and args.redis_url):
        sys.exit("the latency needs --database-url (Postgres) and --redis-url")
    log_dir = Path(os.environ.get("TMPDIR", "/tmp"))
    for processes in [int(p) for p in args.processes.split(",")]:
        asyncio.run(latency_bench(args.database_url, args.redis_url, processes, min(args.tables, 200), log_dir))


if __name__ == "__main__":
    main()
