"""Journal bench: the action log alone (no sockets, no engine), group commit against one commit per write.

    python bench/journal_bench.py --tables 1000 --rate 0.5 --seconds 10
    python bench/journal_bench.py --database-url postgresql+asyncpg://postgres@127.0.0.1/bench --mode both

``--tables`` simulated tables each open a game and a hand, then append one action every ``1/--rate``
seconds on average (each waits for its own write first, as a table actor does); every 60 actions a table
closes its hand and starts the next.  Reported per mode: writes/s, commits/s (so the mean batch), and the
latency from a write's call to its return (it is durable then) p50/p99/max, plus this process's CPU.
Bounded: at most 5,000 tables and 120 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run_mode(url: str, args: argparse.Namespace, group: bool) -> str:
    from app.core.db import make_engine, migrate
    from app.game.rooms import RoomKey
    from app.game.variants import VariantKey
    from app.tables.durability.journal import MatchState, TableJournal
    from app.tables.fairness import new_wall_seed
    from app.tables.registry import TableInfo

    if url.startswith("postgresql"):
        from bench.server_bench import _empty_postgres

        await _empty_postgres(url)
    engine = make_engine(url)
    await migrate(engine)
    from app.tables.settings import TableSettings

    settings = TableSettings(_env_file=None)  # type: ignore[call-arg]
    if url.startswith("sqlite"):  # as the runtime does for durable tables on SQLite
        sys.setswitchinterval(settings.sqlite_switch_interval_ms / 1000)
    journal = TableJournal(engine, serial=url.startswith("sqlite"), group_commit=group,
                           writers=settings.journal_writers, hold_connections=not url.startswith("sqlite"))
    match = MatchState(0, 0, 0, 0, 0, [0] * 4, [0] * 4)
    latencies: list[float] = []
    stop = time.monotonic() + args.warmup + args.seconds
    measure_from = time.monotonic() + args.warmup

    async def table(i: int) -> None:
        rng = random.Random(i)
        table_id = f"b{i}"
        info = TableInfo(id=table_id, room=RoomKey.BEGINNER, variant=VariantKey.TAIWAN, options={},
                         seats=[1, 2, 3, 4], seat_names=["a", "b", "c", "d"])
        await journal.open_game(info, "g", 1, match)
        hand, n = 1, 0
        await journal.hand_started(table_id, 1, hand, new_wall_seed(), v=1)
        while time.monotonic() < stop:
            await asyncio.sleep(rng.expovariate(args.rate))
            steps = []
            if n == 60:
                steps.append(journal.hand_closed_step(table_id, 1, "g", hand, match, v=n))
                hand, n = hand + 1, 0
                steps.append(journal.hand_started_step(table_id, 1, hand, new_wall_seed(), v=n))
            steps.append(journal.append_step(table_id, 1, "g", hand, n, [{"kind": "discard", "seat": n % 4,
                                                                          "tile": "5m"}], v=n))
            started = time.perf_counter()
            await journal.write(steps)
            if time.monotonic() >= measure_from:
                latencies.append((time.perf_counter() - started) * 1000)
            n += 1

    tasks = [asyncio.create_task(table(i)) for i in range(args.tables)]
    await asyncio.sleep(args.warmup)
    writes, commits, cpu = journal.writes, journal.commits, time.process_time()
    await asyncio.gather(*tasks)
    writes, commits, cpu = journal.writes - writes, journal.commits - commits, time.process_time() - cpu
    await journal.close()
    await engine.dispose()
    s = args.seconds
    return (f"{'group commit' if group else 'one commit per write':22s} {writes / s:7,.0f} writes/s in "
            f"{commits / s:6,.0f} commits/s (batch {writes / max(commits, 1):5.1f}); write → durable p50 "
            f"{percentile(latencies, 0.5):7.1f} ms, p99 {percentile(latencies, 0.99):7.1f} ms, max "
            f"{max(latencies, default=float('nan')):7.1f} ms; CPU {cpu / s:.0%}")


async def main(args: argparse.Namespace) -> int:
    modes = {"both": [False, True], "group": [True], "single": [False]}[args.mode]
    print(f"{args.tables} tables, {args.rate} actions/s each, {args.seconds:.0f} s after {args.warmup:.0f} s "
          f"warm-up, {'Postgres' if args.database_url else 'SQLite'}")
    for group in modes:
        with tempfile.TemporaryDirectory() as tmp:
            url = args.database_url or f"sqlite+aiosqlite:///{tmp}/journal.sqlite3"
            print(await run_mode(url, args, group), flush=True)
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=0.5, help="actions per second per table")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--mode", default="both", choices=["both", "group", "single"])
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    args.tables = max(1, min(args.tables, 5000))
    args.seconds = max(1.0, min(args.seconds, 120.0))
    return args


if __name__ == "__main__":
    import uvloop

    sys.exit(uvloop.run(main(parse_args())))
