"""Where the time goes between a player's turns at a 4-player practice table (issue 26, "pace").

Starts the real app (uvicorn on a free loopback port, a temp SQLite file, the table settings' *defaults*),
opens a practice table as one player who answers every prompt at once, and splits the wall-clock time
between two of that player's turn prompts into what the server waits for:

* ``hold``: from a discard to the next draw when nobody claims (the fixed claim hold, docs/rules/timing.md#timers / server
  lesson §7.4; the same whoever could claim),
* ``bot``: from a bot's draw to its discard (its "thinking": bot_delay_seconds × 0.5–1.5 × the pace),
* ``claim``: a discard the player could claim, until the player's (instant) pass is answered,
* ``other``: the rest (the server's own work, the socket, flowers and kongs).

    python bench/pace_bench.py [--hands 2] [--speed normal fast]

Prints, per practice pace, the turns measured and the mean seconds of each part per turn cycle.  Figures
compare paces within one run (the same machine, the same moment).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from app.core.config import Settings
from app.main import create_app
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.settings import TableSettings

ROOT = Path(__file__).resolve().parents[1]


def start_server() -> tuple[str, uvicorn.Server]:
    """The whole app with the default table settings, on a free port, in a daemon thread."""
    db = Path(tempfile.mkdtemp()) / "pace.sqlite3"
    settings = Settings(_env_file=None, environment="development", secret_key="pace-" + "x" * 40,  # type: ignore[call-arg]
                        database_url=f"sqlite+aiosqlite:///{db}", redis_url=None, web_dir=ROOT / "web",
                        register_per_ip=1000, login_per_ip=1000)
    app = create_app(settings, table_runtime=ProcessRuntime(TableSettings(_env_file=None)))  # type: ignore[call-arg]
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"127.0.0.1:{sock.getsockname()[1]}", server


def first_discard(prompt: dict[str, Any]) -> dict[str, Any]:
    """The prompt's win if offered, else its first plain discard (the player answers at once)."""
    actions: list[dict[str, Any]] = prompt["actions"]
    for kind in ("win", "discard"):
        for action in actions:
            if action["kind"] == kind and not action.get("declare"):
                return action
    return actions[0]


async def play(host: str, speed: str, hands: int) -> list[dict[str, float]]:
    """One short practice game at ``speed``; per cycle between two own turn prompts, the seconds spent."""
    async with httpx.AsyncClient(base_url=f"http://{host}") as http:
        body = (await http.post("/api/auth/register", json={"username": f"pace{speed}{time.time_ns() % 10**6}",
                                                            "password": "correct horse 1"})).json()
        headers = {"Authorization": f"Bearer {body['access_token']}"}
        made = (await http.post("/api/practice", headers=headers, json={
            "variant": "taiwan", "bot_speed": speed, "hands": hands, "suggest_discard": False})).json()
    cycles: list[dict[str, float]] = []
    current = {"hold": 0.0, "bot": 0.0, "claim": 0.0, "other": 0.0}
    turn_at: float | None = None
    last_at = time.perf_counter()
    last_kind = "start"
    # a non-browser client shows its token in the handshake's Authorization header (a browser takes a ticket)
    async with websockets.connect(f"ws://{host}/ws/table/{made['id']}", additional_headers=headers) as ws:
        async for raw in ws:
            now = time.perf_counter()
            msg = json.loads(raw)
            spent, last_at = now - last_at, now
            if msg["type"] == "event":
                ev = msg["event"]
                kind = ev["type"]
                if turn_at is not None:
                    if kind == "draw" and last_kind == "discard":
                        current["hold"] += spent
                    elif kind == "discard" and last_kind == "draw" and ev.get("seat") != 0:
                        current["bot"] += spent
                    elif last_kind == "claim_prompt":
                        current["claim"] += spent
                    else:
                        current["other"] += spent
                last_kind = kind
            elif msg["type"] == "prompt" or (msg["type"] == "snapshot" and msg.get("prompt")):
                prompt = msg["prompt"] if msg["type"] == "snapshot" else msg
                if turn_at is not None and last_kind != "claim_prompt":
                    current["other"] += spent
                if prompt["kind"] == "turn":
                    if turn_at is not None:
                        cycles.append({**current, "total": now - turn_at})
                    current = {"hold": 0.0, "bot": 0.0, "claim": 0.0, "other": 0.0}
                    turn_at = now
                    last_kind = "turn"
                else:
                    last_kind = "claim_prompt"
                pass_ = next((a for a in prompt["actions"] if a["kind"] == "pass"), None)
                action = pass_ if prompt["kind"] != "turn" and pass_ else first_discard(prompt)
                await ws.send(json.dumps({"type": "action", "v": prompt["v"], "action": action}))
            elif msg["type"] == "hand_result":
                turn_at, last_kind = None, "result"  # a new hand: its first cycle starts at the next turn
            elif msg["type"] == "game_over":
                break
    return cycles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--speed", nargs="+", default=["normal", "fast"])
    args = parser.parse_args()
    host, server = start_server()
    defaults = TableSettings(_env_file=None)  # type: ignore[call-arg]
    print(f"defaults: claim_hold_seconds {defaults.claim_hold_seconds}, bot_delay_seconds {defaults.bot_delay_seconds}"
          f" (x0.5-1.5), hand_pause_seconds {defaults.hand_pause_seconds}")
    print(f"{'pace':8} {'cycles':>6} {'total':>7} {'hold':>7} {'bots':>7} {'claim':>7} {'other':>7}   (mean seconds between own turns)")
    for speed in args.speed:
        cycles = asyncio.run(play(host, speed, args.hands))
        mean = {k: statistics.fmean(c[k] for c in cycles) for k in ("total", "hold", "bot", "claim", "other")}
        print(f"{speed:8} {len(cycles):>6} {mean['total']:7.2f} {mean['hold']:7.2f} {mean['bot']:7.2f} "
              f"{mean['claim']:7.2f} {mean['other']:7.2f}")
    server.should_exit = True


if __name__ == "__main__":
    main()
