"""Recovery bench: kill -9 a real server mid-hand, start it again, time until play resumes.

    python bench/recovery_bench.py --kills 20 --tables 20
    python bench/recovery_bench.py --kills 20 --database-url postgresql+asyncpg://postgres@127.0.0.1/bench

One ``python -m app`` process (uvicorn, the journal) on a free loopback port holds ``--tables`` practice
tables, each with one scripted player (tests/app/support/live_server.Seat, reconnecting by itself).  Each round:
wait until every table is mid-hand, ``kill -9`` the server, start a new one on the same database and port,
and measure, per table, the time from the kill to the first prompt the resumed table sends its player.
Reported: the median and max over every table of every kill, the restart time alone (process start to
/healthz) and the hands settled.  ``TABLE_RESUME_JOIN_SECONDS`` is short here only if every player is back;
a resumed table starts as soon as its players are.  Bounded: at most 100 kills; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def one_round(server, seats, kill_no: int):  # noqa: ANN001, ANN201 - (waits, restart s, new server)
    from tests.app.support.live_server import ServerProcess

    deadline = time.monotonic() + 60
    while not all(s.hand_no and not s.results.get(s.hand_no) for s in seats):  # every table mid-hand
        if time.monotonic() > deadline:
            raise RuntimeError("tables did not reach a hand in play")
        await asyncio.sleep(0.05)
    for s in seats:
        s.prompts_after_reconnect.clear()
    killed = time.monotonic()
    server.signal(signal.SIGKILL)
    await server.wait(10)
    new = ServerProcess(server.database_url, server.log_path, **server.env)
    new.port = server.port
    started = time.monotonic()
    await new.start()
    restart = time.monotonic() - started
    waits: dict[int, float] = {}
    deadline = time.monotonic() + 60
    while len(waits) < len(seats) and time.monotonic() < deadline:
        for i, s in enumerate(seats):
            if i not in waits and s.prompts_after_reconnect:
                waits[i] = time.monotonic() - killed
        await asyncio.sleep(0.005)
    if len(waits) < len(seats):
        raise RuntimeError(f"kill {kill_no}: {len(seats) - len(waits)} tables did not resume:\n{new.tail()}")
    return list(waits.values()), restart, new


async def main(args: argparse.Namespace) -> int:
    from tests.app.support.live_server import Seat, ServerProcess, open_table, register

    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/recovery.sqlite3"
        if url.startswith("postgresql"):
            from bench.server_bench import _empty_postgres

            await _empty_postgres(url)
        server = ServerProcess(url, Path(tmp) / "server.log", TABLE_BOT_DELAY_SECONDS="0.2",
                               TABLE_HAND_PAUSE_SECONDS="0.5")
        await server.start()
        seats = []
        for i in range(args.tables):
            player = await register(server.url, f"rec{i}")
            table_id = await open_table(server.url, [player], ["tiantai", "taipao", "taiwan"][i % 3],
                                        practice=True, rounds=4)
            seats.append(Seat([server.url], table_id, player["token"]))
        tasks = [asyncio.create_task(s.run()) for s in seats]
        waits: list[float] = []
        restarts: list[float] = []
        try:
            for k in range(args.kills):
                round_waits, restart, server = await one_round(server, seats, k)
                waits += round_waits
                restarts.append(restart)
                print(f"kill {k + 1:3d}: restart {restart:.2f} s, first resumed prompt after "
                      f"{min(round_waits):.2f}-{max(round_waits):.2f} s", flush=True)
                await asyncio.sleep(args.pause)
        finally:
            for s in seats:
                s.done = True
            for task in tasks:
                task.cancel()
            server.stop()
        hands = sum(len(s.results) for s in seats)
    print(f"kills             {args.kills} (kill -9 mid-hand; {args.tables} practice tables; "
          f"{'Postgres' if args.database_url else 'SQLite'})")
    print(f"kill → first resumed prompt  median {statistics.median(waits):.2f} s, max {max(waits):.2f} s "
          f"({len(waits)} table resumptions)")
    print(f"restart alone (spawn → /healthz)  median {statistics.median(restarts):.2f} s, "
          f"max {max(restarts):.2f} s")
    print(f"hands settled     {hands}")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--pause", type=float, default=0.5, help="play between kills, s")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    args.kills = max(1, min(args.kills, 100))
    args.tables = max(1, min(args.tables, 200))
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
