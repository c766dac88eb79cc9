"""Issue 10: an accepted action's events go out only after its journal row is committed.

A journal whose appends wait on a gate stands in for a slow commit: while the gate is shut the seat must get
nothing of its discard; once the write is done the discard event arrives.  And if the table is stopped while
the write is still pending (a drain past its time cancels the actor), what the write was for is never sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from app.tables.durability.journal import Step, TableJournal
from tests.app.support.table_harness import Closed, Harness, SeatClient, harness, is_event


class GatedJournal(TableJournal):
    """Writes wait for ``gate`` before they are committed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = asyncio.Event()
        self.urgency: list[tuple[list[str], bool]] = []  # each write's step kinds, and whether it was urgent

    async def write(self, steps: Sequence[Step], *, urgent: bool = True) -> None:
        self.urgency.append(([type(step).__name__ for step in steps], urgent))
        self.waiting.set()
        await self.gate.wait()
        await super().write(steps, urgent=urgent)


async def _practice_turn(h: Harness, name: str) -> tuple[GatedJournal, SeatClient, dict[str, Any], str]:
    assert h.runtime.state is not None
    journal = GatedJournal(h.runtime.state.engine, serial=True)
    h.runtime.journal = journal  # the tables created from now on write through it
    player = await h.register(name)
    response = await h.client.post("/api/practice", headers=player["headers"],
                                   json={"variant": "tiantai", "options": {}})
    assert response.status_code in (200, 201), response.text
    table_id = response.json()["id"]
    seat = await h.connect(table_id, player)
    while True:  # bots answer at once on the fake clock; wait for this seat's turn
        message = await seat.recv(10)
        prompt = message if message["type"] == "prompt" else (message.get("prompt") or {})
        if prompt.get("kind") == "turn":
            return journal, seat, prompt, table_id
        passes = [a for a in prompt.get("actions", []) if a["kind"] == "pass"]
        if passes:  # a claim on a bot's discard: its deadline never comes on the fake clock, so say pass
            await seat.send({"type": "action", "v": prompt["v"], "action": passes[0]})


async def _logged(journal: TableJournal, table_id: str) -> list[dict[str, Any]]:
    game = await journal.load(table_id)
    assert game is not None
    return game.actions


def _discard(prompt: dict[str, Any]) -> dict[str, Any]:
    action = next(a for a in prompt["actions"] if a["kind"] == "discard" and not a.get("declare"))
    return {"type": "action", "v": prompt["v"], "action": action}


@pytest.mark.timeout(60)
async def test_a_discard_is_sent_only_after_its_journal_write(settings) -> None:
    async with harness(settings, durable=True) as h:
        journal, seat, prompt, table_id = await _practice_turn(h, "gated1")
        before = len(await _logged(journal, table_id))
        journal.gate.clear()
        journal.waiting.clear()
        message = _discard(prompt)
        await seat.send(message)
        await asyncio.wait_for(journal.waiting.wait(), 10)  # the actor is inside the write now
        with pytest.raises(TimeoutError):  # nothing of it goes out meanwhile
            await seat.recv(0.3)
        assert len(await _logged(journal, table_id)) == before
        journal.gate.set()
        event = await seat.recv_until(is_event("discard"), 10)
        assert (event["event"]["seat"], event["event"]["tile"]) == (message["action"]["seat"],
                                                                    message["action"]["tile"])
        logged = (await _logged(journal, table_id))[before]  # by the time the event came, it was committed
        assert (logged["kind"], logged["seat"], logged["tile"]) == ("discard", message["action"]["seat"],
                                                                    message["action"]["tile"])


async def test_a_players_action_is_an_urgent_write_and_the_bots_moves_after_it_may_gather(settings) -> None:
    """TableJournal.write's ``urgent`` (TableSettings.journal_gather_ms): the player's own discard commits at
    once; the bots' moves that follow it, played by timers, may wait to share a commit with other tables'."""
    async with harness(settings, durable=True) as h:
        journal, seat, prompt, _table_id = await _practice_turn(h, "gated3")
        journal.urgency.clear()
        await seat.send(_discard(prompt))
        await seat.recv_until(is_event("discard"), 10)
        assert journal.urgency[0] == (["AppendStep"], True)
        await seat.recv_until(lambda m: m["type"] == "prompt", 30)  # the seat's next prompt: a bot moved first
        later = [urgent for _kinds, urgent in journal.urgency[1:]]
        assert later and not any(later), journal.urgency


@pytest.mark.timeout(60)
async def test_a_table_stopped_during_a_write_never_sends_what_the_write_was_for(settings) -> None:
    async with harness(settings, durable=True) as h:
        journal, seat, prompt, table_id = await _practice_turn(h, "gated2")
        before = len(await _logged(journal, table_id))
        journal.gate.clear()
        journal.waiting.clear()
        await seat.send(_discard(prompt))
        await asyncio.wait_for(journal.waiting.wait(), 10)
        actor = h.runtime.actors[table_id]
        assert actor.task is not None
        actor.task.cancel()  # what a drain does to a table still busy at its deadline
        received = []
        with pytest.raises(Closed):
            while True:
                received.append(await seat.recv(10))
        assert not any(m["type"] == "event" and m["event"]["type"] == "discard" for m in received), received
        journal.gate.set()
        assert len(await _logged(journal, table_id)) == before
