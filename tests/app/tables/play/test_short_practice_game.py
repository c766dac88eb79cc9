"""Issue 26 items 1 and 2: a short practice game (``hands``) ends after that many hands; every hand result
carries the game's running totals per seat (the plates' scores), the snapshot carries them too, and
``game_over`` carries each seat's final place."""

from __future__ import annotations

import random
from typing import Any

from app.core.config import Settings
from app.tables.play.hand_end import final_places
from tests.app.support.table_harness import SeatClient, choose, harness


async def _play_to_game_over(seat: SeatClient) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Answer every prompt until ``game_over``: (hand results, the last snapshot, game_over)."""
    rng = random.Random(3)
    results: list[dict[str, Any]] = []
    snapshot: dict[str, Any] = {}
    while True:
        message = await seat.recv(60)
        if message["type"] == "snapshot":
            snapshot = message
        prompt = message.get("prompt") if message["type"] == "snapshot" else message
        if prompt and prompt["type"] == "prompt":
            await seat.send({"type": "action", "v": prompt["v"], "action": choose(prompt, rng)})
        elif message["type"] == "hand_result":
            results.append(message)
        elif message["type"] == "game_over":
            return results, snapshot, message


async def test_a_two_hand_practice_game_ends_with_totals_and_places(settings: Settings) -> None:
    async with harness(settings, hand_pause_seconds=0.0) as h:
        alice = await h.register("alice")
        made = await h.client.post("/api/practice", headers=alice["headers"],
                                   json={"variant": "taipao", "hands": 2, "bot_speed": "fast"})
        assert made.status_code == 201
        seat = await h.connect(made.json()["id"], alice)
        results, snapshot, over = await _play_to_game_over(seat)
    assert snapshot["table"]["hands_limit"] == 2
    assert snapshot["table"]["game_points"] == [0, 0, 0, 0]  # the first snapshot: nothing played yet
    assert over["hands_played"] == 2 and len(results) == 2
    # Running totals: each hand's totals are the previous totals plus what that hand paid.
    totals = [0, 0, 0, 0]
    for result in results:
        for payment in result["payments"]:
            totals[payment["payer"]] -= payment["points"]
            totals[payment["payee"]] += payment["points"]
        assert result["game_points"] == totals
        assert result["game_coins"] == [0, 0, 0, 0]  # practice: no coins move
    assert over["points"] == totals
    assert over["places"] == final_places(totals)


def test_final_places_share_a_place_on_equal_points() -> None:
    assert final_places([30, -10, -20, 0]) == [1, 3, 4, 2]
    assert final_places([10, -30, 10, 10]) == [1, 4, 1, 1]
    assert final_places([0, 0, 0]) == [1, 1, 1]
    assert final_places([5, 5, -10, 0]) == [1, 1, 4, 3]
