"""F-8: quick play offers, per room and variant, one 圈 (東風戰, the default) and four 圈 (全莊) as separate
pools (docs/rules/rooms.md#quick-play F-8).  The API, the pools of both stores and the matched table's options."""

from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path

import pytest

from app.quickplay.matcher import lobby_queues
from app.quickplay.matching import QUICK_PLAY_ROUNDS, TYPICAL_GAME_MINUTES, QueueEntry
from app.quickplay.redis_store import RedisQueueStore
from app.quickplay.store import LocalQueueStore
from tests.app.support.cluster_harness import forget_keys

ROOT = Path(__file__).resolve().parents[3]

REDIS_URL = os.environ.get("REDIS_URL")


@pytest.fixture
def settings(settings):  # noqa: F811 - the matcher's waves are stepped by the tests
    return settings.model_copy(update={"quickplay_matcher": False})


def test_one_round_comes_first_and_is_the_default() -> None:
    assert QUICK_PLAY_ROUNDS == (1, 4)


def test_the_client_offers_the_servers_lengths_in_its_order() -> None:
    """web/js/render/quickplay.js declares the lengths again (the buttons exist before the lobby's snapshot)."""
    source = (ROOT / "web/js/render/quickplay.js").read_text("utf-8")
    declared = re.search(r"export const QUICK_PLAY_ROUNDS = \[([^\]]*)\];", source)
    assert declared is not None
    assert tuple(int(x) for x in declared.group(1).split(",")) == QUICK_PLAY_ROUNDS


def test_docs_server_quotes_the_typical_minutes_as_declared() -> None:
    """docs/server.md's table of a game's typical length is TYPICAL_GAME_MINUTES (measured: bench/game_length.py)."""
    text = (ROOT / "docs/server.md").read_text("utf-8")
    table = text[text.index("<!-- typical-minutes"):]
    for variant in ("tiantai", "taipao", "taiwan"):
        row = re.search(rf"\| {variant} \| (\d+) min \| (\d+) min \|", table)
        assert row is not None, variant
        assert (int(row.group(1)), int(row.group(2))) == (TYPICAL_GAME_MINUTES[variant, 1],
                                                          TYPICAL_GAME_MINUTES[variant, 4])
    assert set(TYPICAL_GAME_MINUTES) == {(v, n) for v in ("tiantai", "taipao", "taiwan") for n in QUICK_PLAY_ROUNDS}


@pytest.mark.parametrize("rounds", [0, 2, 3, 5, "1", None, 1.5])
async def test_a_length_other_than_one_or_four_is_a_422_naming_rounds(client, player, rounds) -> None:
    alice = await player("alice")
    refused = await client.post("/api/rooms/beginner/queue", headers=alice.headers,
                                json={"variant": "taiwan", "rounds": rounds})
    assert refused.status_code == 422, refused.text
    assert "rounds" in refused.text
    assert (await client.get("/api/me/queue", headers=alice.headers)).json()["queued"] is False


@pytest.mark.parametrize(("body", "rounds"), [({"variant": "taiwan"}, 1), ({"variant": "taiwan", "rounds": 1}, 1),
                                             ({"variant": "taiwan", "rounds": 4}, 4)])
async def test_the_queue_and_my_queue_carry_the_length(client, player, body, rounds) -> None:
    alice = await player("alice")
    queued = await client.post("/api/rooms/beginner/queue", headers=alice.headers, json=body)
    assert queued.status_code == 202 and queued.json()["rounds"] == rounds, queued.text
    status = (await client.get("/api/me/queue", headers=alice.headers)).json()
    assert status["queued"] is True and status["rounds"] == rounds
    other = await client.post("/api/rooms/beginner/queue", headers=alice.headers,
                              json={"variant": "taiwan", "rounds": 5 - rounds})
    assert other.status_code == 409 and other.json()["code"] == "in_queue", other.text


async def test_players_waiting_for_different_lengths_are_never_matched_together(client, player, app) -> None:
    players = [await player(f"len{i}") for i in range(8)]
    for i, p in enumerate(players[:4]):
        await client.post("/api/rooms/beginner/queue", headers=p.headers,
                          json={"variant": "taiwan", "rounds": QUICK_PLAY_ROUNDS[i % 2]})
    assert await app.state.matcher.wave() == 0  # two of each length: no table
    sizes = await app.state.matcher.store.sizes()
    assert sizes == {("beginner", "taiwan", 1): 2, ("beginner", "taiwan", 4): 2}
    for p in players[4:6]:
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "taiwan", "rounds": 4})
    assert await app.state.matcher.wave() == 1
    four = {(await client.get("/api/me/queue", headers=p.headers)).json()["table_id"]
            for p in (players[1], players[3], players[4], players[5])}
    (table_id,) = four
    table = (await client.get(f"/api/tables/{table_id}")).json()
    assert table["options"]["rounds"] == 4
    status = (await client.get("/api/me/queue", headers=players[1].headers)).json()
    assert status["rounds"] == 4 and status["table_id"] == table_id
    assert (await client.get("/api/me/queue", headers=players[0].headers)).json()["queued"] is True
    for p in players[6:8]:
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "taiwan"})
    assert await app.state.matcher.wave() == 1
    status = (await client.get("/api/me/queue", headers=players[0].headers)).json()
    table = (await client.get(f"/api/tables/{status['table_id']}")).json()
    assert status["rounds"] == 1 and table["options"]["rounds"] == 1


def test_the_lobby_lists_every_pool_with_its_length() -> None:
    queues = lobby_queues({("beginner", "taiwan", 4): 3})
    assert {q["rounds"] for q in queues} == {1, 4}
    assert next(q for q in queues if (q["room"], q["variant"], q["rounds"]) == ("beginner", "taiwan", 4))["queued"] == 3
    assert next(q for q in queues if (q["room"], q["variant"], q["rounds"]) == ("beginner", "taiwan", 1))["queued"] == 0
    # 東風戰 first within each room and variant, each with a game's typical minutes
    assert [q["rounds"] for q in queues[:2]] == [1, 4]
    assert all(q["minutes"] == TYPICAL_GAME_MINUTES[q["variant"], q["rounds"]] for q in queues)


def _entry(uid: int, rounds: int) -> QueueEntry:
    return QueueEntry(uid, f"p{uid}", "beginner", "tiantai", time.time() - uid, 0, 0, rounds)


@pytest.fixture(params=["local"] + (["redis"] if REDIS_URL else []))
async def store(request):  # noqa: ANN001, ANN201
    if request.param == "local":
        yield LocalQueueStore()
        return
    prefix = f"t{secrets.token_hex(4)}"
    found = RedisQueueStore(str(REDIS_URL), prefix=prefix)
    try:
        yield found
    finally:
        await forget_keys(found.redis, prefix)
        await found.close()


async def test_each_store_keeps_the_lengths_in_separate_pools(store) -> None:
    for uid, rounds in ((1, 1), (2, 4), (3, 4)):
        await store.add(_entry(uid, rounds))
    assert [e.user_id for e in await store.members("beginner", "tiantai", 1)] == [1]
    assert sorted(e.user_id for e in await store.members("beginner", "tiantai", 4)) == [2, 3]
    assert await store.sizes() == {("beginner", "tiantai", 1): 1, ("beginner", "tiantai", 4): 2}
    assert (await store.entry(2)).rounds == 4
    group = await store.members("beginner", "tiantai", 4)
    assert await store.claim("T1", group)
    await store.finish("T1")
    assert (await store.matched(2)).rounds == 4
    assert (await store.remove(1)).rounds == 1 and await store.sizes() == {}


async def test_a_wave_reads_the_members_only_of_pools_that_can_seat_a_table(client, player, app, monkeypatch) -> None:
    """A wave first reads every pool's size in one go and then the members only of a pool with a table's worth
    of players: the matcher used to read each of the 18 pools' members every wave, a Redis round trip each."""
    store = app.state.matcher.store
    read: list[tuple[str, str, int]] = []
    members = store.members

    async def counting(room: str, variant: str, rounds: int):
        read.append((room, variant, rounds))
        return await members(room, variant, rounds)

    monkeypatch.setattr(store, "members", counting)
    assert await app.state.matcher.wave() == 0
    assert read == []  # every pool empty: no pool read
    players = [await player(f"pool{i}") for i in range(7)]
    for p in players[:3]:  # one short of a 台灣 table
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "taiwan"})
    for p in players[3:6]:  # a 天台 table's three
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "tiantai"})
    assert await app.state.matcher.wave() == 1
    assert read == [("beginner", "tiantai", QUICK_PLAY_ROUNDS[0])]
    await client.post("/api/rooms/beginner/queue", headers=players[6].headers, json={"variant": "taiwan"})
    read.clear()
    assert await app.state.matcher.wave() == 1
    assert read == [("beginner", "taiwan", QUICK_PLAY_ROUNDS[0])]
