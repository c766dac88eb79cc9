"""Owner-aware routing (issue 36): a socket's ticket names the process that owns its table, so the proxy can
route the socket there and it needs no relay.  Two real servers, named n0 and n1, on one Postgres and Redis.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from app.tables.cluster.cluster import node_of
from tests.app.support.cluster_harness import quick_players, running_cluster

PG = os.environ.get("TEST_DATABASE_URL")
REDIS = os.environ.get("REDIS_URL")


def test_a_process_id_names_its_node_only_when_it_has_one() -> None:
    assert node_of("n1~host-42-abc123") == "n1"
    assert node_of("host-42-abc123") is None
    assert node_of("~host-42-abc123") is None


@pytest.mark.skipif(not (PG and REDIS), reason="several processes need Postgres and Redis: set "
                    "TEST_DATABASE_URL (postgresql+asyncpg://...) and REDIS_URL (CI sets both)")
async def test_every_process_names_the_owner_of_a_playing_and_of_a_waiting_table(tmp_path: Path) -> None:
    assert PG is not None and REDIS is not None
    async with running_cluster(PG, REDIS, tmp_path, n=2, named=True) as cluster:
        alice, bob = await quick_players(cluster, "route", 2)
        urls = cluster.urls
        async with httpx.AsyncClient(timeout=30) as client:
            # a practice table plays at once, leased by the process that opened it (n0)
            made = await client.post(f"{urls[0]}/api/practice", headers=alice["headers"], json={"variant": "taiwan"})
            assert made.status_code == 201, made.text
            playing = made.json()["id"]
            # a coin table waiting for players is in the directory of the process that opened it (n1)
            made = await client.post(f"{urls[1]}/api/rooms/beginner/tables", headers=bob["headers"],
                                     json={"variant": "taiwan", "options": {"rounds": 1}})
            assert made.status_code == 201, made.text
            waiting = made.json()["id"]
            for url in urls:  # the answer is the same whichever process the proxy sent the ticket request to
                for table_id, owner in ((playing, "n0"), (waiting, "n1"), ("nosuchtable", None)):
                    answer = await client.post(f"{url}/api/ws-ticket", params={"table": table_id},
                                               headers=alice["headers"])
                    assert answer.status_code == 200 and answer.json()["node"] == owner, (url, table_id, answer.text)
