"""Every event payload and snapshot view a seat receives matches its declaration in app.tables.protocol.events (the
source of docs/protocol.md's "Events" and "The view"), unknown fields forbidden: docs cannot go stale."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from app.tables.protocol.events import HandView, event_payload
from engine.actions import Action, ActionKind
from engine.bots import greedy_policy
from engine.match import Match
from engine.variants import find_variant
from tests.app.support.table_harness import PlayLog, harness, play_to_the_end


def _wire(data: Any) -> Any:
    """What a client receives: the JSON of it (so ``reveal.hands`` is keyed by seat strings)."""
    return json.loads(json.dumps(data))


def _policy(hand, seat: int, rng: random.Random) -> Action:
    """Greedy, but declaring (聽 / 眼牌 / Miji) whenever a discard may, so reveals happen too."""
    declaring = [a for a in hand.legal_actions(seat) if a.kind is ActionKind.DISCARD and a.declare]
    if declaring and rng.random() < 0.5:
        return rng.choice(declaring)
    return greedy_policy(hand, seat, rng)


@pytest.mark.parametrize("variant", ["tiantai", "taipao", "taiwan"])
def test_engine_events_and_views_match_their_declarations(variant: str) -> None:
    match = Match(find_variant(variant))
    rng = random.Random(3)
    seen: set[str] = set()
    for seed in range(25):
        hand = match.new_hand(seed)
        steps = 0
        while not hand.is_over:
            seat = hand.awaiting()[0]
            hand.apply(_policy(hand, seat, rng))
            steps += 1
            if steps % 7 == 0:
                for viewer in range(hand.n):
                    HandView.model_validate(_wire(hand.view(viewer)))
        for viewer in range(hand.n):
            HandView.model_validate(_wire(hand.view(viewer)))
        for event in hand.events:
            for viewer in range(hand.n):
                payload = event_payload.validate_python(_wire(event.for_seat(viewer)))
                seen.add(payload.type)
    assert {"deal", "draw", "discard", "hand_end"} <= seen
    if variant == "taiwan":
        assert "reveal" in seen  # a 眼牌 / Miji declaration shows the declarer the other hands


async def test_table_events_and_snapshots_match_their_declarations(settings):
    async with harness(settings) as h:
        players = [await h.register(f"ev{i}") for i in range(3)]
        table_id = await h.coin_table("tiantai", players, rounds=1)
        clients = [await h.connect(table_id, p) for p in players]
        logs = [PlayLog() for _ in clients]
        await asyncio.wait_for(asyncio.gather(*(
            play_to_the_end(c, random.Random(i), log) for i, (c, log) in enumerate(zip(clients, logs, strict=True)))),
            60)
        kinds = set()
        for client in clients:
            for message in client.received:
                if message["type"] == "event":
                    kinds.add(event_payload.validate_python(message["event"]).type)
                elif message["type"] == "snapshot" and message["view"] is not None:
                    HandView.model_validate(message["view"])
        assert {"hand_start", "deal", "discard", "hand_end"} <= kinds
