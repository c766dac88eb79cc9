"""The relay's frames and gap check, and the Redis table leases (issue 10, several processes)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from typing import Any

import pytest

from app.tables.cluster.lease import Silence, TableLeases
from app.tables.cluster.relay import RELAY_GAP, HeldLink, Relay, RemoteLink
from tests.app.support.cluster_harness import forget_keys

REDIS = os.environ.get("REDIS_URL")


def _pair() -> tuple[Relay, Relay, list[tuple[dict[str, Any], list[str]]]]:
    got: list[tuple[dict[str, Any], list[str]]] = []
    sender = Relay(None, "a", lambda h, t: None)
    receiver = Relay(None, "b", lambda h, t: got.append((h, t)))
    return sender, receiver, got


def _deliver(sender: Relay, receiver: Relay) -> int:
    """What ``sender`` queued this turn, handed to ``receiver`` as Redis would; returns the frame count."""
    sender._flush()
    frames = 0
    while not sender._frames.empty():
        channel, frame = sender._frames.get_nowait()
        assert channel == "mahjong:relay:b"
        receiver._dispatch(frame.encode())
        frames += 1
    return frames


async def test_one_turn_of_records_is_one_frame_in_order_with_one_out_record_per_link() -> None:
    sender, receiver, got = _pair()
    tricky = json.dumps({"type": "event", "text": "line one\nline two 東"})  # JSON escapes the newline
    sender.send("b", {"k": "out", "l": "L1"}, [tricky])
    sender.send("b", {"k": "out", "l": "L1"}, ['{"type":"prompt"}'])
    sender.send("b", {"k": "out", "l": "L2"}, ['{"x":1}'])
    sender.send("b", {"k": "in", "l": "L3", "m": '{"type":\n"ping"}'})  # a raw client message, newline and all
    sender.send("b", {"k": "close", "l": "L1", "c": 1000, "r": "over"})
    assert _deliver(sender, receiver) == 1
    assert [(h["k"], h.get("l"), h.get("s"), t) for h, t in got] == [
        ("out", "L1", 1, [tricky, '{"type":"prompt"}']),
        ("out", "L2", 1, ['{"x":1}']),
        ("in", "L3", None, []),
        ("close", "L1", None, []),
    ]
    assert got[2][0]["m"] == '{"type":\n"ping"}' and got[3][0]["c"] == 1000
    # Numbering goes on per link in the next turn.
    got.clear()
    sender.send("b", {"k": "out", "l": "L1"}, ["{}"])
    _deliver(sender, receiver)
    assert got[0][0]["s"] == 2


async def test_a_lost_frame_closes_the_relayed_socket_so_the_client_resyncs() -> None:
    link = HeldLink(16, "L1", "t1", "owner")
    link.deliver(1, ["m1", "m2"])
    link.deliver(2, ["m3"])
    assert not link.closed and [link.queue.get_nowait() for _ in range(3)] == ["m1", "m2", "m3"]
    link.deliver(4, ["m5"])  # frame 3 was lost
    assert link.close_code == RELAY_GAP
    assert link.queue.get_nowait() is None and link.queue.empty()  # nothing after the gap is shown
    link.deliver(5, ["m6"])
    assert link.queue.empty()


async def test_a_link_closed_in_the_turn_of_its_last_messages_delivers_them_all_then_closes() -> None:
    """Issue 27: at game over the owner queues ``hand_result`` and ``game_over`` for a relayed seat and closes
    its link in the same turn (``RemoteLink.close`` forgets the link's counter).  Those last ``out`` records
    keep their numbers, so the holder shows them and then closes normally, instead of seeing a gap (1012)."""
    sender = Relay(None, "a", lambda h, t: None)
    held = HeldLink(16, "L1", "t1", "a")

    def on_record(header: dict[str, Any], texts: list[str]) -> None:
        if header["k"] == "out":
            held.deliver(int(header["s"]), texts)
        elif header["k"] == "close":
            held.close(int(header["c"]), str(header["r"]))

    receiver = Relay(None, "b", on_record)
    remote = RemoteLink(sender, "b", "L1", lambda link: sender.forget(link.link_id))
    remote.send("event 1")
    _deliver(sender, receiver)
    remote.send("hand_result")
    remote.send("game_over")
    remote.close(1000, "the game is over")
    _deliver(sender, receiver)
    shown = [held.queue.get_nowait() for _ in range(held.queue.qsize())]
    assert shown == ["event 1", "hand_result", "game_over", None]
    assert held.close_code == 1000 and held.seq == 2


@pytest.mark.skipif(not REDIS, reason="the lease tests need Redis: set REDIS_URL (CI sets it)")
async def test_leases_are_exclusive_renewed_only_by_their_holder_and_tokens_only_grow() -> None:
    from redis.asyncio import Redis

    assert REDIS is not None
    redis = Redis.from_url(REDIS)
    prefix = f"l{secrets.token_hex(4)}"
    a, b = TableLeases(redis, "pa", 5, prefix=prefix), TableLeases(redis, "pb", 5, prefix=prefix)
    try:
        first = await a.acquire("t1")
        assert first == 1 and await b.acquire("t1") is None  # one owner at a time
        assert await a.owner("t1") == "pa" and await b.owners(["t1", "t2"]) == ["pa", None]
        assert await a.renew(["t1"]) == set() and await b.renew(["t1"]) == {"t1"}  # b holds nothing
        await b.release("t1")  # not b's: nothing happens
        assert await a.owner("t1") == "pa"
        await a.release("t1")
        second = await b.acquire("t1")
        assert second is not None and second > first  # a new owner, a newer token
        assert await a.renew(["t1"]) == {"t1"}  # the former owner learns it lost the table
        await redis.delete(b.fence_key("t1"))  # Redis lost its counter; the database holds 7
        assert await b.raise_token("t1", 8) == 8 and await b.raise_token("t1", 8) == 9
        await a.beat()
        assert await b.alive(["pa", "pb"]) == {"pa"}
        await a.leave()
        assert await b.alive(["pa"]) == set()
    finally:
        await forget_keys(redis, prefix)
        await redis.aclose()


async def test_nothing_is_published_before_the_turn_ends() -> None:
    sender, _receiver, _got = _pair()
    sender.send("b", {"k": "join"})
    assert sender._frames.empty()  # queued; the frame is built when the loop turns
    await asyncio.sleep(0)
    assert sender._frames.qsize() == 1


async def test_a_seat_whose_holder_looks_dead_is_told_to_reconnect_not_that_it_left() -> None:
    """Issue 27 (chaos suite): after a Redis restart or cut, a holder's heartbeat may be missing for a moment
    though the holder lives.  The owner then lets the seat go (托管), but the holder, if it hears, must close
    the player's socket with 1012 (reconnect), never 1000 ("left"): clients take 1000 as final (web/js/net.js)
    and that player would never come back to the table."""
    from types import SimpleNamespace

    from app.tables.cluster.cluster import ClusterRuntime
    from app.tables.play.commands import Leave

    sender = Relay(None, "owner", lambda h, t: None)
    posted: list[Any] = []
    actor = SimpleNamespace(post=posted.append)
    rlink = RemoteLink(sender, "holder", "L1", lambda link: None)

    async def nobody_alive(_ids: Any) -> set[str]:
        return set()

    owner = SimpleNamespace(leases=SimpleNamespace(alive=nobody_alive), remote={"L1": (rlink, actor, 2)},
                            watching={}, silent_holders=Silence())
    await ClusterRuntime._watch_holders(owner)  # type: ignore[arg-type]
    assert posted == [] and "L1" in owner.remote  # one silent round is a Redis blip, not a death (issue 34)
    await ClusterRuntime._watch_holders(owner)  # type: ignore[arg-type]
    assert owner.remote == {} and posted == [Leave(2, rlink)]
    records = sender._records["holder"]
    assert [(h["k"], h.get("c")) for h, _t in records] == [("close", RELAY_GAP)]
