"""Stopping a background loop for sure, even when a library has dropped its cancel.

Python 3.11's ``asyncio.wait_for`` returns the awaited result and drops the cancel when its task is cancelled
in the loop turn in which the awaited operation finishes (bpo-42130; 3.12 rewrote ``wait_for`` on
``asyncio.timeout``).  redis-py 8 wraps every socket write and read in ``wait_for`` (its default 5 s
``socket_timeout``), so a ``while True`` loop cancelled in the middle of a Redis command can miss its cancel
and run on: a shutdown that cancels it once and awaits it then waits for ever (it did in CI: the cluster's
lease renewal, cancelled while Redis had just come back, kept renewing and the app never stopped).
``stop_tasks`` cancels again until every task has ended.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

# How long a cancelled task may take to end before it is cancelled again: long enough for the clean-up in its
# ``finally`` (closing a subscription, a last write), which a second cancel would cut short.
RECANCEL_SECONDS = 1.0


async def stop_tasks(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel ``tasks`` (None and finished ones are skipped) and return once every one has ended, cancelling
    again each ``RECANCEL_SECONDS`` a task that runs on.  A task that ended with an error other than its
    cancellation raises it here (the first such, after all have ended), as awaiting it would."""
    pending = {task for task in tasks if task is not None and not task.done()}
    for task in pending:
        task.cancel()
    try:
        while pending:
            _done, pending = await asyncio.wait(pending, timeout=RECANCEL_SECONDS)
            for task in pending:
                log.info("%s: still running after its cancel (a cancel can be lost); cancelled again",
                         task.get_name())
                task.cancel()
    finally:  # this caller cancelled in turn: what it was stopping is cancelled once more, not awaited
        for task in pending:
            task.cancel()
    for ended in tasks:
        if ended is not None and ended.done() and not ended.cancelled() and (error := ended.exception()) is not None:
            raise error
