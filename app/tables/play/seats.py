"""A seat at a running table: who sits there, their socket (if any) and their 托管 state.

托管 state machine (docs/rules/timing.md#auto-play, server-lessons §7.7): *manual* → 2 timeouts in a row → *auto* (until
the player acts or says "back"); a seat whose socket is gone is *away* and auto-played while it is held;
a reconnect ends *away*.  Bots are always auto-played (by their policy, not the timeout default).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from app.tables.play.mailbox import Mailbox


class SeatLink:
    """One socket's way out: a bounded queue (``Mailbox``) of encoded messages, drained by the socket's sender task."""

    def __init__(self, maxsize: int) -> None:
        self.queue: Mailbox[str | None] = Mailbox(maxsize)
        self.close_code: int | None = None
        self.close_reason = ""
        self.synced = False  # has had its snapshot; events before that are not sent

    @property
    def closed(self) -> bool:
        return self.close_code is not None

    def send(self, text: str) -> bool:
        """Queue a message; a socket that fell too far behind is closed (1013) and False returned."""
        if self.closed:
            return False
        try:
            self.queue.put_nowait(text)
            return True
        except asyncio.QueueFull:
            self.close(1013, "too slow; reconnect", drop=True)
            return False

    def close(self, code: int, reason: str, drop: bool = False) -> None:
        """End the stream after what is queued (``drop``: instead of it; a reconnect gets a snapshot)."""
        if self.closed:
            return
        self.close_code, self.close_reason = code, reason
        while drop or self.queue.full():
            try:
                self.queue.get_nowait()
            except asyncio.QueueEmpty:
                break
        self.queue.put_nowait(None)


@dataclass
class SeatSlot:
    seat: int
    user_id: int | None
    username: str | None
    bot: bool = False
    link: SeatLink | None = None
    timeouts: int = 0  # in a row
    auto: bool = False  # 托管 after timeouts, until the player acts again
    waits_sent: tuple[tuple[str, int], ...] | None = None  # the last ``hints`` waits sent (None: none yet)

    @property
    def connected(self) -> bool:
        return self.link is not None

    @property
    def auto_played(self) -> bool:
        return self.bot or self.auto or self.link is None

    @property
    def human(self) -> bool:
        return not self.bot
