"""The relay between processes: a player's socket on one process, the table's actor on another.

Like lila-ws, the process that holds a socket (the *holder*) does not play: it forwards the player's
messages to the table's owner (``app.tables.cluster.lease``) and the owner's per-seat messages back, through Redis
pub/sub.  Each process listens on its own channel ``{prefix}:relay:{process_id}``.

Frames: one PUBLISH carries several records, each a JSON header line (``k`` the kind, ``n`` how many text
lines follow) and then ``n`` lines that are the table's own messages, already encoded (a protocol message is
JSON with every newline escaped, so it is one line).  Records a process queues in one event-loop turn go
out in one PUBLISH per destination, in order (one publisher task: pub/sub keeps a connection's order).

Kinds, holder → owner: ``join`` (table ``t``, user ``u``, link ``l``, holder ``h``), ``in`` (a client
message, raw), ``leave``.  Owner → holder: ``out`` (messages for link ``l``, numbered ``s`` per link as they
are queued, so a close in the same turn cannot renumber them) and
``close`` (code ``c``, reason ``r``).  Any → any: ``call`` / ``reply`` (``app.tables.cluster.cluster``'s requests).

Losing a frame is harmless: pub/sub drops messages only when a connection breaks, and the holder checks
each link's ``s``; on a gap (or a broken subscription) it joins again under a new link id and the owner's
fresh snapshot (``v``) puts the socket back in step without closing it (``RelaySides.resync``); only a link
whose owner does not answer its resyncs closes with 1012 and its client reconnects.  A lost ``in`` is a lost click: the prompt is
still open, its timer still runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from app import metrics
from app.core.outage import Outage, listen_through_outages
from app.core.tasks import stop_tasks
from app.tables.play.seats import SeatLink

log = logging.getLogger(__name__)

Header = dict[str, Any]
Handler = Callable[[Header, list[str]], None]
RELAY_GAP = 1012  # the socket's relay lost a message, or its owner moved: reconnect (a snapshot follows)


class Relay:
    """Framed, ordered, batched messages to other processes' channels, and a listener for ours."""

    def __init__(self, redis: Any, process_id: str, on_record: Handler, prefix: str = "mahjong") -> None:
        self.redis = redis
        self.process_id = process_id
        self.prefix = prefix
        self.on_record = on_record
        self.on_broken: Callable[[], None] | None = None  # our subscription broke: frames may be lost
        self._records: dict[str, list[tuple[Header, list[str]]]] = {}
        self._flush_due = False
        self._frames: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._seq: dict[str, int] = {}  # link id -> frames of ``out`` records sent to it
        self.published = 0  # frames published (the bench reads them)
        self.records_in = 0

    def channel(self, process_id: str) -> str:
        return f"{self.prefix}:relay:{process_id}"

    async def start(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel(self.process_id))  # before anyone can be told to write to us
        self._tasks = [asyncio.create_task(self._listen(pubsub), name="relay-listener"),
                       asyncio.create_task(self._publish(), name="relay-publisher")]

    async def stop(self) -> None:
        self._flush()
        with contextlib.suppress(asyncio.TimeoutError):  # what is queued goes first (close notices)
            await asyncio.wait_for(self._drained(), 2)
        await stop_tasks(*self._tasks)

    async def _drained(self) -> None:
        while not self._frames.empty():
            await asyncio.sleep(0.01)

    # -- sending ---------------------------------------------------------------------------------------

    def send(self, process_id: str, header: Header, texts: list[str] | None = None) -> None:
        """Queue a record for ``process_id``; it goes out at the end of this event-loop turn.  An ``out``
        record is numbered here, as it is queued, so what a link queued before it was closed (and
        forgotten) keeps its place in the link's sequence: a table's last words are not a gap."""
        records = self._records.setdefault(process_id, [])
        if header.get("k") == "out":
            if texts and records:
                last_header, last_texts = records[-1]
                if last_header.get("k") == "out" and last_header["l"] == header["l"]:
                    last_texts.extend(texts)  # one record per link per turn
                    return
            seq = self._seq.get(header["l"], 0) + 1
            self._seq[header["l"]] = seq
            header = {**header, "s": seq}
        records.append((header, list(texts or ())))
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def forget(self, link_id: str) -> None:
        """The link is closed: drop its counter (its queued records are numbered already)."""
        self._seq.pop(link_id, None)

    def _flush(self) -> None:
        self._flush_due = False
        records, self._records = self._records, {}
        stamp = round(time.time(), 4)  # "ts": the receiver's relay latency (app.metrics)
        for process_id, items in records.items():
            metrics.RELAY_SENT.inc(len(items))
            lines: list[str] = []
            for header, texts in items:
                lines.append(json.dumps({**header, "n": len(texts), "ts": stamp}, separators=(",", ":")))
                lines.extend(texts)
            self._frames.put_nowait((self.channel(process_id), "\n".join(lines)))

    async def _publish(self) -> None:
        """Everything queued meanwhile goes in one pipeline: one round trip, still in order.  (One PUBLISH
        awaited at a time capped the relay at one frame per Redis round trip: seconds of queueing at a few
        hundred frames/s on a loaded machine.)"""
        outage = Outage(log, "relay: publishing frames (Redis)")
        while True:
            batch = [await self._frames.get()]
            while not self._frames.empty():
                batch.append(self._frames.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, frame in batch:
                        pipe.publish(channel, frame)
                    await pipe.execute()
                self.published += len(batch)
            except (RedisError, OSError) as exc:  # lost: the receivers' sequence checks notice
                outage.failed(exc)
            else:
                outage.ok()

    # -- receiving -------------------------------------------------------------------------------------

    async def _listen(self, pubsub: Any) -> None:
        await listen_through_outages(pubsub, Outage(log, "relay: the Redis subscription"), self._dispatch,
                                     pause=0.5, on_broken=self._subscription_broke)

    def _subscription_broke(self) -> None:
        if self.on_broken is not None:  # read when it breaks: the cluster sets it after constructing us
            self.on_broken()

    def _dispatch(self, data: bytes | str) -> None:
        lines = (data.decode() if isinstance(data, bytes) else data).split("\n")
        i = 0
        while i < len(lines):
            try:
                header = json.loads(lines[i])
                n = int(header.get("n", 0))
            except (ValueError, AttributeError):
                log.warning("relay: bad frame record skipped")
                return
            texts = lines[i + 1:i + 1 + n]
            i += 1 + n
            self.records_in += 1
            metrics.relay_received(header.get("ts"))
            try:
                self.on_record(header, texts)
            except Exception:
                log.exception("relay: handling a %s record failed", header.get("k"))


class RemoteLink(SeatLink):
    """The owner's end of a socket held by another process: what the actor queues goes over the relay."""

    def __init__(self, relay: Relay, holder: str, link_id: str, on_close: Callable[[RemoteLink], None]) -> None:
        super().__init__(1)
        self.relay, self.holder, self.link_id = relay, holder, link_id
        self._on_close = on_close

    def send(self, text: str) -> bool:
        if self.closed:
            return False
        self.relay.send(self.holder, {"k": "out", "l": self.link_id}, [text])
        return True

    def close(self, code: int, reason: str, drop: bool = False) -> None:
        if self.closed:
            return
        self.close_code, self.close_reason = code, reason
        self.relay.send(self.holder, {"k": "close", "l": self.link_id, "c": code, "r": reason})
        self._on_close(self)


class HeldLink(SeatLink):
    """The holder's end: the socket's outbox, fed by ``out`` records, checked for gaps.

    ``on_gap`` (the holder's ``RelaySides.resync``): a lost frame asks the owner for a fresh snapshot under
    a new link id, and the socket stays open; without it the socket closes with 1012 and its client
    reconnects.  ``stale``: frames may have been lost (the subscription broke); the next watch round resyncs."""

    def __init__(self, maxsize: int, link_id: str, table_id: str, owner: str, *,
                 on_gap: Callable[[HeldLink], None] | None = None) -> None:
        super().__init__(maxsize)
        self.link_id, self.table_id, self.owner = link_id, table_id, owner
        self.on_gap = on_gap
        self.seq = 0
        self.answered = False  # the owner has sent something (a snapshot, or a close)
        self.waited = 0  # relay-watch rounds without an answer
        self.stale = False
        self.resyncs = 0  # resyncs asked since the owner last answered

    def deliver(self, seq: int, texts: list[str]) -> None:
        self.answered = True
        if seq != self.seq + 1:
            if self.on_gap is None:
                self.close(RELAY_GAP, "a relayed message was lost; reconnect", drop=True)
            else:
                self.on_gap(self)
            return
        self.seq, self.resyncs = seq, 0
        for text in texts:
            if not self.send(text):
                return
