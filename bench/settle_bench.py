"""Settlement bench: CPU per hand of ``DatabaseSettler`` (the table side of ``settle_hand``).

    python bench/settle_bench.py --hands 400 --database-url postgresql+asyncpg://postgres@127.0.0.1/bench
    python bench/settle_bench.py --hands 400            # a temporary SQLite file

Plays ``--hands`` short hands with the engine (normal bots, a fixed seed), then settles each one as a
practice hand and as a coin hand (two players and bots, beginner room), ``--concurrency`` at a time, and
prints per kind (practice hands also through the session path, the reference) the process CPU per settled hand and the wall time p50 / p99 of one settlement.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.db import make_engine, make_sessionmaker, migrate  # noqa: E402
from app.game.rooms import RoomKey  # noqa: E402
from app.game.variants import VariantKey  # noqa: E402
from app.models import User  # noqa: E402
from app.tables.durability.settle import DatabaseSettler  # noqa: E402
from app.tables.fairness import new_wall_seed  # noqa: E402
from app.tables.registry import TableInfo  # noqa: E402
from engine.bots import get_policy  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.variants import find_variant  # noqa: E402


def played_hands(n: int, seed: int) -> list:
    """``n`` finished 天台 hands with a result (draws skipped), each with its wall seed."""
    rng = random.Random(seed)
    policy = get_policy("normal")
    out = []
    while len(out) < n:
        wall = new_wall_seed()
        hand = Match(find_variant("tiantai"), first_dealer=0).new_hand(wall.seed)
        while not hand.is_over:
            seat = hand.awaiting()[0]
            hand.apply(policy(hand, seat, rng))
        if hand.result is not None:
            out.append((hand, wall))
    return out


async def settle_all(settler: DatabaseSettler, info: TableInfo, hands: list, concurrency: int
                     ) -> tuple[float, list[float]]:
    """Settle every hand at ``info``'s table, ``concurrency`` at a time: (process CPU seconds, sorted walls)."""
    gate = asyncio.Semaphore(concurrency)
    walls: list[float] = []

    async def one(i: int, hand, wall) -> None:
        async with gate:
            started = time.perf_counter()
            settled = await settler(info, f"{info.id}:g:{i}", hand, wall, i)
            walls.append(time.perf_counter() - started)
            assert settled is not None and not settled.repeated

    cpu = time.process_time()
    await asyncio.gather(*(one(i, h, w) for i, (h, w) in enumerate(hands)))
    return time.process_time() - cpu, sorted(walls)


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    url = args.database_url or f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/settle.sqlite3"
    engine = make_engine(url)
    if url.startswith("postgresql"):
        from sqlalchemy import text

        async with engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
    await migrate(engine)
    sessions = make_sessionmaker(engine)
    async with sessions() as session:
        users = [User(username=f"p{i}", username_key=f"p{i}", password_hash="x", coins=10**9) for i in range(2)]
        session.add_all(users)
        await session.commit()
        uids = [u.id for u in users]
    hands = played_hands(args.hands, 7)
    settler = DatabaseSettler(sessions, serial=url.startswith("sqlite"))
    session_only = DatabaseSettler(sessions, serial=url.startswith("sqlite"))
    session_only.connections = None  # the reference: every hand through settle_hand's session
    runs = [("practice", settler), ("practice via the session", session_only), ("coins", settler)]
    for kind, chosen in runs:
        info = TableInfo(id=f"bench-{kind}", variant=VariantKey.TIANTAI, options={},
                         room=RoomKey.BEGINNER if kind == "coins" else None, seats=[uids[0], uids[1], None],
                         bots=[2], practice=kind != "coins")
        cpu, walls = await settle_all(chosen, info, hands, args.concurrency)
        print(f"{kind:25} {len(hands)} hands: {1e6 * cpu / len(hands):6.0f} µs CPU per hand, one settlement "
              f"p50 {1e3 * statistics.median(walls):.2f} ms, p99 {1e3 * walls[int(0.99 * (len(walls) - 1))]:.2f} ms")
    await settler.close()
    await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main())
