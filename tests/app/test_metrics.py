"""GET /metrics (Prometheus text) and the JSON log format (issue 11, operations)."""

from __future__ import annotations

import json
import logging
import random

from app.logs import JsonFormatter
from tests.app.metrics_scrape import samples as _samples
from tests.app.table_harness import PlayLog, harness, play_to_the_end


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
        await h.connect(table["id"], bob)
        await h.settle_loop()
        samples = _samples((await h.client.get("/metrics")).text)
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
