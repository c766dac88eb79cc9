"""Bot levels on the server (issue 12): a practice table's level, and the 托管 setting."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL, TableBots
from app.tables.settings import TableSettings
from engine.actions import Action
from engine.state import HandState
from tests.app.support.table_harness import harness, is_event, is_type


class RecordingBots(TableBots):
    """Plays like the real bots and remembers which level decided for which seat."""

    log: list[tuple[int, str]] = []

    def choose(self, hand: HandState, seat: int, level: str = DEFAULT_BOT_LEVEL) -> Action:
        RecordingBots.log.append((seat, level))
        return super().choose(hand, seat, level)


@pytest.mark.asyncio
async def test_practice_tables_take_a_bot_level(client, player):
    alice = await player("alice")
    response = await client.post("/api/practice", json={"variant": "taiwan", "bot_level": "godlike"},
                                 headers=alice.headers)
    assert response.status_code == 422 and response.json()["code"] == "invalid_input"
    response = await client.post("/api/practice", json={"variant": "taiwan", "bot_level": "strong"},
                                 headers=alice.headers)
    assert response.status_code == 201  # the refused request left no table behind
    table = response.json()
    assert table["bot_level"] == "strong" and table["suggest_discard"] is True
    assert (await client.get(f"/api/tables/{table['id']}")).json()["bot_level"] == "strong"
    await client.post(f"/api/tables/{table['id']}/stand", headers=alice.headers)
    response = await client.post("/api/practice", json={"variant": "tiantai", "suggest_discard": False},
                                 headers=alice.headers)
    assert response.json()["bot_level"] == DEFAULT_BOT_LEVEL == "normal"
    assert response.json()["suggest_discard"] is False


@pytest.mark.asyncio
async def test_coin_tables_have_no_bot_level_and_no_suggestion(client, player):
    alice = await player("alice")
    response = await client.post("/api/rooms/beginner/tables", json={"variant": "taiwan"}, headers=alice.headers)
    assert response.json()["bot_level"] is None and response.json()["suggest_discard"] is False


def test_auto_play_setting_is_one_of_the_levels():
    """docs/rules/timing.md#auto-play E-6: the default 托管 level is normal."""
    assert TableSettings(_env_file=None).auto_play_level == "normal"  # type: ignore[call-arg]
    assert set(BOT_LEVELS) == {"easy", "normal", "strong"}
    with pytest.raises(ValidationError):
        TableSettings(_env_file=None, auto_play_level="godlike")  # type: ignore[call-arg]


AUTO_PLAY_CASES = [
    # (TableSettings overrides, the level that plays a seat on 托管)
    ({}, "normal"),  # docs/rules/timing.md#auto-play E-6: 托管 plays the server's normal bot level
    ({"auto_play_level": "easy"}, "easy"),  # the operator's setting (TABLE_AUTO_PLAY_LEVEL)
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("overrides", "auto_level"), AUTO_PLAY_CASES)
async def test_bots_play_at_the_table_level_and_auto_play_at_the_setting(settings, overrides, auto_level):
    """docs/rules/timing.md#auto-play E-6: a seat on 托管 (two timeouts in a row) is played by the bot at the 托管 level, not by
    the timeout default (discard the drawn tile); the table's own bots play at the table's level."""
    RecordingBots.log = []
    async with harness(settings, grace_seconds=0.0, **overrides) as h:
        h.runtime.bots = RecordingBots
        me = await h.register("practiser")
        response = await h.client.post("/api/practice", json={"variant": "tiantai", "bot_level": "strong",
                                                              "options": {"rounds": 1}}, headers=me["headers"])
        assert response.status_code == 201, response.text
        client = await h.connect(response.json()["id"], me)
        timeouts = 0
        while timeouts < 2:  # two timeouts in a row put seat 0 on 托管 (docs/rules/timing.md#auto-play)
            prompt = await client.recv_until(is_type("prompt"))
            await h.settle_loop()
            h.clock.advance(prompt["expires_in_ms"] / 1000)
            await h.settle_loop()
            timeouts += 1
        await client.recv_until(is_event("auto_play"))
        for _ in range(50):
            await h.settle_loop()
            if any(seat == 0 for seat, _ in RecordingBots.log):
                break
            h.clock.advance(1.0)
        client.stop_reading()
    seats = {(seat, level) for seat, level in RecordingBots.log}
    assert {level for seat, level in seats if seat != 0} == {"strong"}
    assert {level for seat, level in seats if seat == 0} == {auto_level}
