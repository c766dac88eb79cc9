"""Server load bench: N practice tables, each with one bot client over a real WebSocket on loopback.

    python bench/server_bench.py --tables 100 --seconds 30
    python bench/server_bench.py --tables 1000 --seconds 60 --bot-delay 1.0
    python bench/server_bench.py --tables 200 --durable both     # the action log's cost, same run
    python bench/server_bench.py --tables 100 --durable all      # off, one commit per write, group commit
    python bench/server_bench.py --durable both --database-url postgresql+asyncpg://postgres@127.0.0.1/bench
    python bench/server_bench.py --pace production --tables 1000,3000 --durable both   # throughput, side by side
    python bench/server_bench.py --pace production --shape coin --tables 250     # all-human coin tables

The server (uvicorn, uvloop) runs in this process on 127.0.0.1 with a random port; the clients run in a
child process (the machine's second core).  ``--shape practice`` (the default): each table a practice table
with one client-played seat and server bots in the others (``--bots`` level, default normal; ``--suggest``
adds the practice suggestion to every turn prompt).  ``--shape coin``: each table a coin table of the
beginner room with every seat client-played (no bots; coins move every hand, as in a busy coin room).  The bench shrinks the server's timers (``--time-scale``, ``--bot-delay``, ``--hold``,
``--hand-pause``); clients answer every prompt at once (``--think`` to slow them).

``--pace production`` keeps the server's own timers (``TableSettings``' defaults: bot thinking time,
claim hold, hand pause, real turn times) instead.

Reported: tables, hands finished, messages/s and actions/s received by the clients, and the latency from
a client's discard to the server's discard event coming back (p50/p99/max, measured in the client), plus
the server's event-loop lag, its cyclic-GC pauses and its CPU: per message queued and per table-second, the figures a loaded
machine inflates least.  ``--tables`` takes a list (``1000,3000``): every size runs in every ``--durable``
mode, and a table puts them side by side at the end, with the load average of each run.  Bounded: at most
5,000 tables and 600 s per run; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# BENCH_ROOT: the checkout whose server to run (bench/ab.sh runs this script against every arm's tree, so that
# all arms are measured by the same bench); default: the one this script is in
sys.path.insert(0, os.environ.get("BENCH_ROOT") or str(Path(__file__).resolve().parents[1]))

SECRET = "bench-secret-" + "x" * 40


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="100", help="tables, or a comma-separated list of sizes to run")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured run time after setup")
    parser.add_argument("--shape", default="practice", choices=["practice", "coin"],
                        help="practice: one client seat and bots per table; coin: every seat a client, no bots")
    parser.add_argument("--variant", default="mix", choices=["mix", "tiantai", "taipao", "taiwan"])
    parser.add_argument("--pace", default="bench", choices=["bench", "production"],
                        help="production: the server's default timers (the four options below are ignored)")
    parser.add_argument("--time-scale", type=float, default=0.1, help="multiplies turn/claim seconds")
    parser.add_argument("--bot-delay", type=float, default=0.2, help="server bot thinking time, s")
    parser.add_argument("--hold", type=float, default=0.1, help="claim hold after each discard, s")
    parser.add_argument("--hand-pause", type=float, default=0.5)
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds measured but not reported")
    parser.add_argument("--think", type=float, default=0.0, help="client thinking time, s")
    parser.add_argument("--gc-gen2", type=int, default=100, help="gc threshold2 (Python's default: 10)")
    parser.add_argument("--gc-gen0", type=int, default=None, help="gc threshold0 (default: TableSettings')")
    parser.add_argument("--gc-young", type=float, default=None, help="seconds between paced young "
                        "collections (default: TableSettings.gc_young_interval_seconds; 0: Python's own counts)")
    parser.add_argument("--gather-ms", type=float, default=None, help="TableSettings.journal_gather_ms (default: "
                        "its default)")
    parser.add_argument("--ws", default=None, help="uvicorn WebSocket implementation (default: the product's, "
                        "app.core.serve.WS_OPTIONS)")
    parser.add_argument("--ws-deflate", default=None, choices=["on", "off"],
                        help="permessage-deflate (default: the product's, app.core.serve.WS_OPTIONS)")
    parser.add_argument("--database-url", default=None, help="default: a temporary SQLite file "
                        "(a Postgres database is emptied first)")
    parser.add_argument("--durable", default="on", choices=["on", "off", "single", "both", "all"],
                        help="journal every action before its events go out, with group commit (on) or one "
                        "commit per write (single); both: off then on, all: off, single, on (same run)")
    parser.add_argument("--synchronous-commit", default="on", choices=["on", "off"],
                        help="the action log's commits wait for the WAL flush (Postgres; "
                        "TableSettings.journal_synchronous_commit)")
    parser.add_argument("--bots", default="normal", choices=["easy", "normal", "strong"],
                        help="level of the server bots (app.bots.BotLevel)")
    parser.add_argument("--suggest", action="store_true", help="practice suggestions in every turn prompt")
    parser.add_argument("--gc-census", action="store_true", help="print the server's most common objects the "
                        "cyclic GC tracks, at the end of the run, and what a young collection walks (every "
                        "10th sampled over the run; the sampling costs CPU, so read the other figures from a "
                        "run without it)")
    parser.add_argument("--profile", default=None, help="cProfile the server over the measured run into this "
                        "file (one per mode: FILE.off, FILE.on, ...); read it with python -m pstats")
    args = parser.parse_args(argv)
    args.sizes = [max(1, min(int(n), 5000)) for n in str(args.tables).split(",")]
    args.tables = args.sizes[0]
    if args.pace == "production":
        from app.tables.settings import TableSettings

        fields = TableSettings.model_fields
        args.time_scale = fields["time_scale"].default
        args.bot_delay = fields["bot_delay_seconds"].default
        args.hold = fields["claim_hold_seconds"].default
        args.hand_pause = fields["hand_pause_seconds"].default
    args.seconds = max(1.0, min(args.seconds, 600.0))
    return args


# -- server side -------------------------------------------------------------------------------------------


async def start_server(args: argparse.Namespace, database_url: str) -> tuple[Any, Any, asyncio.Task[None], int]:
    import uvicorn

    from app.core.config import Settings
    from app.main import create_app
    from app.tables.settings import TableSettings

    try:
        from app.tables.hosting.runtime import ProcessRuntime
    except ImportError:  # builds before issue 31 (an A/B partner): the same class under its old name
        from app.tables.cluster.runtime import TableRuntime as ProcessRuntime  # type: ignore[no-redef]

    settings = Settings(_env_file=None, secret_key=SECRET, database_url=database_url,  # type: ignore[call-arg]
                        redis_url=None, web_dir=Path(tempfile.gettempdir()) / "no-web",
                        register_per_ip=10**6, login_per_ip=10**6,  # every bench player is on 127.0.0.1
                        sockets_per_ip=10**6)
    table_settings = TableSettings(_env_file=None, time_scale=args.time_scale,  # type: ignore[call-arg]
                                   bot_delay_seconds=args.bot_delay, auto_play_delay_seconds=args.bot_delay,
                                   claim_hold_seconds=args.hold, hand_pause_seconds=args.hand_pause,
                                   join_seconds=60.0, grace_seconds=0.2, rate_limit_messages=10_000,
                                   outbox_size=4096, gc_gen2_threshold=args.gc_gen2,
                                   **({} if args.gc_gen0 is None else {"gc_gen0_threshold": args.gc_gen0}),
                                   **({} if args.gc_young is None else {"gc_young_interval_seconds": args.gc_young}),
                                   **({} if args.gather_ms is None else {"journal_gather_ms": args.gather_ms}),
                                   durable=args.durable in ("on", "single"),
                                   journal_synchronous_commit=args.synchronous_commit == "on",
                                   group_commit=args.durable == "on")
    app = create_app(settings, table_runtime=ProcessRuntime(table_settings))
    try:
        from app.core.serve import WS_OPTIONS
        ws_options = dict(WS_OPTIONS)
    except ImportError:  # builds before issue 36 (an A/B partner): what this bench always ran
        ws_options = {"ws": "websockets-sansio", "ws_max_size": 65536, "ws_per_message_deflate": False}
    if args.ws is not None:
        ws_options["ws"] = args.ws
    if args.ws_deflate is not None:
        ws_options["ws_per_message_deflate"] = args.ws_deflate == "on"
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", backlog=8192, **ws_options)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, app, task, port


async def make_tables(app: Any, args: argparse.Namespace) -> list[tuple[str, str, bool]]:
    """Accounts straight into the database (registration hashes passwords: too slow for thousands).
    One (table, token, counts hands) per client seat: only one seat of a table counts its hands."""
    from sqlalchemy import insert, select

    from app.models import User
    from app.services.sessions import open_session

    try:
        from app.game.variants import VariantKey
    except ImportError:  # builds before issue 31 (an A/B partner)
        from app.game.variants import Variant as VariantKey  # type: ignore[no-redef,attr-defined]
    variants = list(VariantKey) if args.variant == "mix" else [VariantKey(args.variant)]
    state = app.state.services
    sizes = [_table_seats(variants[i % len(variants)]) if args.shape == "coin" else 1 for i in range(args.tables)]
    names = [f"bench{args.durable}{i}s{s}" for i, n in enumerate(sizes) for s in range(n)]
    async with state.sessionmaker() as session:
        await session.execute(insert(User), [
            {"username": n, "username_key": n, "password_hash": "!", "coins": 10**9} for n in names])
        await session.commit()
        ids = dict((await session.execute(select(User.username, User.id))).all())
    seats = []
    for i, n in enumerate(sizes):
        players = [f"bench{args.durable}{i}s{s}" for s in range(n)]
        if args.shape == "coin":
            from app.game.rooms import RoomKey

            table = await state.registry.create_matched_table(
                room=RoomKey.BEGINNER, variant=variants[i % len(variants)], options={"rounds": 4},
                seats=[(ids[p], p) for p in players], table_id=f"bc{i:010d}")
        else:
            table = await state.registry.create_practice_table(
                variant=variants[i % len(variants)], options={"rounds": 4}, user_id=ids[players[0]],
                username=players[0], bot_level=args.bots, suggest_discard=args.suggest)
        for s, player in enumerate(players):
            async with state.sessionmaker() as session:
                _, token = await open_session(session, ids[player], state.settings, user_agent="bench",
                                              address="bench")
            seats.append((table.id, token, s == 0))
    return seats


def _table_seats(variant: Any) -> int:
    from engine.variants import VARIANTS

    return VARIANTS[str(variant.value)].n_seats


class GcPauses:
    """The server's cyclic-GC pauses per generation while ``on`` (a full collection stops every table)."""

    def __init__(self, census_every: int = 0) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.collected = [0, 0, 0]  # unreachable objects freed (cyclic garbage), per generation
        self.on = False
        self._start = 0.0
        # every ``census_every``-th young collection, count the types it is about to walk
        self.census_every = census_every
        self.young_seen = 0
        self.young_census: collections.Counter[str] = collections.Counter()
        self.young_sampled = 0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if self.on and self.census_every and info["generation"] < 2:
                self.young_seen += 1
                if self.young_seen % self.census_every == 0:
                    self.young_sampled += 1
                    for g in range(info["generation"] + 1):
                        self.young_census.update(type(o).__qualname__ for o in gc.get_objects(g))
            self._start = time.perf_counter()
        elif self.on:
            self.pauses[info["generation"]].append((time.perf_counter() - self._start) * 1000)
            self.collected[info["generation"]] += info["collected"]

    def close(self) -> None:
        gc.callbacks.remove(self._callback)

    def young_line(self, top: int = 15) -> str:
        """What a young collection walked, on average over the sampled ones (the pacer's cost is this)."""
        n = max(1, self.young_sampled)
        total = sum(self.young_census.values()) / n
        return (f"a young collection walks {total:,.0f} objects on average ({self.young_sampled} sampled): "
                + ", ".join(f"{name} {c / n:,.0f}" for name, c in self.young_census.most_common(top)))

    def line(self) -> str:
        return ", ".join(f"gen{g} {len(p)} × (max {max(p, default=0):.1f} ms, total {sum(p):.0f} ms, "
                         f"{self.collected[g]:,} freed)" for g, p in self.pauses.items())


def gc_census(top: int = 15) -> str:
    """What the cyclic GC tracks: the young generations' sizes, what one young collection costs now, and the
    most common types among every tracked object (what a full collection walks)."""
    young = [len(gc.get_objects(g)) for g in (0, 1)]
    started = time.perf_counter()
    gc.collect(0)
    young_ms = (time.perf_counter() - started) * 1000
    objects = gc.get_objects()
    counts = collections.Counter(type(o).__qualname__ for o in objects)
    return (f"generations 0 / 1 hold {young[0]:,} / {young[1]:,} (a young collection now: {young_ms:.1f} ms); "
            f"{len(objects):,} tracked ({gc.get_freeze_count():,} frozen): "
            + ", ".join(f"{name} {n:,}" for name, n in counts.most_common(top)))


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.05)
        samples.append((time.perf_counter() - start - 0.05) * 1000)


# -- client side (child process) ----------------------------------------------------------------------------


def pick(prompt: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    actions = prompt["actions"]
    for a in actions:
        if a["kind"] in ("win", "kill_pig"):
            return a
    if prompt["kind"] != "turn":
        return next((a for a in actions if a["kind"] == "pass"), actions[0])
    plain = [a for a in actions if a["kind"] == "discard" and not a.get("declare")]
    return rng.choice(plain or actions)


async def one_client(port: int, table_id: str, token: str, args: argparse.Namespace, buckets: dict[str, Any],
                     deadline: float, counts_hands: bool = True) -> None:
    import websockets

    rng = random.Random(table_id if counts_hands else table_id + token)
    url = f"ws://127.0.0.1:{port}/ws/table/{table_id}"
    sent_at: float | None = None
    async with websockets.connect(url, max_size=2**22, ping_interval=None, open_timeout=60,
                                  additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            now = time.perf_counter()
            message = json.loads(raw)
            stats = buckets["warmup" if time.monotonic() < buckets["measure_from"] else "main"]
            stats["messages"] += 1
            kind = message["type"]
            if kind == "event":
                event = message["event"]
                if sent_at is not None and event["type"] == "discard":
                    stats["latency"].append((now - sent_at) * 1000)
                    sent_at = None
            elif kind == "prompt":
                if args.think:
                    await asyncio.sleep(args.think)
                action = pick(message, rng)
                if action["kind"] == "discard":
                    sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "v": message["v"], "action": action}))
                stats["actions"] += 1
            elif kind == "hand_result":
                stats["hands"] += counts_hands
            elif kind == "error":
                stats["errors"] += 1
            elif kind == "game_over":
                break


def _bucket() -> dict[str, Any]:
    return {"messages": 0, "actions": 0, "hands": 0, "errors": 0, "latency": []}


async def run_clients(port: int, seats: list[tuple[str, str, bool]], args: argparse.Namespace,
                      mark: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Play every seat until the deadline; ``mark("measure")`` as the measured window opens and ``mark("end")``
    as it closes, so that the server measures the same window (not the clients' start-up nor their closing)."""
    started = time.monotonic()
    deadline = started + args.warmup + args.seconds
    buckets: dict[str, Any] = {"warmup": _bucket(), "main": _bucket(), "measure_from": started + args.warmup}
    loop = asyncio.get_running_loop()
    loop.call_later(args.warmup, mark, "measure")
    loop.call_later(args.warmup + args.seconds, mark, "end")
    tasks = []
    for table_id, token, counts_hands in seats:
        tasks.append(asyncio.create_task(one_client(port, table_id, token, args, buckets, deadline, counts_hands)))
        await asyncio.sleep(0.002)  # a gentle ramp: 500 connections/s
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    stats = buckets["main"]
    stats["warmup_hands"] = buckets["warmup"]["hands"]
    stats["failed"] = len(failures)
    stats["failure_kinds"] = sorted({f"{type(r).__name__}: {r}"[:120] for r in failures})[:5]
    stats["elapsed"] = args.seconds  # the measured window (closing the sockets afterwards is not in it)
    stats["client_cpu"] = time.process_time() / (time.monotonic() - started)
    return stats


def client_main(port: int, seats: list[tuple[str, str, bool]], args: argparse.Namespace, conn: Any) -> None:
    import uvloop

    conn.send(uvloop.run(run_clients(port, seats, args, conn.send)))


# -- report ----------------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_per_message(stats: dict[str, Any], server_msgs: int) -> float:
    """Server CPU µs per message queued (everything the server did, bots and journal included)."""
    return stats["server_cpu"] * stats["elapsed"] / max(1, server_msgs) * 1e6


def report(args: argparse.Namespace, stats: dict[str, Any], lag: list[float], server_msgs: int) -> str:
    elapsed = stats["elapsed"]
    lat = stats["latency"]
    lines = [
        f"tables            {args.tables} ({args.shape}, {args.variant}; "
        f"{'no bots' if args.shape == 'coin' else f'{args.bots} bots'}, bot delay {args.bot_delay}s, "
        f"hold {args.hold}s, time scale {args.time_scale}{', suggestions' if args.suggest else ''})",
        f"run               {elapsed:.1f} s after {args.warmup:.0f} s warm-up, {stats['failed']} client failures "
        f"{stats['failure_kinds']}, "
        f"{stats['errors']} errors",
        f"hands settled     {stats['hands']} (+{stats['warmup_hands']} in the warm-up)",
        f"messages/s        {stats['messages'] / elapsed:,.0f} received by clients "
        f"({server_msgs / elapsed:,.0f} queued by the server)",
        f"client actions/s  {stats['actions'] / elapsed:,.0f}",
        f"discard → event   p50 {percentile(lat, 0.5):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, "
        f"max {max(lat, default=float('nan')):.1f} ms ({len(lat)} samples)",
        f"server: action → messages queued  p50 {percentile(stats['server_latency'], 0.5):.2f} ms, "
        f"p99 {percentile(stats['server_latency'], 0.99):.2f} ms",
        f"server loop lag   p50 {percentile(lag, 0.5):.1f} ms, p99 {percentile(lag, 0.99):.1f} ms",
        f"server GC pauses  {stats['gc']}",
        f"server CPU        {stats['server_cpu']:.0%} of one core (clients: {stats['client_cpu']:.0%}); "
        f"{cpu_per_message(stats, server_msgs):.0f} µs per message queued, "
        f"{stats['server_cpu'] / args.tables * 1000:.3f} ms per table-second",
        f"action log        {args.durable} (synchronous commit {args.synchronous_commit}): "
        f"{stats['journal_writes'] / elapsed:,.0f} journal writes/s in "
        f"{stats['journal_commits'] / elapsed:,.0f} commits/s",
    ]
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> int:
    modes = {"both": ["off", "on"], "all": ["off", "single", "on"]}.get(args.durable, [args.durable])
    code = 0
    rows: list[str] = []
    for size in args.sizes:
        for mode in modes:
            args.tables, args.durable = size, mode
            code |= await run_once(args, rows)
    if len(rows) > 1:
        print(f"\n{args.pace} pace, {args.variant}, {args.bots} bots, "
              f"{'SQLite' if not args.database_url else args.database_url.split('@')[-1]}")
        print("| tables | action log | discard → event p50 | p99 | max | server CPU | messages/s | CPU µs/message "
              "| CPU ms/table-s | loop lag p99 | load (1 min) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        print("\n".join(rows))
    return code


def summary_row(args: argparse.Namespace, stats: dict[str, Any], lag: list[float], server_msgs: int) -> str:
    lat = stats["latency"]
    shape = "" if args.shape == "practice" else f" {args.shape}"
    return (f"| {args.tables:,}{shape} | {args.durable} | {percentile(lat, 0.5):.1f} ms | {percentile(lat, 0.99):.1f} ms "
            f"| {max(lat, default=float('nan')):.1f} ms | {stats['server_cpu']:.0%} "
            f"| {server_msgs / stats['elapsed']:,.0f} | {cpu_per_message(stats, server_msgs):.0f} "
            f"| {stats['server_cpu'] / args.tables * 1000:.3f} | {percentile(lag, 0.99):.1f} ms "
            f"| {os.getloadavg()[0]:.1f} |")


async def _empty_postgres(url: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


async def run_once(args: argparse.Namespace, rows: list[str]) -> int:
    from app.tables.play.outbox import Outbox

    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
        if url.startswith("postgresql"):
            await _empty_postgres(url)
        server, app, serve_task, port = await start_server(args, url)
        seats = await make_tables(app, args)
        parent, child = multiprocessing.get_context("spawn").Pipe()
        proc = multiprocessing.get_context("spawn").Process(target=client_main, args=(port, seats, args, child))
        lag: list[float] = []
        stop = asyncio.Event()
        lag_task = asyncio.create_task(loop_lag(lag, stop))
        proc.start()
        gc_pauses = GcPauses(census_every=10 if args.gc_census else 0)

        async def from_clients() -> Any:
            return await asyncio.get_running_loop().run_in_executor(None, parent.recv)

        # The clients' measured window, not this process's clock: the server's figures once covered the clients'
        # start-up (a spawned process's imports) and their closing of every socket too, and the second, when
        # it was slow, added seconds of tables with nobody connected, cheaper than the rest (issue 36, tenth
        # round): some runs read a third less CPU than their neighbours for it.
        if await from_clients() != "measure":
            raise RuntimeError("the clients did not open the measured window")
        lag.clear()
        gc_pauses.on = True
        sent_before, cpu_before, wall_before = Outbox.sent_total, time.process_time(), time.monotonic()
        runtime = app.state.table_runtime
        writes_before = runtime.journal.writes if runtime.journal else 0
        commits_before = runtime.journal.commits if runtime.journal else 0
        runtime.latencies.clear()
        profiler = None
        if args.profile:
            import cProfile

            # the loop thread's CPU time, not wall time: on a loaded machine wall time charges the OS's
            # preemptions to whatever function happened to be running
            profiler = cProfile.Profile(time.thread_time)
            profiler.enable()
        if await from_clients() != "end":
            raise RuntimeError("the clients did not close the measured window")
        server_cpu = (time.process_time() - cpu_before) / (time.monotonic() - wall_before)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(f"{args.profile}.{args.durable}" if len(args.sizes) == 1
                                else f"{args.profile}.{args.tables}.{args.durable}")
        server_msgs = Outbox.sent_total - sent_before
        writes = (runtime.journal.writes if runtime.journal else 0) - writes_before
        commits = (runtime.journal.commits if runtime.journal else 0) - commits_before
        latencies = [s * 1000 for s in app.state.table_runtime.latencies]
        gc_pauses.close()
        lag_in_window = list(lag)
        stats = await from_clients()
        stats.update(journal_writes=writes, journal_commits=commits, server_cpu=server_cpu,
                     server_latency=latencies)
        stats["gc"] = gc_pauses.line()
        if args.gc_census:
            stats["gc"] += "\n  census          " + gc_census()
            stats["gc"] += "\n  young census    " + gc_pauses.young_line()
        stop.set()
        await lag_task
        proc.join(10)
        server.should_exit = True
        await asyncio.wait_for(serve_task, 30)
    print(report(args, stats, lag_in_window, server_msgs), flush=True)
    rows.append(summary_row(args, stats, lag_in_window, server_msgs))
    return 0 if stats["failed"] == 0 else 1


if __name__ == "__main__":
    import uvloop

    sys.exit(uvloop.run(main(parse_args())))
