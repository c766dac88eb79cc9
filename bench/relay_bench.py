"""The relay alone: what a hop through Redis pub/sub between two processes costs (app.tables.cluster.relay).

    python bench/relay_bench.py --redis-url redis://127.0.0.1:6379/5 --rates 100,1000,4000 --seconds 10

Two processes, each with a ``Relay`` as the server uses it: the *holder* sends ``in`` records (a client
message, raw) at the given rate; the *owner* answers each with an ``out`` record of a 300-byte message,
as a table answers a discard; the holder times the round trip.  No database, no table actor: this is the
relay's own extra latency (two hops: client message in, table message out) that a relayed socket pays on
top of a socket on the owner.  Reported per rate: round trip p50/p99/max and both processes' CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MESSAGE = json.dumps({"type": "event", "v": 1, "hand_no": 1, "event": {"type": "discard", "seat": 2,
                                                                      "tile": "5p", "pad": "x" * 220}})


def owner_main(redis_url: str, prefix: str, ready: Any) -> None:
    import uvloop
    from redis.asyncio import Redis

    from app.tables.cluster.relay import Relay

    async def run() -> None:
        redis = Redis.from_url(redis_url)
        relay: Relay

        def on_record(header: dict[str, Any], _texts: list[str]) -> None:
            if header.get("k") == "in":
                relay.send("holder", {"k": "out", "l": header["l"], "t": header["m"]}, [MESSAGE])

        relay = Relay(redis, "owner", on_record, prefix=prefix)
        await relay.start()
        ready.set()
        await asyncio.sleep(3600)

    uvloop.run(run())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def holder(redis_url: str, prefix: str, rate: float, seconds: float, owner_pid: int) -> None:
    from redis.asyncio import Redis

    from app.tables.cluster.relay import Relay

    redis = Redis.from_url(redis_url)
    rtts: list[float] = []

    def on_record(header: dict[str, Any], texts: list[str]) -> None:
        if header.get("k") == "out":
            json.loads(texts[0])  # the holder reads what it forwards to the socket
            rtts.append((time.perf_counter() - float(header["t"])) * 1000)

    relay = Relay(redis, "holder", on_record, prefix=prefix)
    await relay.start()
    cpu0, own0, wall0 = time.process_time(), _cpu(owner_pid), time.monotonic()
    interval, sent = 1.0 / rate, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        due = start + sent * interval
        wait = due - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        raw = json.dumps({"type": "action", "v": 7, "action": {"kind": "discard", "tile": "5p"}})
        relay.send("owner", {"k": "in", "l": f"L{sent % 500}", "m": repr(time.perf_counter()), "raw": raw})
        sent += 1
    await asyncio.sleep(1)
    wall = time.monotonic() - wall0
    print(f"rate {rate:>6,.0f}/s: {len(rtts)}/{sent} answered; round trip p50 {percentile(rtts, 0.5):.2f} ms, "
          f"p99 {percentile(rtts, 0.99):.2f} ms, max {max(rtts, default=float('nan')):.2f} ms; CPU holder "
          f"{(time.process_time() - cpu0) / wall:.0%}, owner {(_cpu(owner_pid) - own0) / wall:.0%} "
          f"(load {os.getloadavg()[0]:.1f})")
    await relay.stop()
    await redis.aclose()


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--rates", default="100,1000,4000")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    prefix = f"rb{secrets.token_hex(3)}"
    ready = multiprocessing.Event()
    owner = multiprocessing.Process(target=owner_main, args=(args.redis_url, prefix, ready), daemon=True)
    owner.start()
    ready.wait(30)
    import uvloop

    print(f"load before: {os.getloadavg()}")
    try:
        for rate in [min(float(r), 20_000) for r in args.rates.split(",")]:
            uvloop.run(holder(args.redis_url, prefix, rate, min(args.seconds, 120), owner.pid or 0))
    finally:
        owner.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
