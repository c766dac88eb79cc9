"""Real clients play whole games of every variant through the table socket, to settlement."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.tables.fairness import verify_hand
from tests.app.support.table_harness import PlayLog, harness, play_to_the_end

pytestmark = pytest.mark.asyncio

SEATS = {"tiantai": 3, "taipao": 4, "taiwan": 4}


@pytest.mark.parametrize("variant", list(SEATS))
async def test_a_coin_game_plays_to_the_end_and_creates_no_coins(settings, variant):
    async with harness(settings) as h:
        players = [await h.register(f"p{i}{variant[:3]}") for i in range(SEATS[variant])]
        before = [await h.coins(p) for p in players]
        table_id = await h.coin_table(variant, players, rounds=1)
        seats = [await h.connect(table_id, p) for p in players]
        logs = [PlayLog() for _ in seats]
        await asyncio.wait_for(asyncio.gather(*(
            play_to_the_end(seat, random.Random(i), log) for i, (seat, log) in enumerate(zip(seats, logs, strict=True))
        )), 60)

        over = logs[0].game_over
        assert over is not None and over["reason"] in ("rounds_complete", "player_left")
        results = logs[0].results
        assert len(results) == over["hands_played"] >= 1
        assert all(log.results == results for log in logs)  # everyone saw the same settlement
        after = [await h.coins(p) for p in players]
        assert sum(after) == sum(before)  # nothing created, nothing destroyed
        assert [a - b for a, b in zip(after, before, strict=True)] == over["coins"]
        for result in results:
            assert not result["void"] and sum(result["coin_deltas"]) == 0
            assert all(p["coins"] == p["points"] * 100 for p in result["payments"])
            await _check_record(h, players[0], result, variant)
        assert (await h.client.get(f"/api/tables/{table_id}")).status_code == 404  # closed at game over


async def _check_record(h, player, result, variant):
    """The stored hand matches what was announced, and the revealed seed re-deals and replays it."""
    record = (await h.client.get(f"/api/hands/{result['hand_id']}", headers=player["headers"])).json()
    assert record["seed"] == result["seed"] and record["commitment"] == result["commitment"]
    stored = record["result"]
    replay = verify_hand(variant=variant, seed=record["seed"], salt=stored["salt"],
                         commitment_hex=record["commitment"], dealer=stored["dealer"],
                         round_wind=stored["round_wind"], dealer_streak=stored["dealer_streak"],
                         options=stored["options"], actions=record["actions"])
    assert replay.is_over and replay.result.public_json(replay) == result["result"]
    assert record["settlement"]["coin_deltas"] == result["coin_deltas"]


async def test_a_practice_game_against_bots_moves_no_coins(settings):
    async with harness(settings) as h:
        alice = await h.register("alice")
        response = await h.client.post("/api/practice", headers=alice["headers"],
                                       json={"variant": "taiwan", "options": {"rounds": 1}})
        assert response.status_code == 201, response.text
        seat = await h.connect(response.json()["id"], alice)
        log = PlayLog()
        await asyncio.wait_for(play_to_the_end(seat, random.Random(7), log), 60)
        assert log.game_over is not None and log.game_over["reason"] == "rounds_complete"
        assert log.results and all(r["practice"] and r["coin_deltas"] == [0, 0, 0, 0] for r in log.results)
        assert await h.coins(alice) == 50_000
        record = (await h.client.get(f"/api/hands/{log.results[0]['hand_id']}", headers=alice["headers"])).json()
        assert record["practice"] and record["seats"][1:] == [None, None, None]
