"""Issue 33 item 5: 托管 (auto-play) switched on stays on after a server restart.  The journal keeps the seats on
托管 with the live table (``live_tables.auto_seats``); a resumed table puts them back on it, so the player who
reconnects to the new process is shown 托管 on and the server goes on playing the seat until they are back."""

from __future__ import annotations

import asyncio

import pytest

from tests.app.support.table_harness import harness, is_event, is_type

# Durable tables; the fake clock stands still, so 托管 never gets to play (the seat's prompt stays open).
DURABLE = {"durable": True, "freeze_gc": False, "join_seconds": 0.0, "resume_join_seconds": 30.0,
           "auto_play_delay_seconds": 10.0}


@pytest.mark.timeout(60)
async def test_auto_play_on_stays_on_across_a_restart(settings) -> None:
    async with harness(settings, **DURABLE) as h:
        player = await h.register("autokeep")
        table_id = (await h.client.post("/api/practice", headers=player["headers"],
                                        json={"variant": "tiantai"})).json()["id"]
        seat = await h.connect(table_id, player)
        me = (await seat.recv_until(is_type("snapshot")))["table"]["seat"]
        await seat.send({"type": "auto_play"})
        on = await seat.recv_until(is_event("auto_play"))
        assert on["event"] == {"type": "auto_play", "seat": me, "on": True, "reason": "chosen"}
        journal = h.runtime.journal
        assert journal is not None
        for _ in range(200):  # the actor journals it after the command
            game = await journal.load(table_id)
            if game is not None and game.auto_seats == [me]:
                break
            await asyncio.sleep(0.01)
        assert game is not None and game.auto_seats == [me]
        await seat.disconnect()

    async with harness(settings, **DURABLE) as again:  # a new process on the same database resumes the table
        seat = await again.connect(table_id, player)
        snapshot = await seat.recv_until(is_type("snapshot"))
        assert snapshot["table"]["seats"][me]["auto_play"], snapshot["table"]["seats"]
        prompt = snapshot["prompt"] or await seat.recv_until(is_type("prompt"))
        assert prompt["auto_play"], "the resumed table forgot 托管"
        # Back: 托管 ends, and the journal forgets it too.
        await seat.send({"type": "back"})
        off = await seat.recv_until(is_event("auto_play"))
        assert off["event"] == {"type": "auto_play", "seat": me, "on": False, "reason": "back"}
        journal = again.runtime.journal
        assert journal is not None
        for _ in range(200):
            game = await journal.load(table_id)
            if game is not None and game.auto_seats == []:
                break
            await asyncio.sleep(0.01)
        assert game is not None and game.auto_seats == []
        await seat.disconnect()
