"""Issue 34: a Redis blip changes nothing a player sees.  The pieces, one by one: a live owner re-asserts the
lease Redis lost and learns its heartbeat had gone; a take-over waits a grace period (longer while the named
owner beats); a process is dead only when silent two rounds running; a relayed socket that lost frames
resyncs (a fresh snapshot under a new link id) instead of closing with 1012."""

from __future__ import annotations

import os
import secrets
from types import SimpleNamespace
from typing import Any

import pytest

from app.tables.cluster.cluster import ClusterRuntime, takeover_grace
from app.tables.cluster.lease import FreeLeases, Silence, TableLeases
from app.tables.cluster.relay import RELAY_GAP, HeldLink, Relay
from tests.app.support.cluster_harness import forget_keys

REDIS = os.environ.get("REDIS_URL")


@pytest.mark.skipif(not REDIS, reason="the lease tests need Redis: set REDIS_URL (CI sets it)")
async def test_a_live_owner_reasserts_the_leases_and_heartbeat_an_empty_redis_lost() -> None:
    from redis.asyncio import Redis

    assert REDIS is not None
    redis = Redis.from_url(REDIS)
    prefix = f"l{secrets.token_hex(4)}"
    a, b = TableLeases(redis, "pa", 5, prefix=prefix), TableLeases(redis, "pb", 5, prefix=prefix)
    try:
        assert await a.beat()  # the first beat: nothing was there
        assert not await a.beat()  # the heartbeat was there
        await a.acquire("t1")
        await a.acquire("t2")
        await forget_keys(redis, prefix)  # Redis restarted empty
        assert await a.beat()  # gone: the process writes back what it keeps in Redis
        assert await a.renew(["t1", "t2"]) == set() and a.reasserted == 2
        assert await b.owners(["t1", "t2"]) == ["pa", "pa"] and await b.acquire("t1") is None
        await redis.set(a.lease_key("t2"), "pb")  # another process holds it now: lost, never overwritten
        assert await a.renew(["t1", "t2"]) == {"t2"} and a.reasserted == 2
        assert await a.owner("t2") == "pb"
    finally:
        await forget_keys(redis, prefix)
        await redis.aclose()


def test_a_free_lease_is_taken_only_after_the_grace_and_later_while_its_named_owner_beats() -> None:
    grace = takeover_grace(3.0)
    assert grace >= 3.0 / 3  # at least one renewal round of the owner
    free = FreeLeases(grace=grace, patience=3.0 + grace)
    assert not free.ripe("t", 100.0)  # first seen free: wait
    assert not free.ripe("t", 100.0 + grace - 0.01)
    assert free.ripe("t", 100.0 + grace)
    assert not free.ripe("t", 100.0 + grace, owner_alive=True)  # the owner beats: it re-asserts soon
    assert free.ripe("t", 100.0 + 3.0 + grace, owner_alive=True)  # it never did: the table is taken
    free.held(["t"])  # held again: the clock starts afresh
    assert not free.ripe("t", 200.0)


def test_a_process_is_dead_only_when_silent_two_rounds_running() -> None:
    silence = Silence()
    assert silence.dead({"p", "q"}, alive={"q"}) == set()
    assert silence.dead({"p", "q"}, alive={"p", "q"}) == set()  # back: its count starts again
    assert silence.dead({"p", "q"}, alive={"q"}) == set()
    assert silence.dead({"p", "q"}, alive={"q"}) == {"p"}


def _holder() -> tuple[ClusterRuntime, list[tuple[str, dict[str, Any]]]]:
    runtime = ClusterRuntime()
    sent: list[tuple[str, dict[str, Any]]] = []
    runtime.relay = SimpleNamespace(send=lambda p, h, t=None: sent.append((p, h)))  # type: ignore[assignment]
    runtime.process_id = "holder"
    return runtime, sent


def test_a_relayed_seat_that_lost_a_frame_resyncs_under_a_new_link_and_stays_open() -> None:
    runtime, sent = _holder()
    link = runtime.hold_link("t1", "owner")
    runtime.ask(link, {"k": "join", "t": "t1", "u": 7, "l": link.link_id, "h": "holder"})
    first = link.link_id
    link.deliver(1, ["snapshot v=5"])
    link.deliver(3, ["event v=7"])  # frame 2 was lost
    assert not link.closed and link.link_id != first and link.seq == 0
    assert list(runtime.held) == [link.link_id]
    assert sent[-1] == ("owner", {"k": "join", "t": "t1", "u": 7, "l": link.link_id, "h": "holder"})
    link.deliver(1, ["snapshot v=7"])  # the owner's fresh snapshot, numbered from 1 on the new link
    assert [link.queue.get_nowait() for _ in range(2)] == ["snapshot v=5", "snapshot v=7"]
    assert link.resyncs == 0


def test_a_relayed_spectator_resyncs_and_its_old_link_is_unwatched() -> None:
    runtime, sent = _holder()
    link = runtime.hold_link("t1", "owner")
    runtime.ask(link, {"k": "watch", "t": "t1", "l": link.link_id, "h": "holder"})
    first = link.link_id
    runtime.resync(link)
    assert [h["k"] for _p, h in sent[1:]] == ["watch", "unwatch"] and sent[2][1]["l"] == first


async def test_a_broken_subscription_resyncs_held_sockets_at_the_next_round_and_never_closes_them() -> None:
    runtime, sent = _holder()
    link = runtime.hold_link("t1", "owner")
    runtime.ask(link, {"k": "join", "t": "t1", "u": 7, "l": link.link_id, "h": "holder"})
    link.deliver(1, ["snapshot"])

    async def owners(_ids: Any) -> list[str | None]:
        return [None]  # Redis came back empty: the owner has not re-asserted its lease yet

    async def alive(_ids: Any) -> set[str]:
        return set()  # nor its heartbeat

    runtime.leases = SimpleNamespace(owners=owners, alive=alive)  # type: ignore[assignment]
    runtime._relay_broken()
    assert link.stale and not link.closed
    await runtime._watch_held()
    assert not link.closed and not link.stale and sent[-1][1]["k"] == "join"
    await runtime._watch_held()  # the owner silent a second round: it died, the player reconnects
    assert link.close_code == RELAY_GAP


async def test_a_link_whose_owner_never_answers_its_resyncs_closes_with_1012() -> None:
    runtime, _sent = _holder()
    link = runtime.hold_link("t1", "owner")
    runtime.ask(link, {"k": "join", "t": "t1", "u": 7, "l": link.link_id, "h": "holder"})

    async def owners(_ids: Any) -> list[str | None]:
        return ["owner"]

    async def alive(_ids: Any) -> set[str]:
        return {"owner"}

    runtime.leases = SimpleNamespace(owners=owners, alive=alive)  # type: ignore[assignment]
    for _ in range(40):
        await runtime._watch_held()
        if link.closed:
            break
    assert link.close_code == RELAY_GAP and link.resyncs == 3


def test_without_a_resync_a_held_link_still_closes_on_a_gap() -> None:
    link = HeldLink(4, "L", "t", "o")
    link.deliver(2, ["x"])
    assert link.close_code == RELAY_GAP
    assert Relay(None, "a", lambda h, t: None).channel("b").endswith(":relay:b")
