"""Deadlines, timeouts, 托管, absent players and the claim hold, all on the fake clock (no real waiting)."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from tests.app.support.table_harness import (
    PlayLog,
    harness,
    is_event,
    is_type,
    play_to_the_end,
)

# These tests follow seat 0's first prompts (F-1 made the first dealer random).
pytestmark = [pytest.mark.asyncio, pytest.mark.usefixtures("seat_0_deals_first")]



async def _table(h, n=3, variant="tiantai", connect=None):
    players = [await h.register(f"timer{i}") for i in range(n)]
    table_id = await h.coin_table(variant, players, rounds=1)
    clients = [await h.connect(table_id, p) for p in players[: connect or n]]
    return players, table_id, clients


@contextlib.asynccontextmanager
async def _others_play(clients):
    tasks = [asyncio.create_task(play_to_the_end(c, random.Random(i), PlayLog())) for i, c in enumerate(clients)]
    try:
        yield
    finally:
        for client in clients:
            client.stop_reading()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _my_prompt(h, me):
    prompt = await me.recv_until(is_type("prompt"))
    await h.settle_loop()  # let the others answer whatever they were asked
    return prompt


async def test_a_timeout_plays_the_default_and_two_in_a_row_mean_auto_play(settings):
    async with harness(settings, grace_seconds=0.5) as h:
        _, _, clients = await _table(h)
        me = clients[0]  # the first dealer
        async with _others_play(clients[1:]):
            prompt = await _my_prompt(h, me)
            assert prompt["kind"] == "turn" and prompt["expires_in_ms"] == 30_000 and not prompt["auto_play"]
            assert prompt["deadline_ms"] == h.clock.wall_ms() + 30_000
            await me.send({"type": "resync"})
            drawn = (await me.recv_until(is_type("snapshot")))["view"]["players"][0]["drawn"]
            h.clock.advance(30.0)  # the deadline, but not the grace
            await h.settle_loop()
            assert not any(m["type"] == "event" and m["event"]["type"] == "discard" for m in me.received)
            h.clock.advance(0.5)
            discard = await me.recv_until(is_event("discard"))
            assert discard["event"] == {"seq": discard["event"]["seq"], "type": "discard", "seat": 0, "tile": drawn}

            prompt = await _my_prompt(h, me)  # the second timeout, on whatever comes next
            h.clock.advance(prompt["expires_in_ms"] / 1000 + 0.5)
            auto = await me.recv_until(is_event("auto_play"))
            assert auto["event"] == {"type": "auto_play", "seat": 0, "on": True, "reason": "timeouts"}

            prompt = await me.recv_until(is_type("prompt"))  # on 托管 the server acts at once, no clock needed
            assert prompt["auto_play"]
            acted = await me.recv_until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0
                                        and m["event"]["type"] in ("discard", "pong", "chow", "kong", "hand_end"))
            assert acted["v"] > prompt["v"] or acted["event"]["type"] == "hand_end"

            await me.send({"type": "back"})
            back = await me.recv_until(is_event("auto_play"))
            assert back["event"] == {"type": "auto_play", "seat": 0, "on": False, "reason": "back"}


async def test_acting_resets_the_timeout_streak(settings):
    async with harness(settings) as h:
        _, _, clients = await _table(h)
        me = clients[0]
        async with _others_play(clients[1:]):
            prompt = await _my_prompt(h, me)
            h.clock.advance(prompt["expires_in_ms"] / 1000)  # timeout 1
            prompt = await _my_prompt(h, me)
            await me.send({"type": "action", "v": prompt["v"], "action": prompt["actions"][0]})
            prompt = await _my_prompt(h, me)
            h.clock.advance(prompt["expires_in_ms"] / 1000)  # timeout 1 again, not 2
            await _my_prompt(h, me)
            assert not any(m["type"] == "event" and m["event"]["type"] == "auto_play" for m in me.received)


async def test_reconnect_replaces_the_old_socket_and_restores_seat_and_time(settings):
    async with harness(settings) as h:
        players, table_id, clients = await _table(h)
        me = clients[0]
        async with _others_play(clients[1:]):
            prompt = await _my_prompt(h, me)
            h.clock.advance(10.0)
            again = await h.connect(table_id, players[0])
            with pytest.raises(Exception) as closed:
                await me.recv_until(lambda m: False)
            assert getattr(closed.value, "code", None) == 4001
            snap = await again.recv_until(is_type("snapshot"))
            assert snap["v"] == prompt["v"] and snap["table"]["seat"] == 0
            assert snap["prompt"]["v"] == prompt["v"] and snap["prompt"]["expires_in_ms"] == 20_000
            assert snap["prompt"]["deadline_ms"] == prompt["deadline_ms"]
            assert len(snap["view"]["players"][0]["concealed"]) == 14  # 天台: 13 + the dealer's extra tile
            assert snap["table"]["seats"][0]["connected"]
            await again.send({"type": "action", "v": prompt["v"], "action": snap["prompt"]["actions"][0]})
            await again.recv_until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0)


async def test_seats_that_join_before_the_deal_are_announced_to_those_already_there(settings):
    """Issue 13 defect 1: the first seat's snapshot predates the others, so their arrival must be announced."""
    async with harness(settings) as h:
        _, _, clients = await _table(h)
        first = clients[0]
        await first.recv_until(is_event("hand_start"))
        arrivals = [m["event"] for m in first.received if is_event("presence")(m) and m["event"]["seat"] != 0]
        assert arrivals == [{"type": "presence", "seat": s, "connected": True, "auto_play": False} for s in (1, 2)]


async def test_a_disconnected_seat_is_held_and_auto_played(settings):
    async with harness(settings) as h:
        players, table_id, clients = await _table(h)
        me, watcher = clients[0], clients[1]
        async with _others_play([clients[2]]):
            await me.disconnect()
            # (the presence events of the seats joining before the deal came first: skip them)
            gone = await watcher.recv_until(lambda m: is_event("presence")(m) and m["event"]["seat"] == 0
                                            and not m["event"]["connected"])
            assert gone["event"] == {"type": "presence", "seat": 0, "connected": False, "auto_play": True}
            # seat 0 is auto-played (its discard comes with no clock movement); the watcher plays along
            log = PlayLog()
            task = asyncio.create_task(play_to_the_end(watcher, random.Random(1), log))
            for _ in range(500):  # real time, but only until seat 0's auto-played discard shows up
                if any(m["type"] == "event" and m["event"]["type"] == "discard" and m["event"]["seat"] == 0
                       for m in watcher.received):
                    break
                await asyncio.sleep(0.01)
            else:
                pytest.fail("seat 0 was not auto-played")
            back = await h.connect(table_id, players[0])
            snap = await back.recv_until(is_type("snapshot"))
            assert snap["table"]["seats"][0]["connected"] and not snap["table"]["seats"][0]["auto_play"]
            watcher.stop_reading()
            await asyncio.gather(task, return_exceptions=True)
            assert any(m["type"] == "event" and m["event"] == {"type": "presence", "seat": 0, "connected": True, "auto_play": False}
                       for m in watcher.received)


async def test_an_absent_player_does_not_block_the_start(settings):
    async with harness(settings, join_seconds=20.0) as h:
        _, _, clients = await _table(h, connect=2)
        await h.settle_loop()
        assert not any(m["type"] == "event" for m in clients[0].received)
        h.clock.advance(20.0)
        start = await clients[0].recv_until(is_event("hand_start"))
        assert len(start["event"]["commitment"]) == 64
        seats = (await clients[0].recv_until(is_type("prompt")))  # seat 2 is auto-played meanwhile
        assert seats["kind"] in ("turn", "claim")


def _discard_gaps(clients):
    """The time from each discard the first seat saw to the next event, split by whether anyone was offered a claim."""
    claim_vs = {m["v"] for c in clients for m in c.received if m["type"] == "prompt" and m["kind"] == "claim"}
    watcher = clients[0]
    gaps = {True: [], False: []}
    messages = list(zip(watcher.received, watcher.times, strict=True))
    for i, (m, t) in enumerate(messages):
        if m["type"] == "event" and m["event"]["type"] == "discard":
            nxt = next((t2 for m2, t2 in messages[i + 1:] if m2["type"] == "event"), None)
            if nxt is not None:  # (the run stops somewhere in a later hand)
                gaps[m["v"] in claim_vs].append(round(nxt - t, 6))
    return gaps


async def test_what_follows_a_discard_waits_for_the_claim_hold_either_way(settings):
    """The time from a discard to the next event does not depend on whether anyone could claim."""
    async with harness(settings, claim_hold_seconds=1.0) as h:
        _, _, clients = await _table(h)
        logs = [PlayLog() for _ in clients]
        tasks = [asyncio.create_task(play_to_the_end(c, random.Random(i), log))
                 for i, (c, log) in enumerate(zip(clients, logs, strict=True))]
        # The wall comes from the server's own randomness, so a hand may offer no claim at all: play on, hand
        # after hand, until both cases have happened (a 1-round match is at least three hands).
        for step in range(6000):
            if step % 40 == 0 and logs[0].results:
                gaps = _discard_gaps(clients)
                if gaps[True] and gaps[False]:
                    break
            # Messages are stamped with the fake clock: moving it while a discard is still on its way (a seat's
            # resync and reply, a settlement in SQLite's thread) stamped it late, a 0.75 s "gap".
            await h.settle_until_quiet(clients)
            h.clock.advance(0.25)
        for client in clients:
            client.stop_reading()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert logs[0].results
        gaps = _discard_gaps(clients)
        assert gaps[True] and gaps[False]  # both cases happened
        assert set(gaps[True]) == set(gaps[False]) == {1.0}


async def test_auto_play_switched_on_by_hand_plays_the_open_prompt_until_back(settings):
    """Issue 26 item 11: a player may switch 托管 on by hand (``auto_play``); the server then answers the open
    prompt for the seat at once and goes on doing so until the player says ``back``."""
    async with harness(settings) as h:
        _, _, clients = await _table(h)
        me = clients[0]  # the first dealer
        async with _others_play(clients[1:]):
            prompt = await _my_prompt(h, me)
            assert not prompt["auto_play"]
            await me.send({"type": "auto_play"})
            auto = await me.recv_until(is_event("auto_play"))
            assert auto["event"] == {"type": "auto_play", "seat": 0, "on": True, "reason": "chosen"}
            acted = await me.recv_until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0
                                        and m["event"]["type"] in ("discard", "kong", "hand_end"))
            assert acted["v"] > prompt["v"] or acted["event"]["type"] == "hand_end"
            await me.send({"type": "auto_play"})  # already on: nothing more is said
            await me.send({"type": "back"})
            back = await me.recv_until(is_event("auto_play"))
            assert back["event"] == {"type": "auto_play", "seat": 0, "on": False, "reason": "back"}
            ons = [m for m in me.received if m["type"] == "event" and m["event"]["type"] == "auto_play"
                   and m["event"]["on"]]
            assert len(ons) == 1
