"""A whole tournament over real sockets (uvicorn on loopback, httpx + websockets clients): an operator
creates it, bot clients register and play every round from their browser-like sockets, standings reach the
lobby socket live, prizes are paid and the pool balances; a second tournament is cancelled and refunded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import uvicorn
import websockets

from app.core.config import Settings
from app.main import create_app
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.settings import TableSettings
from tests.app.conftest import TEST_SECRET, grant_role
from tests.app.support.metrics_scrape import missing_documented, samples, total
from tests.app.support.table_harness import choose

PASSWORD = "password1"


async def _serve(settings: Settings):
    table_settings = TableSettings(_env_file=None, time_scale=0.05, bot_delay_seconds=0.0,  # type: ignore[call-arg]
                                   auto_play_delay_seconds=0.0, claim_hold_seconds=0.01, hand_pause_seconds=0.05,
                                   join_seconds=10.0, grace_seconds=0.2, rate_limit_messages=10_000)
    app = create_app(settings, table_runtime=ProcessRuntime(table_settings))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    return server, task, app, server.servers[0].sockets[0].getsockname()[1]


async def _account(http: httpx.AsyncClient, name: str) -> dict:
    body = (await http.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
    return {"id": body["user"]["id"], "token": body["access_token"],
            "headers": {"Authorization": f"Bearer {body['access_token']}"}}


async def _play_tournament(http: httpx.AsyncClient, port: int, me: dict, tournament_id: int,
                           rng: random.Random) -> dict:
    """A bot client: find my table in the tournament, play it to game_over, repeat until the end."""
    played: set[str] = set()
    while True:
        t = (await http.get(f"/api/tournaments/{tournament_id}")).json()
        if t["state"] in ("finished", "cancelled"):
            return t
        mine = [g["table_id"] for g in t["tables"] if not g["finished"] and g["table_id"]
                and me["id"] in g["seats"] and g["table_id"] not in played]
        if not mine:
            await asyncio.sleep(0.05)
            continue
        played.add(mine[0])
        url = f"ws://127.0.0.1:{port}/ws/table/{mine[0]}"
        async with websockets.connect(url, ping_interval=None,
                                      additional_headers={"Authorization": f"Bearer {me['token']}"}) as ws:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "prompt":
                    await ws.send(json.dumps({"type": "action", "v": message["v"], "action": choose(message, rng)}))
                elif message["type"] == "game_over":
                    break


async def _watch_lobby(port: int, token: str, seen: list[dict]) -> None:
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/lobby", ping_interval=None,
                                  additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "tournament_updated":
                seen.append(message["tournament"])


@pytest.mark.slow
async def test_a_tournament_from_creation_to_payout_and_one_cancelled(database_url, tmp_path: Path):
    settings = Settings(_env_file=None, secret_key=TEST_SECRET, database_url=database_url,  # type: ignore[call-arg]
                        redis_url=None, web_dir=tmp_path / "no-web", tournament_director=False)
    server, task, app, port = await _serve(settings)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            scraped = samples((await http.get("/metrics")).text)  # (the registry is the test process's)
            op = await _account(http, "operator1")
            await grant_role(app, op["id"], "operator")
            players = [await _account(http, f"player{i}") for i in range(5)]
            seen: list[dict] = []
            lobby = asyncio.create_task(_watch_lobby(port, players[0]["token"], seen))
            starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
            body = {"name": "Loopback cup", "room": "beginner", "variant": "tiantai", "starts_at": starts,
                    "entry_fee": 1_000, "player_limit": 6, "rounds": 2, "hands_per_round": 1,
                    "prize_split": [50, 30, 20], "options": {}}
            created = await http.post("/api/operator/tournaments", headers=op["headers"], json=body)
            tid = created.json()["id"]
            for p in players:
                assert (await http.post(f"/api/tournaments/{tid}/register", headers=p["headers"])).status_code == 200
            started = await http.post(f"/api/operator/tournaments/{tid}/start", headers=op["headers"])
            assert started.status_code == 200, started.text
            assert started.json()["state"] == "running"
            # Five players, tables of three: round 1 needs one house bot (a None seat), which wins no prize.
            seats = [s for g in started.json()["tables"] for s in g["seats"]]
            assert sorted(s for s in seats if s is not None) == sorted(p["id"] for p in players)
            assert seats.count(None) == 1
            finals = await asyncio.wait_for(asyncio.gather(*(
                _play_tournament(http, port, p, tid, random.Random(i)) for i, p in enumerate(players))), 120)
            final = finals[0]
            assert final["state"] == "finished" and final["pool"] == 0 and final["paid_out"] == 5_000
            assert [g["round"] for g in final["tables"]] == [1, 1, 2, 2] and all(g["finished"] for g in final["tables"])
            assert all(g["hands_played"] == 1 for g in final["tables"])
            standings = final["standings"]
            assert len(standings) == 5 and sum(s["prize"] for s in standings) == 5_000
            assert [s["points"] for s in standings] == sorted((s["points"] for s in standings), reverse=True)
            report = (await http.get(f"/api/operator/tournaments/{tid}/report", headers=op["headers"])).json()
            assert report["balanced"] and report["prizes_out"] == report["fees_in"] == 5_000
            coins = [(await http.get("/api/me", headers=p["headers"])).json()["coins"] for p in players]
            assert sum(coins) == 5 * 50_000  # no table moved coins; the fees came back as prizes
            for s in standings:
                me = next(p for p in players if p["id"] == s["user_id"])
                assert coins[players.index(me)] == 50_000 - 1_000 + s["prize"]
            # The lobby socket saw the standings change live, through to the end.
            states = [t["state"] for t in seen if t["id"] == tid]
            assert "running" in states and states[-1] == "finished"
            assert any(t["standings"] and t["current_round"] == 2 for t in seen if t["id"] == tid)

            # A second tournament is cancelled before it starts: every fee comes back, once.
            created = await http.post("/api/operator/tournaments", headers=op["headers"], json=body | {"name": "Rainout"})
            tid2 = created.json()["id"]
            before = [(await http.get("/api/me", headers=p["headers"])).json()["coins"] for p in players]
            for p in players[:3]:
                await http.post(f"/api/tournaments/{tid2}/register", headers=p["headers"])
            cancelled = await http.post(f"/api/operator/tournaments/{tid2}/cancel", headers=op["headers"],
                                        json={"reason": "rain"})
            assert cancelled.json()["state"] == "cancelled"
            # Cancelling it again is an impossible transition (issue 23): a coded 409 that refunds nothing twice.
            again = await http.post(f"/api/operator/tournaments/{tid2}/cancel", headers=op["headers"],
                                    json={"reason": "rain"})
            assert again.status_code == 409 and again.json()["code"] == "tournament_wrong_state", again.text
            after = [(await http.get("/api/me", headers=p["headers"])).json()["coins"] for p in players]
            assert after == before
            report = (await http.get(f"/api/operator/tournaments/{tid2}/report", headers=op["headers"])).json()
            assert (report["fees_in"], report["refunds_out"], report["pool"], report["balanced"]) == (3_000, 3_000, 0, True)
            lobby.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await lobby
            _check_metrics(scraped, samples((await http.get("/metrics")).text))
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


def _check_metrics(before: dict, after: dict) -> None:
    """After played hands and two tournaments: every documented metric is served, and the ones this run
    moved say so (issue 28)."""
    assert missing_documented(after) == []

    def grew(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert grew("mahjong_hands_finished_total", room_kind="tournament") == 4  # 2 rounds × 2 tables × 1 hand
    assert grew("mahjong_tournament_prizes_paid_coins_total") == 5_000
    for state in ("running", "finished", "cancelled"):
        assert grew("mahjong_tournament_transitions_total", state=state) == 1, state
    assert grew("mahjong_tournament_transitions_total", state="registering") == 2  # both opened at creation
    assert grew("mahjong_http_responses_total", route="/api/tournaments/{tournament_id}/register",
                method="POST", status_class="2xx") == 8
    assert grew("mahjong_http_request_duration_seconds_count", route="/api/operator/tournaments") == 2
    assert grew("mahjong_websocket_messages_sent_total", kind="table") > 0
    assert grew("mahjong_websocket_messages_sent_total", kind="lobby") > 0
    assert grew("mahjong_websocket_closes_total", kind="lobby") == 1
    assert grew("mahjong_action_seconds_count", action="discard") > 0
    assert grew("mahjong_journal_batch_units_count") > 0 and grew("mahjong_journal_write_seconds_count") > 0
    assert grew("mahjong_event_loop_lag_seconds_count") > 0
    assert total(after, "mahjong_websockets_open", kind="table") == total(before, "mahjong_websockets_open",
                                                                         kind="table")
