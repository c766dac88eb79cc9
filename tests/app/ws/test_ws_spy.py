"""A spy on every seat: nothing a seat receives may show tiles it must not see (server-lessons §7.4).

After each hand the revealed seed re-deals it; replaying the recorded actions gives the engine's own
events, and each seat must have received exactly ``event.for_seat(seat)`` of each, in order.  On top of
that, structural checks: no other seat's draw or concealed tiles (眼牌 declarers excepted), no seed before
the hand ends, prompts only for one's own seat, claim prompts only when one may claim.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from app.tables.fairness import verify_hand
from tests.app.support.table_harness import PlayLog, harness, play_to_the_end

pytestmark = pytest.mark.asyncio

REVEALING = ("eye", "miji")


@pytest.mark.parametrize("variant,seats", [("taiwan", 4), ("tiantai", 3), ("taipao", 4)])
async def test_no_seat_ever_sees_what_it_must_not(settings, variant, seats):
    async with harness(settings) as h:
        players = [await h.register(f"spy{i}") for i in range(seats)]
        table_id = await h.coin_table(variant, players, rounds=1)
        clients = [await h.connect(table_id, p) for p in players]
        logs = [PlayLog() for _ in clients]
        # Seat 1 declares whenever it can (台灣 眼牌 / Miji reveal the others' hands to it; 台炮 聽 locks).
        await asyncio.wait_for(asyncio.gather(*(
            play_to_the_end(c, random.Random(10 + i), log, declare_rate=0.5 if i == 1 else 0.0)
            for i, (c, log) in enumerate(zip(clients, logs, strict=True)))), 90)
        assert logs[0].results
        if variant == "taiwan":  # the 眼牌 exception was exercised
            assert any(m["type"] == "event" and m["event"]["type"] == "reveal" for m in clients[1].received)
        for result in logs[0].results:
            record = (await h.client.get(f"/api/hands/{result['hand_id']}", headers=players[0]["headers"])).json()
            replay = _replay(variant, record)
            for seat, client in enumerate(clients):
                _check_seat(seat, [m for m in client.received if m.get("hand_no") == result["hand_no"]],
                            replay, result)


def _replay(variant: str, record: dict[str, Any]):
    r = record["result"]
    return verify_hand(variant=variant, seed=record["seed"], salt=r["salt"], commitment_hex=record["commitment"],
                       dealer=r["dealer"], round_wind=r["round_wind"], dealer_streak=r["dealer_streak"],
                       options=r["options"], actions=record["actions"])


def _check_seat(seat: int, messages: list[dict[str, Any]], replay, result: dict[str, Any]) -> None:
    engine_events = [m["event"] for m in messages if m["type"] == "event" and "seq" in m["event"]]
    assert engine_events == [json.loads(json.dumps(e.for_seat(seat))) for e in replay.events]
    revealed = False  # this seat's 眼牌: from then on it may see the other hands
    for m in messages:
        if m["type"] == "event":
            ev = m["event"]
            if ev["type"] == "discard" and ev.get("seat") == seat and ev.get("declare") in REVEALING:
                revealed = True
            _check_event(seat, ev, revealed)
        elif m["type"] == "snapshot" and m["view"] and not m["view"].get("result"):
            for p in m["view"]["players"]:
                assert p["seat"] == seat or revealed or p["concealed"] is None
        elif m["type"] == "prompt":
            assert {a["seat"] for a in m["actions"]} == {seat}
            if m["kind"] in ("claim", "rob"):
                assert any(a["kind"] != "pass" for a in m["actions"])  # only the entitled are prompted
        if m["type"] != "hand_result":
            assert result["seed"] not in str(m) and result["salt"] not in str(m)


def _check_event(seat: int, ev: dict[str, Any], revealed: bool) -> None:
    other = ev.get("seat") is not None and ev.get("seat") != seat
    if ev["type"] == "draw" and other:
        assert "tile" not in ev or revealed
    if ev["type"] == "deal":
        assert "hands" not in ev
    if ev["type"] == "reveal":
        assert "hands" not in ev or ev["seat"] == seat
    if ev["type"] == "hand_start":
        # the first dealer's draw is public (F-1): a commitment and the seat drawn from it, never a seed
        assert set(ev) == {"type", "hand_no", "dealer", "round_wind", "dealer_streak", "commitment",
                           "first_dealer", "first_commitment"}
