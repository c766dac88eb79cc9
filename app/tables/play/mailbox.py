"""A bounded FIFO with one consumer: a table actor's inbox and each socket's outbox (``SeatLink``).

``asyncio.Queue`` does the bookkeeping of ``join``/``task_done`` and of waiting putters on every item
(``put_nowait`` and ``get`` are five or six Python calls each, an ``Event.clear`` among them), and every
message crosses two queues, so at production pace that was about a tenth of the server's CPU
(bench/results/throughput.md, issue 36).  Nothing here joins a queue or awaits a put, and each queue has
exactly one reader (the actor's task, or the socket's sender task), so this keeps only what they use, with
``asyncio.Queue``'s names and exceptions (``QueueFull``, ``QueueEmpty``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """``maxsize`` items at most (0: no bound); ``get`` is for one task at a time."""

    __slots__ = ("_items", "_loop", "_waiter", "maxsize")

    def __init__(self, maxsize: int = 0) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None  # the consumer, while it waits for an item
        # The consumer's loop, kept from its first wait: on Python 3.11 ``asyncio.get_running_loop`` makes a
        # ``getpid`` system call each time, and the actor and the socket's sender wait once per message.
        self._loop: asyncio.AbstractEventLoop | None = None
        self.maxsize = maxsize

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return 0 < self.maxsize <= len(self._items)

    def put_nowait(self, item: T) -> None:
        """Add ``item`` at the end; ``asyncio.QueueFull`` (and nothing added) when the mailbox is full."""
        if 0 < self.maxsize <= len(self._items):
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> T:
        """The first item; ``asyncio.QueueEmpty`` when there is none."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> T:
        """The first item, waiting for one if need be.  Cancelling the wait takes nothing out."""
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("a Mailbox has one consumer; another task is already waiting on it")
            loop = self._loop
            if loop is None:
                loop = self._loop = asyncio.get_running_loop()
            self._waiter = loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()
