"""Recovery across processes: kill -9 a table's owner, time until the table plays again on a survivor.

    python bench/cluster_recovery_bench.py --database-url postgresql+asyncpg://postgres@127.0.0.1/bench \\
        --redis-url redis://127.0.0.1:6379/5 --kills 20

Three real servers (``python -m app``, cluster mode, default LEASE_SECONDS / TAKEOVER_SCAN_SECONDS unless
given) share the database and Redis.  ``--tables`` practice tables play; each player's socket sits on a
random process and moves to another one whenever it is closed.  Each round kills (SIGKILL) the process that
owns the first table, starts a replacement, and measures, for every table that process owned, the time
from the kill to the player's first snapshot (resync) and to its first prompt afterwards.  Reported: median
and max over all kills.  Bounded: at most 100 kills.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from cluster_bench import Server, empty_postgres, make_players  # noqa: E402
from nginx_front import NginxFront  # noqa: E402
from server_bench import pick  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--lease-seconds", type=float, default=None, help="default: the server's")
    parser.add_argument("--scan-seconds", type=float, default=None, help="default: the server's")
    parser.add_argument("--nginx", action="store_true", help="players connect through our own nginx "
                        "(deploy/nginx.local.conf, bench/nginx_front.py); a replacement takes its victim's port")
    args = parser.parse_args(argv)
    args.kills = max(1, min(args.kills, 100))
    args.time_scale, args.bot_delay, args.hold = 1.0, 0.2, 0.0
    return args


class Player:
    """One practice table's player: answers every prompt, reconnects to a random live server."""

    def __init__(self, table_id: str, token: str, servers: list[Server], front: str | None = None) -> None:
        self.table_id, self.token, self.servers, self.front = table_id, token, servers, front
        self.snapshots: list[float] = []
        self.prompts: list[float] = []
        self.stop = False

    async def run(self) -> None:
        import websockets

        rng = random.Random(self.table_id)
        while not self.stop:
            live = [s for s in self.servers if s.proc.poll() is None]
            url = (self.front or rng.choice(live).url).replace("http", "ws", 1) + f"/ws/table/{self.table_id}"
            try:
                async with websockets.connect(url, max_size=2**22, open_timeout=5,
                                              additional_headers={"Authorization": f"Bearer {self.token}"}) as ws:
                    async for raw in ws:
                        message = json.loads(raw)
                        now = time.monotonic()
                        prompt = message.get("prompt") if message["type"] == "snapshot" else message
                        if message["type"] == "snapshot":
                            self.snapshots.append(now)
                        if prompt and prompt.get("type", "prompt") == "prompt" and "actions" in prompt:
                            self.prompts.append(now)
                            await ws.send(json.dumps({"type": "action", "v": prompt["v"], "action": pick(prompt, rng)}))
                        if message["type"] == "game_over":
                            self.stop = True
            except (OSError, TimeoutError, websockets.WebSocketException):
                pass
            await asyncio.sleep(0.1)


async def main(args: argparse.Namespace) -> int:
    import tempfile

    import httpx
    from redis.asyncio import Redis

    logdir = Path(tempfile.mkdtemp(prefix="cluster-recovery-"))
    await empty_postgres(args.database_url)
    prefix = f"cr{secrets.token_hex(3)}"
    extra = {}
    if args.lease_seconds:
        extra["LEASE_SECONDS"] = str(args.lease_seconds)
    if args.scan_seconds:
        extra["TAKEOVER_SCAN_SECONDS"] = str(args.scan_seconds)
    os.environ.update(extra)
    redis = Redis.from_url(args.redis_url)
    servers = [Server(args, prefix, True, logdir / "s0.log")]
    await servers[0].ready()
    servers += [Server(args, prefix, False, logdir / f"s{i}.log") for i in (1, 2)]
    await asyncio.gather(*(s.ready() for s in servers[1:]))
    players_ = await make_players(args.database_url, args.tables)
    front = NginxFront([s.port for s in servers]) if args.nginx else None
    if front is not None:
        front.start()
    players: list[Player] = []
    async with httpx.AsyncClient(timeout=60) as client:
        for i, (_uid, token) in enumerate(players_):
            made = await client.post(f"{servers[i % 3].url}/api/practice", headers={"Authorization": f"Bearer {token}"},
                                     json={"variant": ["tiantai", "taipao", "taiwan"][i % 3], "options": {"rounds": 4}})
            made.raise_for_status()
            players.append(Player(made.json()["id"], token, servers, front.url if front else None))
    tasks = [asyncio.create_task(p.run()) for p in players]
    to_snapshot: list[float] = []
    to_prompt: list[float] = []
    print(f"load before: {os.getloadavg()}; logs in {logdir}")
    try:
        await asyncio.sleep(3)
        for kill in range(args.kills):
            owners = [await redis.get(f"{prefix}:lease:{p.table_id}") for p in players]
            live = [p for p, o in zip(players, owners, strict=True) if o is not None and not p.stop]
            if not live:
                print("no live table left")
                break
            victim_id = (await redis.get(f"{prefix}:lease:{live[0].table_id}")).decode()
            pid = int(victim_id.split("-")[-2])
            victim = next(s for s in servers if s.proc.pid == pid)
            affected = [p for p, o in zip(players, owners, strict=True) if o is not None and o.decode() == victim_id]
            marks = {id(p): (len(p.snapshots), len(p.prompts)) for p in affected}
            killed_at = time.monotonic()
            victim.proc.send_signal(signal.SIGKILL)
            victim.proc.wait(10)
            servers.remove(victim)
            replacement = Server(args, prefix, False, logdir / f"r{kill}.log", port=victim.port if front else 0)
            servers.append(replacement)
            for p in players:
                p.servers = servers
            deadline = killed_at + 60
            while time.monotonic() < deadline and not all(
                    len(p.prompts) > marks[id(p)][1] and len(p.snapshots) > marks[id(p)][0] for p in affected):
                await asyncio.sleep(0.02)
            for p in affected:
                snaps = [t for t in p.snapshots[marks[id(p)][0]:] if t > killed_at]
                prompts = [t for t in p.prompts[marks[id(p)][1]:] if t > killed_at]
                if snaps and prompts:
                    to_snapshot.append(snaps[0] - killed_at)
                    to_prompt.append(prompts[0] - killed_at)
                else:
                    print(f"kill {kill}: table {p.table_id} did not resume within 60 s")
            print(f"kill {kill + 1}: {len(affected)} tables; to prompt "
                  f"{', '.join(f'{x:.2f}' for x in to_prompt[-len(affected):])} s (load {os.getloadavg()[0]:.1f})")
            await replacement.ready()
            await asyncio.sleep(random.uniform(1, 3))
    finally:
        for p in players:
            p.stop = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for s in servers:
            s.stop()
        if front is not None:
            front.close()
        keys = [k async for k in redis.scan_iter(f"{prefix}:*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
    if to_prompt:
        print(f"\n{len(to_prompt)} table recoveries over {args.kills} kills (load {os.getloadavg()[0]:.1f})"
              f"{', players behind nginx' if front else ''}")
        print(f"kill -9 → first snapshot   median {statistics.median(to_snapshot):.2f} s, max {max(to_snapshot):.2f} s")
        print(f"kill -9 → first prompt     median {statistics.median(to_prompt):.2f} s, max {max(to_prompt):.2f} s")
    return 0


if __name__ == "__main__":
    import uvloop

    sys.exit(uvloop.run(main(parse_args())))
