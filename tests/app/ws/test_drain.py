"""SIGTERM's drain (issue 9 item 5, issue 10): no new tables or seats, ``server_restarting`` to the lobby and
every seat, then their sockets close with 1001 (never 1012).  tests/app/tables/durability/test_durable_restart.py does the same
through a real process and signal."""

from __future__ import annotations

import pytest

from app.tables.protocol.messages import server_message
from tests.app.support.table_harness import Closed, harness, is_type


async def test_a_drain_tells_every_socket_and_refuses_new_tables(settings) -> None:
    async with harness(settings) as h:
        players = [await h.register(f"drain{i}") for i in range(4)]
        table_id = await h.coin_table("tiantai", players[:3], rounds=1)
        seats = [await h.connect(table_id, p) for p in players[:3]]
        for seat in seats:
            await seat.recv_until(is_type("snapshot"))
        lobby = await h.connect_path("/ws/lobby", players[3])
        await lobby.recv_until(is_type("snapshot"))

        await h.runtime.drain(pause_seconds=7, timeout=5)

        for seat in seats:
            notice = await seat.recv_until(is_type("server_restarting"))
            assert server_message.validate_python(notice).pause_seconds == 7  # a documented message
            with pytest.raises(Closed) as closed:
                await seat.recv_until(lambda m: False)
            assert closed.value.code == 1001
        assert (await lobby.recv_until(is_type("server_restarting")))["pause_seconds"] == 7
        with pytest.raises(Closed) as closed:
            await lobby.recv_until(lambda m: False)
        assert closed.value.code == 1001
        response = await h.client.post("/api/rooms/beginner/tables", headers=players[3]["headers"],
                                       json={"variant": "tiantai", "options": {}})
        assert response.status_code == 503 and "restarting" in response.json()["detail"]
        response = await h.client.post("/api/practice", headers=players[3]["headers"], json={"variant": "tiantai"})
        assert response.status_code == 503
