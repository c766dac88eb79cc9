"""Issue 35 item 4: the collusion report ranks a chip-dumping pair first among honest players' games.

Real 天台 hands, played by the server's bots, settled as coin hands.  At the scripted tables the dumper (送分的
人) sees its partner's hand and, whenever one of its discards would let the partner win, discards that tile;
the partner always takes the win.  Every other seat, and every seat at the honest tables, is a plain bot.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import combinations

from app.bots import TableBots
from app.game.rooms import ROOMS, RoomKey
from app.services.settlement import settle_hand
from engine.actions import Action, ActionKind
from engine.state import HandState
from engine.variants import find_variant
from tests.engine.bot_helpers import copy_of


def _feeding_discard(hand: HandState, dumper: int, partner: int) -> Action | None:
    """A discard of the dumper's that the partner can win on, if it holds one."""
    for action in hand.legal_actions(dumper):
        if action.kind is not ActionKind.DISCARD:
            continue
        trial = copy_of(hand)  # deepcopy does not copy the compiled engine's classes
        trial.apply(action)
        if not trial.is_over and partner in trial.awaiting() and any(
                a.kind is ActionKind.WIN for a in trial.legal_actions(partner)):
            return action
    return None


def _play(k: int, *, dumper: int | None = None, partner: int | None = None) -> HandState:
    hand = HandState.deal(find_variant("tiantai"), seed=f"collusion-{k}", dealer=k % 3)
    bots, rng = TableBots(seed=k), random.Random(k)
    while not hand.is_over:
        seat = rng.choice(hand.awaiting())
        action = None
        if seat == dumper:
            action = _feeding_discard(hand, dumper, partner)
        elif seat == partner:
            action = next((a for a in hand.legal_actions(seat) if a.kind is ActionKind.WIN), None)
        hand.apply(action or bots.choose(hand, seat))
    return hand


async def _settle(app, k: int, seats: list[int], hand: HandState, *, practice: bool = False) -> None:
    record = {"table_id": f"t-coll-{k % 4}", "seed": f"collusion-{k}", "commitment": None,
              "actions": [a.to_json() for a in hand.actions], "result": hand.result.public_json(hand)}
    async with app.state.services.sessionmaker() as session:
        await settle_hand(session, hand_key=f"coll-{k}", room=ROOMS[RoomKey.BEGINNER], seats=seats,
                          payments=hand.result.score.payments, variant="tiantai", record=record,
                          winners=hand.result.winners, practice=practice)


async def test_the_dumping_pair_ranks_first(client, app, player):
    boss = await player("coll_boss", role="admin")
    dumper, partner, *honest = [await player(name) for name in ("dumper", "partner", "hon_a", "hon_b", "hon_c")]
    shared: set[tuple[int, int]] = set()
    fed = 0
    for k in range(6):  # scripted tables: dumper, partner and one honest player, seats rotating
        seats = [dumper.id, partner.id, honest[k % 3].id]
        order = [(k + i) % 3 for i in range(3)]  # who sits where
        seated = [seats[i] for i in order]
        hand = _play(k, dumper=seated.index(dumper.id), partner=seated.index(partner.id))
        fed += hand.result.discarder == seated.index(dumper.id) and seated.index(partner.id) in hand.result.winners
        await _settle(app, k, seated, hand)
        shared |= set(combinations(sorted(seated), 2))
    everyone = [dumper, partner, *honest]
    for k in range(6, 14):  # honest tables: any three of the five, all plain bots
        seated = [p.id for p in random.Random(k).sample(everyone, 3)]
        await _settle(app, k, seated, _play(k))
        shared |= set(combinations(sorted(seated), 2))
    strangers = [await player("prac_x"), await player("prac_y")]  # met only at a practice table: no coin hand
    await _settle(app, 99, [strangers[0].id, strangers[1].id, honest[0].id], _play(99), practice=True)
    assert fed >= 3  # the script did dump

    since = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    response = await client.get("/api/admin/reports/collusion", params={"since": since}, headers=boss.headers)
    assert response.status_code == 200, response.text
    pairs = response.json()
    top = pairs[0]
    assert (top["giver"]["id"], top["receiver"]["id"]) == (dumper.id, partner.id), pairs[:3]
    assert top["giver"]["username"] == "dumper" and top["fed_wins"] == fed and top["net_coins"] > 0
    assert top["hands_together"] >= 6 and top["loss_share"] >= 0.5  # most of what it lost went to the partner
    # Every pair that shared a coin hand is listed, once, and nobody else.
    listed = [tuple(sorted((p["giver"]["id"], p["receiver"]["id"]))) for p in pairs]
    assert sorted(listed) == sorted(shared)
    assert [p["score"] for p in pairs] == sorted((p["score"] for p in pairs), reverse=True)

    # A period after the hands lists nobody; a period without a time zone is a typed 422.
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert (await client.get("/api/admin/reports/collusion", params={"since": later},
                             headers=boss.headers)).json() == []
    naive = await client.get("/api/admin/reports/collusion", params={"since": "2026-01-01T00:00:00"},
                             headers=boss.headers)
    assert naive.status_code == 422 and naive.json()["code"] == "invalid_input"
