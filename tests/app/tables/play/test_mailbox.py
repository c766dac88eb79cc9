"""The actor's inbox and each socket's outbox (app.tables.play.mailbox.Mailbox): asyncio.Queue's behaviour for
the calls the tables make, with one consumer."""

from __future__ import annotations

import asyncio

import pytest

from app.tables.play.mailbox import Mailbox


async def test_items_come_out_in_the_order_they_went_in() -> None:
    box: Mailbox[int] = Mailbox()
    for i in range(5):
        box.put_nowait(i)
    assert box.qsize() == 5 and not box.empty()
    assert [await box.get() for _ in range(3)] + [box.get_nowait(), box.get_nowait()] == [0, 1, 2, 3, 4]
    assert box.empty() and box.qsize() == 0


async def test_a_full_mailbox_refuses_the_item_and_keeps_what_it_holds() -> None:
    box: Mailbox[str] = Mailbox(2)
    box.put_nowait("a")
    assert not box.full()
    box.put_nowait("b")
    assert box.full()
    with pytest.raises(asyncio.QueueFull):
        box.put_nowait("c")
    assert [box.get_nowait(), box.get_nowait()] == ["a", "b"]
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()


async def test_an_unbounded_mailbox_is_never_full() -> None:
    box: Mailbox[int] = Mailbox(0)
    for i in range(1000):
        box.put_nowait(i)
    assert not box.full() and box.qsize() == 1000


async def test_get_waits_for_the_next_item() -> None:
    box: Mailbox[str] = Mailbox(4)
    getter = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    assert not getter.done()
    box.put_nowait("x")
    box.put_nowait("y")  # a second put before the consumer runs: both kept, in order
    assert await getter == "x"
    assert await box.get() == "y"


async def test_a_cancelled_wait_takes_nothing_and_the_next_get_works() -> None:
    box: Mailbox[str] = Mailbox()
    getter = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    getter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await getter
    box.put_nowait("kept")
    assert await asyncio.wait_for(box.get(), 1) == "kept"


async def test_a_second_consumer_is_refused_while_one_waits() -> None:
    box: Mailbox[int] = Mailbox()
    first = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one consumer"):
        await box.get()
    box.put_nowait(7)
    assert await first == 7
