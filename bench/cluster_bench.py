"""Several server processes on one Postgres + Redis: tables held at p99, and the relay's extra latency.

    python bench/cluster_bench.py --database-url postgresql+asyncpg://postgres@127.0.0.1/bench \\
        --redis-url redis://127.0.0.1:6379/5 --processes 1,2,4 --tables 200 --seconds 30
    python bench/cluster_bench.py ... --processes 1,2 --owner-routing    # sockets routed to their table's owner

For each process count P: the database is emptied, P real servers (``python -m app``, cluster mode) start
on loopback ports, ``--tables`` practice tables are opened through random processes (each is owned by the
process that opened it), and each table's player connects its socket to a random process, so about
(P-1)/P of the sockets are relayed to their table's owner through Redis.  With ``--owner-routing`` (behind
nginx) the processes are named (``NODE_NAME`` n0, n1, ...), each client asks ``POST /api/ws-ticket?table=``
for its table's owner and opens its socket with ``?node=``, which nginx routes to that process.  The clients (this process,
uvloop) answer every prompt at once and time each discard until its discard event comes back.

Reported per P: discard → event p50/p99/max over all sockets, and separately for sockets on the owner
(direct) and on another process (relayed): the relay's extra latency per message is the difference, in the
same run.  Plus hands settled, messages/s, each server's CPU and wake-ups (voluntary context switches) a
second, and the journal's commits and table writes a second (from each server's ``/metrics``).  ``--pin``
pins server i to core i, to tell the servers' own cost from the cost of sharing cores with each other;
``--slack-ms`` and ``--gather-ms`` set every server's timer slack and journal gather window.  The
machine is shared: run ``uptime`` beside it.  Bounded: at most 2,000 tables, 8 processes and 300 s per run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from nginx_front import NginxFront  # noqa: E402
from server_bench import percentile, pick  # noqa: E402

SECRET = "bench-secret-" + "x" * 40


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True, help="a Postgres database (emptied first)")
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--processes", default="1,2,4", help="comma-separated process counts")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time after the warm-up")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--time-scale", type=float, default=0.1, help="TABLE_TIME_SCALE")
    parser.add_argument("--bot-delay", type=float, default=0.2, help="TABLE_BOT_DELAY_SECONDS")
    parser.add_argument("--hold", type=float, default=0.1, help="TABLE_CLAIM_HOLD_SECONDS")
    parser.add_argument("--nginx", action="store_true", help="clients go through our own nginx (deploy/nginx.local.conf, "
                        "bench/nginx_front.py), which spreads them at random over the processes")
    parser.add_argument("--pin", action="store_true", help="pin server i to core i (mod the cores), the clients, "
                        "nginx, Postgres and Redis left to float: each server keeps its core's caches, as servers on "
                        "their own machines or cores would")
    parser.add_argument("--pin-cores", default=None, help="comma-separated cores: server i pinned to the i-th "
                        "(implies --pin).  Run the bench under `taskset -c` on the other cores to give the servers "
                        "cores of their own")
    parser.add_argument("--owner-routing", action="store_true", help="behind nginx (implies --nginx), each "
                        "socket routed to its table's owner by the ticket's node (bench/nginx_front.py)")
    parser.add_argument("--slack-ms", type=float, default=None, help="TABLE_TIMER_SLACK_MS (default: the product's)")
    parser.add_argument("--gather-ms", type=float, default=None,
                        help="TABLE_JOURNAL_GATHER_MS (default: the product's)")
    args = parser.parse_args(argv)
    args.nginx = args.nginx or args.owner_routing
    args.cores = [int(c) for c in args.pin_cores.split(",")] if args.pin_cores else None
    args.pin = args.pin or bool(args.cores)
    args.tables = max(1, min(args.tables, 2000))
    args.seconds = max(1.0, min(args.seconds, 300.0))
    args.counts = [max(1, min(int(p), 8)) for p in args.processes.split(",")]
    return args


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    def __init__(self, args: argparse.Namespace, prefix: str, migrate: bool, log: Path, port: int = 0,
                 node: str = "") -> None:
        self.port = port or free_port()
        self.node = node
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLE_", "REDIS"))}
        env.update(
            DATABASE_URL=args.database_url, REDIS_URL=args.redis_url, REDIS_PREFIX=prefix, PORT=str(self.port),
            HOST="127.0.0.1", SECRET_KEY=SECRET, ENVIRONMENT="development", MIGRATE_ON_STARTUP=str(migrate),
            TOURNAMENT_DIRECTOR="false", TABLE_TIME_SCALE=str(args.time_scale),
            TABLE_BOT_DELAY_SECONDS=str(args.bot_delay), TABLE_CLAIM_HOLD_SECONDS=str(args.hold),
            TABLE_HAND_PAUSE_SECONDS="0.5", TABLE_RATE_LIMIT_MESSAGES="1000000", TABLE_JOIN_SECONDS="120",
            SOCKETS_PER_IP="100000", PYTHONUNBUFFERED="1", NODE_NAME=node)
        if args.slack_ms is not None:
            env["TABLE_TIMER_SLACK_MS"] = str(args.slack_ms)
        if args.gather_ms is not None:
            env["TABLE_JOURNAL_GATHER_MS"] = str(args.gather_ms)
        with log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=out,
                                         stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"

    async def ready(self) -> None:
        import httpx

        async with httpx.AsyncClient() as client:
            for _ in range(600):
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited {self.proc.returncode}")
                try:
                    if (await client.get(f"{self.url}/healthz", timeout=2)).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
        raise RuntimeError("server did not start")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def wakeups(self) -> int:
        """Voluntary context switches so far: each is the process going to sleep (its loop waiting in epoll, most
        of them), so their rate is how often it woke."""
        for ln in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if ln.startswith("voluntary_ctxt_switches:"):
                return int(ln.split()[1])
        return 0

    async def journal_batches(self) -> tuple[float, float]:
        """(batches committed, table writes in them) so far, from the process's own /metrics."""
        import httpx

        async with httpx.AsyncClient() as client:
            text = (await client.get(f"{self.url}/metrics", timeout=10)).text
        found = {name: float(value) for name, value in (ln.split()[:2] for ln in text.splitlines()
                 if ln.startswith("mahjong_journal_batch_units_"))}
        return found.get("mahjong_journal_batch_units_count", 0.0), found.get("mahjong_journal_batch_units_sum", 0.0)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def empty_postgres(url: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


async def make_players(url: str, n: int) -> list[tuple[int, str]]:
    """Accounts straight into the database (argon2 registration is too slow for hundreds), with tokens."""
    from sqlalchemy import insert, select

    from app.core.config import Settings
    from app.core.db import make_engine, make_sessionmaker
    from app.models import User
    from app.services.sessions import open_session

    engine = make_engine(url)
    names = [f"cb{i}" for i in range(n)]
    async with make_sessionmaker(engine)() as session:
        await session.execute(insert(User), [
            {"username": x, "username_key": x, "password_hash": "!", "coins": 0} for x in names])
        await session.commit()
        ids = dict((await session.execute(select(User.username, User.id))).all())
        settings = Settings(_env_file=None, database_url=url)  # type: ignore[call-arg]
        tokens = [(await open_session(session, ids[x], settings, user_agent="bench", address="bench"))[1]
                  for x in names]
    await engine.dispose()
    return list(zip([ids[x] for x in names], tokens, strict=True))


async def one_client(url: str, table_id: str, token: str, stats: dict[str, Any], tag: str, deadline: float,
                     measure_from: float, owner_routing: bool = False) -> None:
    """``tag`` "direct" / "relayed"; behind nginx it is the owner's address, compared with the one nginx
    chose (``X-Upstream``)."""
    import websockets

    rng = random.Random(table_id)
    ws_url = url.replace("http", "ws", 1) + f"/ws/table/{table_id}"
    if owner_routing:  # the ticket's answer names the table's owner; nginx routes ?node= to it
        import httpx

        async with httpx.AsyncClient(timeout=60) as client:
            answer = await client.post(f"{url}/api/ws-ticket", params={"table": table_id},
                                       headers={"Authorization": f"Bearer {token}"})
            answer.raise_for_status()
        if answer.json().get("node"):
            ws_url += f"?node={answer.json()['node']}"
    async with websockets.connect(ws_url, max_size=2**22, ping_interval=None, open_timeout=60,
                                  additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        if tag not in ("direct", "relayed"):
            tag = "direct" if ws.response.headers.get("X-Upstream") == tag else "relayed"
        pinger = asyncio.create_task(_ping(ws, deadline))
        try:
            await _read(ws, rng, stats, tag, deadline, measure_from)
        finally:
            pinger.cancel()


async def _ping(ws: Any, deadline: float) -> None:
    """A ping every 0.5 s: ping → pong crosses the same path as an action but writes no journal."""
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        await ws.send(json.dumps({"type": "ping", "t": time.perf_counter()}))


async def _read(ws: Any, rng: random.Random, stats: dict[str, Any], tag: str, deadline: float,
                measure_from: float) -> None:
    sent_at: float | None = None
    while time.monotonic() < deadline:
        try:
            raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
        except TimeoutError:
            break
        now = time.perf_counter()
        measuring = time.monotonic() >= measure_from
        message = json.loads(raw)
        kind = message["type"]
        if measuring:
            stats["messages"] += 1
            stats[f"messages_{tag}"] += 1
        if kind == "pong" and measuring and message.get("t"):
            stats[f"pong_{tag}"].append((now - message["t"]) * 1000)
        if kind == "event" and message["event"]["type"] == "discard" and sent_at is not None:
            if measuring:
                stats[tag].append((now - sent_at) * 1000)
            sent_at = None
        elif kind == "prompt":
            action = pick(message, rng)
            if action["kind"] == "discard":
                sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "v": message["v"], "action": action}))
        elif kind == "hand_result" and measuring:
            stats["hands"] += 1
        elif kind == "game_over":
            break


async def run(args: argparse.Namespace, count: int, logdir: Path) -> dict[str, Any]:
    import httpx

    await empty_postgres(args.database_url)
    prefix = f"cb{secrets.token_hex(3)}"
    front: NginxFront | None = None
    node = (lambda i: f"n{i}") if args.owner_routing else (lambda i: "")
    first = Server(args, prefix, True, logdir / f"p{count}-0.log", node=node(0))
    servers = [first]
    try:
        await first.ready()
        servers += [Server(args, prefix, False, logdir / f"p{count}-{i}.log", node=node(i)) for i in range(1, count)]
        if args.pin:
            cores = args.cores or sorted(os.sched_getaffinity(0))
            for i, server in enumerate(servers):
                os.sched_setaffinity(server.proc.pid, {cores[i % len(cores)]})
        await asyncio.gather(*(s.ready() for s in servers[1:]))
        players = await make_players(args.database_url, args.tables)
        if args.nginx:
            front = NginxFront([s.port for s in servers], [s.node for s in servers] if args.owner_routing else None)
            front.start()
        rng = random.Random(count)
        tables = []
        async with httpx.AsyncClient(timeout=60) as client:
            for i, (_uid, token) in enumerate(players):
                owner = rng.choice(servers)
                made = await client.post(f"{front.url if front else owner.url}/api/practice",
                                         headers={"Authorization": f"Bearer {token}"},
                                         json={"variant": ["tiantai", "taipao", "taiwan"][i % 3],
                                               "options": {"rounds": 4}})
                made.raise_for_status()
                if front:  # nginx chose the owner; the socket's process is chosen when it connects
                    tables.append((made.json()["id"], token, made.headers["X-Upstream"], front))
                else:
                    tables.append((made.json()["id"], token, owner, rng.choice(servers)))
        stats: dict[str, Any] = {"messages": 0, "hands": 0, "direct": [], "relayed": [], "pong_direct": [],
                                 "pong_relayed": [], "messages_direct": 0, "messages_relayed": 0}
        started = time.monotonic()
        measure_from, deadline = started + args.warmup, started + args.warmup + args.seconds

        async def readings() -> tuple[float, list[float], list[int], list[tuple[float, float]]]:
            batches = await asyncio.gather(*(s.journal_batches() for s in servers))
            return time.monotonic(), [s.cpu_seconds() for s in servers], [s.wakeups() for s in servers], batches

        async def window() -> None:
            """The processes' figures over the clients' measured window only: not the sockets' ramp, nor their
            closing after the deadline (a slow close once read as seconds of cheap, unconnected tables)."""
            await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
            t0, cpu0, wakes0, batches0 = await readings()
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            t1, cpu1, wakes1, batches1 = await readings()
            elapsed = t1 - t0
            stats["cpu"] = [(b - a) / elapsed for a, b in zip(cpu0, cpu1, strict=True)]
            stats["wakeups"] = [(b - a) / elapsed for a, b in zip(wakes0, wakes1, strict=True)]
            stats["commits"] = sum(b[0] - a[0] for a, b in zip(batches0, batches1, strict=True)) / elapsed
            stats["writes"] = sum(b[1] - a[1] for a, b in zip(batches0, batches1, strict=True)) / elapsed

        measured = asyncio.create_task(window())
        tasks = []
        for table_id, token, owner, socket_on in tables:
            tag = owner if front else "direct" if socket_on is owner else "relayed"
            tasks.append(asyncio.create_task(one_client(socket_on.url, table_id, token, stats, tag, deadline,
                                                        measure_from, args.owner_routing)))
            await asyncio.sleep(0.005)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await measured
        stats["failed"] = sum(isinstance(r, BaseException) for r in results)
        stats["failure_kinds"] = sorted({f"{type(r).__name__}: {r}"[:100] for r in results
                                         if isinstance(r, BaseException)})[:4]
        return stats
    finally:
        if front is not None:
            front.close()
        for server in servers:
            server.stop()


def line(name: str, values: list[float]) -> str:
    return (f"{name:8} p50 {percentile(values, 0.5):6.1f} ms  p99 {percentile(values, 0.99):6.1f} ms  "
            f"max {max(values, default=float('nan')):6.1f} ms  ({len(values)} samples)")


async def main(args: argparse.Namespace) -> int:
    import tempfile

    logdir = Path(tempfile.mkdtemp(prefix="cluster-bench-"))
    print(f"load before: {os.getloadavg()}; logs in {logdir}")
    for count in args.counts:
        stats = await run(args, count, logdir)
        both = stats["direct"] + stats["relayed"]
        extra = percentile(stats["relayed"], 0.5) - percentile(stats["direct"], 0.5)
        print(f"\n== {count} process(es), {args.tables} practice tables, {args.seconds:.0f} s measured "
              f"(load {os.getloadavg()[0]:.1f}), {stats['failed']} client failures {stats['failure_kinds']}")
        print("discard → discard event (the action is journalled in Postgres first):")
        print(line("all", both))
        print(line("direct", stats["direct"]))
        print(line("relayed", stats["relayed"]))
        if stats["direct"] and stats["relayed"]:
            print(f"relay extra latency per message (p50 relayed - p50 direct): {extra:.1f} ms")
        print("ping → pong (the same path through the actor, no journal write):")
        print(line("direct", stats["pong_direct"]))
        print(line("relayed", stats["pong_relayed"]))
        if stats["pong_direct"] and stats["pong_relayed"]:
            p50 = percentile(stats["pong_relayed"], 0.5) - percentile(stats["pong_direct"], 0.5)
            p99 = percentile(stats["pong_relayed"], 0.99) - percentile(stats["pong_direct"], 0.99)
            print(f"relay extra per round trip: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        relayed_share = stats["messages_relayed"] / max(1, stats["messages"])
        print(f"messages through the relay: {relayed_share:.0%} ({stats['messages_relayed']:,} of "
              f"{stats['messages']:,} received by the clients){' behind nginx' if args.nginx else ''}")
        print(f"hands settled {stats['hands']}, messages/s {stats['messages'] / args.seconds:,.0f}, server CPU "
              + ", ".join(f"{c:.0%}" for c in stats["cpu"])
              + f"; summed over the processes {sum(stats['cpu']) / args.tables * 1000:.3f} ms per table-second; "
              + "wake-ups/s " + ", ".join(f"{w:,.0f}" for w in stats["wakeups"]))
        print(f"journal: {stats['commits']:,.1f} commits/s for {stats['writes']:,.1f} table writes/s, summed over "
              f"the processes ({stats['writes'] / max(stats['commits'], 1e-9):.2f} writes per commit)")
    return 0


if __name__ == "__main__":
    import uvloop

    sys.exit(uvloop.run(main(parse_args())))
