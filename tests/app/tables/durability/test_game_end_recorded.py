"""A game that ends while the database is away still leaves the journal (issue 27's open end).

A game can end because its hand could not be settled (the database is down: the hand is voided and the game
ends ``server_error``).  Its end must reach the journal as well, or the next start (or another process's
take-over) would resume a finished game and play it on with nobody at the table.  The actor retries the
record through the outage (``JournalWriter.record_end``), and the runtime keeps the table among its closing
ones meanwhile, so a cluster keeps renewing its lease (``ClusterRuntime.keep_once``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.tables.durability.journal import TableJournal
from app.tables.durability.journal_steps import Fenced
from app.tables.play.journal_writer import JournalWriter
from tests.app.support.table_harness import answer_until, harness

DURABLE = {"join_seconds": 0.0, "resume_join_seconds": 30.0, "freeze_gc": False, "durable": True,
           "end_record_seconds": 30.0}


class AwayJournal(TableJournal):
    """Its ``game_closed`` fails ``away`` times (the database is down), then works."""

    def __init__(self, *args: Any, away: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.away = away
        self.tries = 0
        self.failing = asyncio.Event()

    async def game_closed(self, table_id: str, fence: int) -> None:
        self.tries += 1
        if self.tries <= self.away:
            self.failing.set()
            raise ConnectionRefusedError("the database is away")
        await super().game_closed(table_id, fence)


async def _unsettled(*_args: Any, **_kwargs: Any) -> None:
    return None  # past the settler's own retries: the hand is voided (docs/rules/rooms.md#settlement)


@pytest.mark.timeout(60)
async def test_a_game_ended_during_an_outage_leaves_the_journal_once_the_database_is_back(settings, monkeypatch):
    monkeypatch.setattr("app.tables.play.journal_writer.END_RETRY_SECONDS", 0.01)
    async with harness(settings, **DURABLE) as h:
        assert h.runtime.state is not None
        journal = AwayJournal(h.runtime.state.engine, serial=True, away=3)
        h.runtime.journal = journal
        h.runtime.settler = _unsettled
        player = await h.register("outage1")
        table_id = (await h.client.post("/api/practice", headers=player["headers"],
                                        json={"variant": "tiantai"})).json()["id"]
        seat = await h.connect(table_id, player)
        over = await answer_until(seat, "game_over", seed=3)
        assert over["reason"] == "server_error"
        await asyncio.wait_for(journal.failing.wait(), 10)
        actor = h.runtime.closing.get(table_id)
        if actor is not None:  # still recording: held among the closing tables (a cluster renews its lease)
            assert table_id not in h.runtime.actors and actor.task is not None
            for _ in range(100):  # past the ended table's linger (tests/app/tables/play/test_game_end_linger.py)
                if actor.task.done():
                    break
                h.clock.advance(1.0)
                await asyncio.sleep(0.05)
            await asyncio.wait_for(actor.task, 20)
        assert journal.tries == 4  # three refused, the fourth recorded the end
        assert table_id not in await journal.live_ids() and await journal.load(table_id) is None
        assert table_id not in h.runtime.closing
        assert await h.runtime.resume_all() == 0  # the next start finds no game to play on


class _Journal:
    """``game_closed`` answers from a script: an exception to raise, or None to succeed."""

    def __init__(self, script: list[BaseException | None]) -> None:
        self.script = script
        self.calls = 0

    async def game_closed(self, table_id: str, fence: int) -> None:
        outcome = self.script[self.calls]
        self.calls += 1
        if outcome is not None:
            raise outcome


class _Flow:
    id = "t1"


@pytest.mark.parametrize(("script", "within", "recorded", "calls"), [
    ([None], 10.0, True, 1),  # the database is there: one write
    ([OSError("away"), OSError("away"), None], 10.0, True, 3),  # back after two tries
    ([OSError("away"), Fenced("t1 has a newer owner")], 10.0, False, 2),  # taken over: its end is theirs
    ([OSError("away")] * 50, 0.05, False, None),  # gives up at the deadline (and says so in the log)
])
async def test_record_end_retries_an_outage_and_stops_at_a_fence_or_the_deadline(script, within, recorded, calls):
    journal = _Journal(script)
    writer = JournalWriter(_Flow(), journal, 5, on_fenced=lambda: None)  # type: ignore[arg-type]
    writer.end_due = True
    assert await writer.record_end(within, first_wait=0.01) is recorded
    assert writer.end_recorded is recorded and writer.end_due is not recorded
    if calls is not None:
        assert journal.calls == calls
    else:
        assert 2 <= journal.calls < 50


class _Leases:
    def __init__(self) -> None:
        self.renewed: list[str] = []

    async def keep(self, table_ids: list[str], *, card: dict | None = None) -> tuple[bool, set[str]]:
        """The heartbeat (it was there) and the renewal, as ``TableLeases.keep``."""
        self.renewed = list(table_ids)
        return False, set()


class _Redis:
    async def get(self, key: str) -> None:
        """No operator asked this process to drain."""
        return None


class _Actor:
    def __init__(self, closed: bool, lingering: bool = False) -> None:
        self.closed, self.lingering = closed, lingering


async def test_a_cluster_keeps_the_lease_of_a_table_still_recording_its_end() -> None:
    from app.tables.cluster.cluster import ClusterRuntime

    runtime = ClusterRuntime()
    leases = _Leases()
    runtime.leases = leases  # type: ignore[assignment]
    runtime.redis = _Redis()  # type: ignore[assignment]
    runtime.actors = {"playing": _Actor(False), "stopped": _Actor(True),  # type: ignore[dict-item]
                      "ended": _Actor(True, lingering=True)}
    runtime.closing = {"ending": _Actor(True)}  # type: ignore[dict-item]
    await runtime.keep_once()
    # A stopped actor's table is elsewhere's to take; an ended one still answers its seats (TableActor.linger),
    # and the other processes relay them to the lease's holder.
    assert sorted(leases.renewed) == ["ended", "ending", "playing"]
