"""Live tournament tables (issue 23).  Freezing a player mid-tournament: the frozen seat plays on 托管 to the end
of the round and the table goes on for the others; the player is disqualified — not seated in the next round,
paid no prize.  A force-closed table keeps its own record."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest

from app.models import User
from app.services import commitments
from tests.app.conftest import grant_role
from tests.app.support.table_harness import PlayLog, harness, is_event, play_to_the_end

pytestmark = pytest.mark.asyncio


async def _table_of(h, tid: int, user_id: int, round_no: int) -> str:
    t = (await h.client.get(f"/api/tournaments/{tid}")).json()
    (game,) = [g for g in t["tables"] if g["round"] == round_no and user_id in g["seats"]]
    return game["table_id"]


async def _until(h, tid: int, done) -> dict:  # noqa: ANN001 - a predicate on the tournament
    for _ in range(3000):  # the director records the game after the table's last message: wait for it
        t = (await h.client.get(f"/api/tournaments/{tid}")).json()
        if done(t):
            return t
        await asyncio.sleep(0.01)
    raise AssertionError(f"tournament {tid} never got there: {t}")


async def _started(h, **settings) -> tuple[dict, list[dict], int]:  # noqa: ANN001, ANN003
    """An operator, three players registered in a tiantai tournament of ``settings``, started."""
    op = await h.register("oper")
    await grant_role(h.app, op["id"], "operator")
    players = [await h.register(f"player{i}") for i in range(3)]
    body = {"name": "Live cup", "room": "beginner", "variant": "tiantai", "player_limit": 3,
            "starts_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(), "prize_split": [100],
            "options": {}, **settings}
    tid = (await h.client.post("/api/operator/tournaments", headers=op["headers"], json=body)).json()["id"]
    for p in players:
        assert (await h.client.post(f"/api/tournaments/{tid}/register", headers=p["headers"])).status_code == 200
    await h.app.state.tournaments.start(tid)
    return op, players, tid


async def test_a_frozen_player_plays_on_autoplay_to_the_end_of_the_round_then_is_disqualified(settings):
    async with harness(settings) as h:
        boss = await h.register("boss")
        await grant_role(h.app, boss["id"], "admin")
        _op, players, tid = await _started(h, entry_fee=1_000, rounds=2, hands_per_round=2)
        table_id = await _table_of(h, tid, players[0]["id"], 1)
        frozen_seat = (await h.client.get(f"/api/tournaments/{tid}")).json()["tables"][0]["seats"].index(
            players[0]["id"])
        clients = [await h.connect(table_id, p) for p in players]
        logs = [PlayLog() for _ in players]
        others = [asyncio.create_task(play_to_the_end(c, random.Random(i), log))
                  for i, (c, log) in enumerate(zip(clients[1:], logs[1:], strict=True), start=1)]

        # Player 0 plays the first hand and then answers nothing (the fake clock never times them out), so the
        # second hand waits on them until an admin freezes the account: 托管 plays their seat from there.  They
        # stop reading at the first hand's result: stopping once it had arrived let them answer the second
        # hand's first prompts, already queued, and a hand that ended before it needed them again ended the
        # game before the freeze (a flake on Postgres).
        await asyncio.wait_for(play_to_the_end(clients[0], random.Random(0), logs[0], stop_after="hand_result"), 30)
        response = await h.client.post(f"/api/admin/users/{players[0]['id']}/freeze", headers=boss["headers"],
                                       json={"frozen": True, "reason": "chargeback"})
        assert response.status_code == 200, response.text

        # The table went on: both hands of the round were played, its game ended by the hand limit.
        await asyncio.wait_for(asyncio.gather(*others), 60)
        over = logs[1].game_over
        assert over is not None and over["reason"] == "rounds_complete" and over["hands_played"] == 2, over
        assert len(logs[1].results) == 2 and not any(r["void"] for r in logs[1].results)
        assert any(m["event"].get("seat") == frozen_seat and m["event"].get("reason") == "frozen"
                   for m in clients[1].received if is_event("auto_play")(m))

        # Round 2 seats the two others (and a house bot), not the frozen player.
        t = await _until(h, tid, lambda t: any(g["round"] == 2 and g["table_id"] for g in t["tables"]))
        round2 = [g for g in t["tables"] if g["round"] == 2]
        assert len(round2) == 1 and players[0]["id"] not in round2[0]["seats"]
        assert sorted(s for s in round2[0]["seats"] if s) == sorted(p["id"] for p in players[1:])
        standing = {s["user_id"]: s for s in t["standings"]}
        assert standing[players[0]["id"]]["disqualified"] is True
        async with h.app.state.services.sessionmaker() as session:  # free of the tournament once out
            assert await commitments.current(session, players[0]["id"]) is None

        table2 = round2[0]["table_id"]
        for _ in range(3000):  # the director stores the table's id just before it opens the table
            if (await h.client.get(f"/api/tables/{table2}")).status_code == 200:
                break
            await asyncio.sleep(0.01)
        clients2 = [await h.connect(table2, p) for p in players[1:]]
        logs2 = [PlayLog() for _ in clients2]
        await asyncio.wait_for(asyncio.gather(*(play_to_the_end(c, random.Random(9 + i), log)
                                               for i, (c, log) in enumerate(zip(clients2, logs2, strict=True)))), 60)
        t = await _until(h, tid, lambda t: t["state"] == "finished")
        assert t["pool"] == 0
        prizes = {s["user_id"]: s["prize"] for s in t["standings"]}
        assert prizes[players[0]["id"]] == 0 and sum(prizes.values()) == 3_000
        async with h.app.state.services.sessionmaker() as session:  # a frozen account's sessions are ended
            assert (await session.get(User, players[0]["id"])).coins == 49_000


async def test_a_force_closed_tournament_table_keeps_its_own_record(settings):
    """Issue 23: force-closing a tournament table started its game again at a new table and the record named
    only the new table, one that had never played.  Now the game's record keeps the closed table: its hands
    are under its own id, and the new table is the game's from then on."""
    async with harness(settings, durable=True) as h:
        op, players, tid = await _started(h, entry_fee=0, rounds=1, hands_per_round=3)
        closed = await _table_of(h, tid, players[0]["id"], 1)
        clients = [await h.connect(closed, p) for p in players]
        logs = [PlayLog() for _ in players]
        tasks = [asyncio.create_task(play_to_the_end(c, random.Random(i), log))
                 for i, (c, log) in enumerate(zip(clients, logs, strict=True))]
        while not logs[0].results:  # one hand played there
            await asyncio.sleep(0.01)
        for client in clients:
            client.stop_reading()
        await asyncio.gather(*tasks)
        response = await h.client.post(f"/api/operator/tables/{closed}/close", headers=op["headers"],
                                       json={"reason": "stuck", "force": True})
        assert response.status_code == 200, response.text
        for _ in range(3000):  # the closed table's actor ends and takes its game out of the journal
            if await h.runtime.journal.load(closed) is None:
                break
            await asyncio.sleep(0.01)
        await h.app.state.tournaments.tick()  # the game starts again at a new table

        (game,) = (await h.client.get(f"/api/tournaments/{tid}")).json()["tables"]
        assert game["closed_tables"] == [closed] and game["table_id"] not in (None, closed)
        assert not game["finished"] and game["hands_played"] == 0
        assert (await h.client.get(f"/api/tables/{game['table_id']}")).status_code == 200
        hand = (await h.client.get(f"/api/hands/{logs[0].results[0]['hand_id']}", headers=players[0]["headers"]))
        assert hand.status_code == 200 and hand.json()["table_id"] == closed
