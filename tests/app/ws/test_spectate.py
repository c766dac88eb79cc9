"""A spectator (an operator watching a live table) sees only public information: every engine event as
``for_seat(None)``, no seat's concealed tiles or draws, no prompt, no seed before the hand ends."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.app.conftest import grant_role
from tests.app.support.table_harness import Closed, PlayLog, SeatClient, harness, play_to_the_end
from tests.app.ws.test_ws_spy import _check_event, _replay


async def _spectator(h, table_id: str, player: dict) -> SeatClient:
    """A spectator that is watching: its snapshot has arrived (kept in ``received``).  The socket is accepted
    before the token is checked, so without waiting the players could start and finish a hand first."""
    client = SeatClient(h.app, f"/ws/spectate/{table_id}", token=player["token"])
    await client.connect()
    assert (await client.recv(30))["type"] == "snapshot"
    return client


@pytest.mark.parametrize("variant,seats", [("taiwan", 4), ("tiantai", 3), ("taipao", 4)])
async def test_a_spectator_never_sees_a_hidden_tile(settings, variant, seats):
    async with harness(settings) as h:
        players = [await h.register(f"seat{i}") for i in range(seats)]
        watcher = await h.register("watcher")
        await grant_role(h.app, watcher["id"], "operator")
        table_id = await h.coin_table(variant, players, rounds=1)
        # Watching before the players connect (the game starts when they are all there): every hand is seen.
        spectator = await _spectator(h, table_id, watcher)
        clients = [await h.connect(table_id, p) for p in players]
        logs = [PlayLog() for _ in clients]
        watching = asyncio.create_task(_read_all(spectator))
        await asyncio.wait_for(asyncio.gather(*(
            play_to_the_end(c, random.Random(20 + i), log, declare_rate=0.5 if i == 1 else 0.0)
            for i, (c, log) in enumerate(zip(clients, logs, strict=True)))), 90)
        await asyncio.wait_for(watching, 10)
        seen = spectator.received
        assert seen[0]["type"] == "snapshot" and seen[0]["table"]["seat"] == -1 and seen[0]["prompt"] is None
        assert not any(m["type"] == "prompt" for m in seen)
        assert any(m["type"] == "game_over" for m in seen)
        for result in logs[0].results:
            record = (await h.client.get(f"/api/hands/{result['hand_id']}", headers=players[0]["headers"])).json()
            replay = _replay(variant, record)
            hand = [m for m in seen if m.get("hand_no") == result["hand_no"]]
            events = [m["event"] for m in hand if m["type"] == "event" and "seq" in m["event"]]
            # From its first event on, it has every event, public part only.
            assert events and events == [json.loads(json.dumps(e.for_seat(None))) for e in replay.events
                                         if e.seq >= events[0]["seq"]]
            for m in hand:
                if m["type"] == "event":
                    _check_event(-1, m["event"], revealed=False)
                if m["type"] != "hand_result":
                    assert result["seed"] not in str(m) and result["salt"] not in str(m)
        for m in seen:
            if m["type"] == "snapshot" and m["view"]:
                assert all(p["concealed"] is None for p in m["view"]["players"])


async def _read_all(client: SeatClient) -> None:
    while True:
        try:
            await client.recv(30)
        except Closed:
            return


async def test_only_operators_and_admins_may_spectate(settings):
    async with harness(settings) as h:
        alice, bob = await h.register("alice"), await h.register("bob")
        table = (await h.client.post("/api/practice", headers=alice["headers"], json={"variant": "tiantai"})).json()
        spectator = SeatClient(h.app, f"/ws/spectate/{table['id']}", token=bob["token"])
        await spectator.connect()
        with pytest.raises(Closed) as closed:
            await spectator.recv()
        assert closed.value.code == 4003
        await grant_role(h.app, bob["id"], "admin")
        for token, code in ((bob["token"], 4004), ("forged", 1008)):
            path = "/ws/spectate/nope" if code == 4004 else f"/ws/spectate/{table['id']}"
            client = SeatClient(h.app, path, token=token)
            await client.connect()
            with pytest.raises(Closed) as closed:
                await client.recv()
            assert closed.value.code == code
