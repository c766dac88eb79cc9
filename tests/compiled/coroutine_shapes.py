"""The shapes of the table actor's coroutines (``app/tables/play/actor.py``, ``journal_writer.py``), small enough
to compile in seconds: ``test_compiled_coroutines.py`` builds this module with mypyc and checks that it behaves as
plain Python does through errors and cancels at every await.  Each step appends to a trace, so a difference in
which handler ran, in what was awaited or in what the next run sees shows as a different trace.

What it holds: a follow-up with ``except Lost`` / ``except Exception`` that awaits (a game over after a crash) /
``except BaseException`` that re-raises / a ``finally`` that does not await; a run loop that yields every other
command and winds up in an ``except BaseException`` that awaits and re-raises (the actor's ``run``); a handler
that awaits after an error.  Not an ``await`` in a ``finally``: mypyc gets that wrong (``mypyc_hazards``).
"""

from __future__ import annotations

import asyncio
from typing import Any


class Boom(Exception):
    """A bug in a command's handling."""


class Lost(Exception):
    """The journal refused a write."""


class Step:
    """An awaitable step the driver controls: it waits on a future the driver resolves, fails or leaves."""

    def __init__(self, trace: list[str]) -> None:
        self.trace = trace

    async def wait(self, name: str, fut: asyncio.Future[Any]) -> Any:
        self.trace.append("wait:" + name)
        value = await fut
        self.trace.append("got:" + name)
        return value


class Actor:
    def __init__(self, trace: list[str], step: Step) -> None:
        self.trace = trace
        self.step = step
        self.closed = False

    async def persist(self, fut: asyncio.Future[Any]) -> None:
        await self.step.wait("persist", fut)

    async def follow_up(self, written: asyncio.Future[Any], ended: asyncio.Future[Any]) -> None:
        try:
            await self.persist(written)
            self.trace.append("released")
        except Lost:
            self.trace.append("lost")
        except Exception:
            self.trace.append("crashed")
            try:
                await self.step.wait("game_over", ended)
            except Lost:
                self.trace.append("lost again")
            except Exception:
                self.trace.append("game over failed")
            self.closed = True
        except BaseException:
            self.trace.append("drop")
            raise
        finally:
            self.trace.append("finally")

    async def run(self, futures: list[asyncio.Future[Any]]) -> int:
        """A follow-up per pair of futures; the last future is the wind-up's."""
        handled = 0
        try:
            for i in range(0, len(futures) - 1, 2):
                await self.follow_up(futures[i], futures[i + 1])
                handled += 1
                if handled % 2 == 0:
                    await asyncio.sleep(0)
        except BaseException:
            self.trace.append("winding up")
            await self.step.wait("wind_up", futures[-1])
            raise
        self.trace.append("done")
        return handled


async def recover(trace: list[str], step: Step, first: asyncio.Future[Any], second: asyncio.Future[Any]) -> str:
    try:
        await step.wait("first", first)
        return "ok"
    except Exception as exc:
        trace.append("caught " + type(exc).__name__)
        await step.wait("second", second)
        return "recovered"
