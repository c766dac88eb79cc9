"""A force-closed table says so (issue 24): ``game_over`` with reason ``table_closed``, then close code 4005.

Before, its sockets closed with 1001 (the code that means "reconnect, the server is restarting") and no
``game_over``, so a client could not tell "gone" from "come back"; it reconnected to a 4004.
"""

from __future__ import annotations

import asyncio

import pytest

from app.tables.protocol.close_codes import CLOSE_CODES, TABLE_GONE
from tests.app.conftest import grant_role
from tests.app.support.table_harness import Closed, SeatClient, harness, is_type


async def test_a_force_closed_table_sends_game_over_then_closes_with_its_own_code(settings):
    async with harness(settings) as h:
        op, bob = await h.register("oper"), await h.register("bob")
        await grant_role(h.app, op["id"], "operator")
        table_id = (await h.client.post("/api/practice", headers=bob["headers"], json={"variant": "tiantai"})).json()["id"]
        seat = await h.connect(table_id, bob)
        watcher = SeatClient(h.app, f"/ws/spectate/{table_id}", token=op["token"])
        await watcher.connect()
        for socket in (seat, watcher):
            await socket.recv_until(is_type("snapshot"))
        closed = await h.client.post(f"/api/operator/tables/{table_id}/close", headers=op["headers"],
                                     json={"reason": "stuck", "force": True})
        assert closed.status_code == 200, closed.text
        for socket in (seat, watcher):
            over = await socket.recv_until(is_type("game_over"))
            assert over["reason"] == "table_closed" and over["stood_up"] == []
            with pytest.raises(Closed) as gone:
                while True:
                    await socket.recv()
            assert gone.value.code == TABLE_GONE == 4005
        assert TABLE_GONE in CLOSE_CODES and TABLE_GONE not in (1001, 1012, 1013)  # not "reconnect"
        # Reconnecting finds no game (the client stops at 4005 and does not try).
        again = SeatClient(h.app, f"/ws/table/{table_id}", token=bob["token"])
        await again.connect()
        with pytest.raises(Closed) as refused:
            await asyncio.wait_for(again.recv(), 5)
        assert refused.value.code == 4004
