"""The table actor's parts on their own (issue 22: the actor is composed, not mixed): the hand flow plays a
hand with nothing but seats, an outbox, a clock and a ``post``; the journal writer writes what the flow has
not journalled, once, and a fenced write stops the table.  No database, no actor task."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.bots import TableBots
from app.game.variants import VariantKey
from app.tables.durability.journal_steps import Fenced
from app.tables.play.clock import FakeClock
from app.tables.play.commands import Command, Tick
from app.tables.play.flow import HandFlow
from app.tables.play.journal_writer import JournalLost, JournalWriter
from app.tables.play.outbox import Outbox
from app.tables.play.seats import SeatSlot
from app.tables.settings import TableSettings
from app.tables.table_info import TableInfo, TableStatus


def _flow(posted: list[Command], clock: FakeClock) -> HandFlow:
    info = TableInfo(id="t1", room=None, variant=VariantKey.TAIWAN, options={}, seats=[7, None, None, None],
                     bots=[1, 2, 3], status=TableStatus.PLAYING, practice=True)
    slots = [SeatSlot(seat, uid, None, seat in info.bots) for seat, uid in enumerate(info.seats)]
    return HandFlow(info, TableSettings(), clock, slots, Outbox(slots, clock), TableBots(seed=1),
                    post=posted.append, table_closed=lambda: False)


async def test_the_hand_flow_plays_a_hand_with_only_its_seats_clock_and_post() -> None:
    clock, posted = FakeClock(), []
    flow = _flow(posted, clock)
    flow.start_game()
    assert flow.started and flow.hand_no == 1 and flow.hand is not None
    assert flow.start_due and flow.logged == 0  # the new wall is due to the journal
    assert flow.prompts  # the dealer is prompted (seat 0 is away: 托管 plays it)
    ended = []
    for _ in range(5000):  # every timer reaches the flow through ``post``, as the actor's inbox would
        if ended:
            break
        clock.advance(1.0)
        while posted and not ended:
            tick = posted.pop(0)
            assert isinstance(tick, Tick)
            played = flow.on_tick(tick)
            if played.hand_ended:
                ended.append(played)
    hand = flow.hand
    assert hand is not None and hand.is_over and hand.result is not None
    assert ended  # the flow says so, and the actor's hand end settles it next
    assert ended[0].ended_by == ("draw" if hand.result.is_draw else hand.result.win_kind)
    assert flow.out.v > len(hand.actions)  # every event went out numbered


class _Journal:
    """The journal's step builders and writes, recorded (``TableJournal`` without a database)."""

    def __init__(self, refuse: Exception | None = None) -> None:
        self.units: list[list[tuple[Any, ...]]] = []
        self.urgent: list[bool] = []
        self.refuse = refuse
        self.gate = asyncio.Event()  # a write returns once it is set (by the test, or by ``hurry``)
        self.gate.set()
        self.hurried = 0

    def hand_started_step(self, table_id: str, fence: int, hand_no: int, wall: Any, v: int) -> tuple[Any, ...]:
        return ("hand", table_id, fence, hand_no)

    def append_step(self, table_id: str, fence: int, game_id: str, hand_no: int, start: int,
                    actions: list[Any], v: int) -> tuple[Any, ...]:
        return ("append", table_id, fence, hand_no, start, len(actions))

    def hand_closed_step(self, *args: Any) -> tuple[Any, ...]:
        return ("closed",)

    async def write(self, steps: list[tuple[Any, ...]], *, urgent: bool = True) -> None:
        if self.refuse is not None:
            raise self.refuse
        self.units.append(list(steps))
        self.urgent.append(urgent)
        await self.gate.wait()

    def hurry(self) -> None:
        self.hurried += 1
        self.gate.set()


async def test_the_journal_writer_writes_what_is_due_once() -> None:
    clock, posted = FakeClock(), []
    flow = _flow(posted, clock)
    journal = _Journal()
    writer = JournalWriter(flow, journal, 5, on_fenced=lambda: None)
    flow.start_game()
    await writer.persist()
    assert journal.units == [[("hand", "t1", 5, 1)]] and not flow.start_due
    bot_prompt = next(p for p in flow.prompts.values() if p.seat in flow.info.bots or p.seat == 0)
    flow.play(flow.bots.choose(flow.hand, bot_prompt.seat))
    # The bot's discard, and in about one deal in 170 the pass a bot makes at once on it: all of them, in one unit.
    played = len(flow.hand.actions)
    assert played in (1, 2)
    await writer.persist()
    assert journal.units[-1] == [("append", "t1", 5, 1, 0, played)] and flow.logged == played
    await writer.persist()  # nothing new: nothing written
    assert len(journal.units) == 2


async def test_a_fenced_write_is_lost_and_tells_the_table() -> None:
    clock, posted = FakeClock(), []
    flow = _flow(posted, clock)
    fenced: list[bool] = []
    writer = JournalWriter(flow, _Journal(refuse=Fenced("another process owns t1")), 5,
                           on_fenced=lambda: fenced.append(True))
    flow.start_game()
    with pytest.raises(JournalLost):
        await writer.persist()
    assert fenced == [True] and flow.start_due  # still due: nothing was written


async def test_a_players_message_hurries_the_journal_only_while_the_table_waits_on_a_gathering_write() -> None:
    """TableActor.offer calls ``JournalWriter.hurry``: it reaches the journal only while this table waits on a
    write that may gather (a timer's, ``urgent=False``); otherwise it would only add a commit ahead of the
    player's own."""
    clock, posted = FakeClock(), []
    flow = _flow(posted, clock)
    journal = _Journal()
    writer = JournalWriter(flow, journal, 5, on_fenced=lambda: None)
    flow.start_game()
    writer.hurry()  # idle: nothing to hurry
    assert journal.hurried == 0
    journal.gate.clear()
    urgent = asyncio.create_task(writer.persist())  # a player's command: urgent, not gathering
    await asyncio.sleep(0)
    writer.hurry()
    assert journal.hurried == 0 and journal.urgent == [True] and not urgent.done()
    journal.gate.set()
    await urgent
    bot_prompt = next(p for p in flow.prompts.values() if p.seat in flow.info.bots or p.seat == 0)
    flow.play(flow.bots.choose(flow.hand, bot_prompt.seat))
    journal.gate.clear()
    timer = asyncio.create_task(writer.persist(urgent=False))  # a bot's move: may gather
    await asyncio.sleep(0)
    assert journal.urgent == [True, False] and writer.gathering and not timer.done()
    writer.hurry()
    await asyncio.wait_for(timer, 10)
    assert journal.hurried == 1 and not writer.gathering
