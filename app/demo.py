"""``python -m app.demo``: register players with a script and let them play coin hands over WebSockets.

For a newcomer after ``make run``::

    .venv/bin/python -m app.demo --variant taiwan --hands 2
    .venv/bin/python -m app.demo --variant tiantai --url http://127.0.0.1:8000

It registers (or logs in) one account per seat, opens a table in a coin room, seats everyone, connects each
seat's WebSocket and plays from the prompts the server sends: it takes any offered win, claims pongs and
kongs, and discards its loneliest tile (it reads its own hand with a ``resync``).  At the end it prints
every account's coins before and after, which sum to the same total: no coin is created or lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import urllib.error
import urllib.request
from typing import Any

import websockets

from engine.bots import isolation
from engine.tiles import NAMES, parse_tiles

SEATS = {"tiantai": 3, "taipao": 4, "taiwan": 4}
CLAIM_ORDER = ("win", "kill_pig", "kong", "pong", "chow", "pass")


def _http(url: str, method: str = "GET", body: dict[str, Any] | None = None,
          token: str | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        raise RuntimeError(f"{method} {url}: {exc.code} {exc.read().decode()}") from None


def account(base: str, name: str, password: str) -> dict[str, Any]:
    """Register ``name``, or log in when it exists already."""
    try:
        out: dict[str, Any] = _http(f"{base}/api/auth/register", "POST",
                                    {"username": name, "password": password})
    except RuntimeError as exc:
        if " 409 " not in str(exc):
            raise
        out = _http(f"{base}/api/auth/login", "POST", {"username": name, "password": password})
    return out


def choose(prompt: dict[str, Any], concealed: list[str]) -> dict[str, Any]:
    """An offered action: a win if any, then claims, then the discard of the loneliest tile."""
    actions: list[dict[str, Any]] = prompt["actions"]
    by_kind = {a["kind"]: a for a in actions}
    for kind in CLAIM_ORDER:
        if kind in by_kind and kind != "pass":
            return by_kind[kind]
    discards = [a for a in actions if a["kind"] == "discard" and not a.get("declare")]
    if not discards:
        return by_kind.get("pass", actions[0])
    counts = [0] * len(NAMES)
    for t in parse_tiles("".join(concealed)):
        counts[t] += 1
    return max(discards, key=lambda a: isolation(counts, parse_tiles(a["tile"])[0]))


async def play_seat(ws_url: str, seat_name: str, hands: int, log: list[str]) -> None:
    """Answer this seat's prompts until ``hands`` hands have ended or the game is over."""
    seen = 0
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        concealed: list[str] = []
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] == "snapshot":
                view = msg.get("view") or {}
                me = next((p for p in view.get("players", []) if p["seat"] == view.get("seat")), None)
                concealed = (me or {}).get("concealed") or []
                if msg.get("prompt"):
                    await ws.send(json.dumps({"type": "action", "v": msg["prompt"]["v"],
                                              "action": choose(msg["prompt"], concealed)}))
            elif msg["type"] == "prompt":
                if msg["kind"] == "turn":  # read the own hand, answer from the snapshot's prompt
                    await ws.send(json.dumps({"type": "resync"}))
                else:
                    await ws.send(json.dumps({"type": "action", "v": msg["v"], "action": choose(msg, [])}))
            elif msg["type"] == "hand_result":
                seen += 1
                if seat_name.endswith("_0"):
                    r = msg["result"]
                    log.append(f"hand {msg['hand_no']}: winners {r['winners']} ({r['win_kind'] or 'draw'}), "
                               f"coins {msg['coin_deltas']}")
                if hands and seen >= hands:
                    return
            elif msg["type"] == "game_over":
                return
            elif msg["type"] == "error":
                log.append(f"{seat_name}: server refused: {msg['code']} {msg['message']}")


async def run(base: str, variant: str, room: str, hands: int, prefix: str) -> int:
    n = SEATS[variant]
    password = "demo-password"
    players = [account(base, f"{prefix}_{i}", password) for i in range(n)]
    before = [p["user"]["coins"] for p in players]
    token0 = players[0]["access_token"]
    table = _http(f"{base}/api/rooms/{room}/tables", "POST", {"variant": variant, "options": {"rounds": 1}},
                  token0)
    for p in players[1:]:
        _http(f"{base}/api/tables/{table['id']}/sit", "POST", {}, p["access_token"])
    ws_base = base.replace("http", "ws", 1)
    log: list[str] = []
    # A single-use ticket per socket, as the browser does: the session token never goes in a URL.
    tickets = [_http(f"{base}/api/ws-ticket", "POST", {}, p["access_token"])["ticket"] for p in players]
    await asyncio.gather(*(play_seat(f"{ws_base}/ws/table/{table['id']}?ticket={ticket}",
                                     f"{prefix}_{i}", hands, log) for i, ticket in enumerate(tickets)))
    after = [_http(f"{base}/api/me", token=p["access_token"])["coins"] for p in players]
    print(f"table {table['id']} ({variant}, {room} room)")
    for line in log:
        print("  " + line)
    for i, (b, a) in enumerate(zip(before, after, strict=True)):
        print(f"  {prefix}_{i}: {b:,} → {a:,} coins ({a - b:+,})")
    print(f"  total {sum(before):,} → {sum(after):,}")
    return 0 if sum(before) == sum(after) else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m app.demo", description=__doc__.split("\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--variant", choices=sorted(SEATS), default="taiwan")
    p.add_argument("--room", default="beginner", choices=["beginner", "intermediate", "advanced"])
    p.add_argument("--hands", type=int, default=0,
                   help="leave after this many hands (0: play the 1-圈 game to its end); seats left are "
                        "auto-played (托管) until the game ends, as for any disconnected player")
    p.add_argument("--prefix", default=f"demo{secrets.token_hex(2)}", help="account names: PREFIX_0, …")
    args = p.parse_args(argv)
    return asyncio.run(run(args.url.rstrip("/"), args.variant, args.room, args.hands, args.prefix))


if __name__ == "__main__":
    sys.exit(main())
