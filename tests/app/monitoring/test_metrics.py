"""GET /metrics (Prometheus text) and the JSON log format (issue 11, operations)."""

from __future__ import annotations

import json
import logging
import random

import pytest

from app.logs import JsonFormatter
from tests.app.support.metrics_scrape import samples as _samples
from tests.app.support.table_harness import PlayLog, harness, play_to_the_end


@pytest.fixture
def settings(settings):  # noqa: F811 - the quick-play test steps the matcher's waves itself
    return settings.model_copy(update={"quickplay_matcher": False})


async def test_metrics_count_tables_seats_sockets_hands_and_errors(settings):
    async with harness(settings) as h:
        before = _samples((await h.client.get("/metrics")).text)
        alice = await h.register("alice")
        table = (await h.client.post("/api/practice", headers=alice["headers"], json={"variant": "tiantai"})).json()
        seat = await h.connect(table["id"], alice)
        await h.client.post("/api/auth/login", json={"username": "alice", "password": "wrong password"})
        await h.client.get("/api/tables/nope")
        log = PlayLog()
        await play_to_the_end(seat, random.Random(1), log, timeout=30)
        # (the practice game ran to its end; the hands were settled, each timed)
        response = await h.client.get("/metrics")
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
        after = _samples(response.text)

    def grew(name, labels=()):
        key = (name, tuple(sorted(labels)))
        return after.get(key, 0) - before.get(key, 0)

    hands = len(log.results)
    assert hands >= 1
    finished = sum(v - before.get(k, 0) for k, v in after.items() if k[0] == "mahjong_hands_finished_total")
    assert finished == hands
    practice = [(k, v) for k, v in after.items() if k[0] == "mahjong_hands_finished_total"
                and ("room_kind", "practice") in k[1] and ("variant", "tiantai") in k[1] and v]
    assert sum(v for _k, v in practice) >= hands  # labelled by variant, room kind and outcome
    assert grew("mahjong_settlement_seconds_count") == hands
    assert (grew("mahjong_action_seconds_count", [("action", "discard")])
            + grew("mahjong_action_seconds_count", [("action", "other")])) == log.acted
    assert grew("mahjong_action_seconds_count", [("action", "discard")]) >= 1
    assert grew("mahjong_websocket_messages_received_total", [("kind", "table")]) >= log.acted
    assert grew("mahjong_websocket_messages_sent_total", [("kind", "table")]) > log.acted
    assert grew("mahjong_http_responses_total", [("route", "/api/practice"), ("method", "POST"),
                                                 ("status_class", "2xx")]) == 1
    assert grew("mahjong_http_responses_total", [("route", "/api/tables/{table_id}"), ("method", "GET"),
                                                 ("status_class", "4xx")]) == 1
    assert grew("mahjong_login_failures_total") == 1
    assert grew("mahjong_errors_total", [("code", "bad_credentials")]) == 1
    assert grew("mahjong_errors_total", [("code", "table_not_found")]) == 1
    assert after[("mahjong_hands_last_minute", ())] >= hands
    for name in ("mahjong_tables_live", "mahjong_websockets_open", "mahjong_actor_inbox_depth"):
        assert any(key[0] == name for key in after), name


async def test_live_gauges_follow_the_registry(settings):
    async with harness(settings) as h:
        opened = _samples((await h.client.get("/metrics")).text)[("mahjong_websockets_open", (("kind", "table"),))]
        alice, bob = await h.register("alice"), await h.register("bob")
        await h.client.post("/api/rooms/beginner/tables", headers=alice["headers"], json={"variant": "tiantai"})
        table = (await h.client.post("/api/practice", headers=bob["headers"], json={"variant": "tiantai"})).json()
        seat = await h.connect(table["id"], bob)
        await h.settle_loop()
        samples = _samples((await h.client.get("/metrics")).text)
        gone = ("mahjong_auto_play_activations_total", (("reason", "disconnected"),))
        await seat.disconnect()  # bob's seat plays on 托管 now
        await h.settle_loop()
        left = _samples((await h.client.get("/metrics")).text)
    assert left[gone] - samples[gone] == 1
    assert left[("mahjong_websockets_open", (("kind", "table"),))] == opened
    assert samples[("mahjong_tables_live", (("status", "waiting"),))] == 1
    assert samples[("mahjong_tables_live", (("status", "playing"),))] == 1
    assert samples[("mahjong_seats_taken", ())] == 2
    assert samples[("mahjong_websockets_open", (("kind", "table"),))] == opened + 1  # (a process-wide gauge)


async def test_metrics_can_be_turned_off(app, client, settings):
    settings.metrics_enabled = False
    assert (await client.get("/metrics")).status_code == 404


def test_json_logs_are_one_line_per_event_with_table_and_hand():
    record = logging.LogRecord("app.tables.durability.settle", logging.INFO, __file__, 1, "hand settled", None, None)
    record.table_id, record.hand_no, record.hand_id = "abc123", 4, 17
    line = JsonFormatter().format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert (data["event"], data["table_id"], data["hand_no"], data["hand_id"], data["level"]) == (
        "hand settled", "abc123", 4, 17, "info")


def test_a_playing_table_that_stops_moving_shows_as_stalled():
    """mahjong_table_stalled_seconds (alert MahjongTableStalled): the age of the oldest unchanged event number."""
    from types import SimpleNamespace

    from app.monitoring.collector import AppCollector

    now = [100.0]
    collector = AppCollector(app=None, clock=lambda: now[0])
    moving, stuck = (SimpleNamespace(id=i, out=SimpleNamespace(v=1)) for i in ("moving", "stuck"))
    assert collector.stalled([moving, stuck]) == 0
    for _ in range(3):
        now[0] += 60
        moving.out.v += 1
        collector.stalled([moving, stuck])
    assert collector.stalled([moving, stuck]) == 180  # stuck since the first look
    now[0] += 30
    stuck.out.v += 1
    assert collector.stalled([moving, stuck]) == 30  # stuck moved; the other has been still for 30 s
    assert collector.stalled([]) == 0  # a finished table is forgotten


async def test_the_quick_play_queue_is_measured(client, player, app):
    """The quick-play matcher feeds the queue's size, the tables it forms and each member's wait."""
    before = _samples((await client.get("/metrics")).text)
    players = [await player(f"qm{i}") for i in range(4)]
    for p in players[:3]:
        await client.post("/api/rooms/beginner/queue", headers=p.headers, json={"variant": "taiwan"})
    assert await app.state.matcher.wave() == 0
    queued = _samples((await client.get("/metrics")).text)
    labels = (("room", "beginner"), ("variant", "taiwan"))
    assert queued[("mahjong_quickplay_queued_players", labels)] == 3
    await client.post("/api/rooms/beginner/queue", headers=players[3].headers, json={"variant": "taiwan"})
    assert await app.state.matcher.wave() == 1
    after = _samples((await client.get("/metrics")).text)
    assert after[("mahjong_quickplay_queued_players", labels)] == 0
    assert after[("mahjong_quickplay_matches_total", labels)] - before[("mahjong_quickplay_matches_total", labels)] == 1
    assert (after[("mahjong_quickplay_wait_seconds_count", labels)]
            - before[("mahjong_quickplay_wait_seconds_count", labels)]) == 4
