"""A seat that comes back just after its game ended is shown how it ended (``TableActor.linger``).

Found by the chaos suite (tests/chaos, the rolling deploy): a relayed seat's socket closed as its process
restarted, the game ended on the owner a tenth of a second later, and the reconnect found no game (4004): the
player never saw the last hand's result nor ``game_over``.  The same happened to a reconnect whose ``Join``
queued behind the table's last move.  For ``ended_linger_seconds`` after game over the actor answers such a
socket with its final snapshot, the last hand's result and the same ``game_over``, then closes it 1000; after
that, or with the setting at 0, the table is gone (4004).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.core.config import Settings
from app.tables.play.actor import TableActor
from tests.app.support.table_harness import Closed, Harness, harness

LINGER = 10.0


async def _ended_while_away(h: Harness, name: str) -> tuple[dict[str, Any], str, TableActor]:
    """A one-hand practice game whose only player drops at once: the server plays the seat (托管) to the end.
    Returns the player, the table and its actor once the game is over."""
    player = await h.register(name)
    made = await h.client.post("/api/practice", headers=player["headers"],
                               json={"variant": "tiantai", "hands": 1, "bot_speed": "fast"})
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    seat = await h.connect(table_id, player)
    assert (await seat.recv())["type"] == "snapshot"
    actor = h.runtime.actors[table_id]
    await seat.disconnect()
    for _ in range(2000):  # the game plays on without the player (timers on the fake clock)
        if actor.closed:
            break
        h.clock.advance(1.0)
        await h.settle_loop()
    assert actor.closed and actor.hand_end.final is not None, "the game did not end"
    return player, table_id, actor


async def _refused(h: Harness, table_id: str, player: dict[str, Any]) -> int:
    """A socket to the table that is accepted and closed at once, with nothing sent: its close code."""
    seat = await h.connect(table_id, player)
    shown, closed = await _messages_until_closed(seat)
    assert shown == []
    return closed.code


async def _messages_until_closed(seat: Any) -> tuple[list[dict[str, Any]], Closed]:
    received = []
    while True:
        try:
            received.append(await seat.recv())
        except Closed as closed:
            return received, closed


@pytest.mark.timeout(60)
async def test_a_seat_back_after_game_over_sees_the_last_result_and_game_over(settings: Settings) -> None:
    async with harness(settings, ended_linger_seconds=LINGER) as h:
        player, table_id, actor = await _ended_while_away(h, "linger1")
        assert actor.lingering and h.runtime.serving(table_id) is actor
        back = await h.connect(table_id, player)
        shown, closed = await _messages_until_closed(back)
        assert [m["type"] for m in shown] == ["snapshot", "hand_result", "game_over"]
        snapshot, result, over = shown
        assert (closed.code, over["reason"], result["hand_no"]) == (1000, "rounds_complete", 1)
        assert over == actor.hand_end.final.model_dump(mode="json")  # the same game_over the others got
        assert snapshot["v"] == over["v"] and snapshot["table"]["seat"] == 0  # its own view, nothing after it
        assert snapshot["table"]["game_points"] == over["points"]
        # The linger ends on the table's clock: the actor goes and the table is gone (4004).
        h.clock.advance(LINGER)
        assert actor.task is not None
        await asyncio.wait_for(actor.task, 5)
        assert h.runtime.serving(table_id) is None
        assert await _refused(h, table_id, player) == 4004


@pytest.mark.timeout(60)
async def test_without_a_linger_the_ended_table_refuses_at_once(settings: Settings) -> None:
    async with harness(settings, ended_linger_seconds=0.0) as h:
        player, table_id, actor = await _ended_while_away(h, "linger2")
        assert not actor.lingering
        assert actor.task is not None
        await asyncio.wait_for(actor.task, 5)
        assert await _refused(h, table_id, player) == 4004


@pytest.mark.timeout(60)
async def test_a_stranger_is_still_refused_while_the_table_lingers(settings: Settings) -> None:
    """The linger shows the end to the table's own seats only: anyone else is refused as before."""
    async with harness(settings, ended_linger_seconds=LINGER) as h:
        _player, table_id, actor = await _ended_while_away(h, "linger3")
        stranger = await h.register("linger3x")
        assert actor.lingering
        assert await _refused(h, table_id, stranger) == 4003


@pytest.mark.timeout(60)
async def test_a_shutdown_ends_the_linger_at_once(settings: Settings) -> None:
    """A process that stops does not wait out its ended tables' lingers (nor cancel them at its timeout)."""
    async with harness(settings, ended_linger_seconds=LINGER) as h:
        _player, table_id, actor = await _ended_while_away(h, "linger4")
        assert actor.lingering and table_id in h.runtime.closing
        await h.runtime.shutdown(timeout=5)
        assert actor.task is not None and actor.task.done() and not actor.task.cancelled()
