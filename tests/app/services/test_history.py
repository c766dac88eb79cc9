"""Issue 13 (history, replays, progress): a player's finished hands, the step-by-step replay of a hand
record, the stats with the title ladder, and the weekly and all-time 積分 leaderboards."""

from __future__ import annotations

import hashlib
import random

from app.bots import TableBots
from app.game.rooms import ROOMS, RoomKey
from app.services.settlement import settle_hand
from app.tables.fairness import WallSeed
from engine.state import HandState
from engine.variants import find_variant


def _played_hand(seed_no: int) -> tuple[HandState, WallSeed]:
    """A 天台 hand that bots play to a win by one player (the first seed from ``seed_no`` with one winner).

    The walls come from fixed seeds, so the hand is the same every run: with a fresh random wall, about one
    hand in seventy was won by two players on one discard (天台's 一炮多響), and the leaderboard's first row
    was then whichever scored more, not always ``winners[0]``."""
    for k in range(seed_no, seed_no + 50):
        wall = WallSeed(hashlib.sha256(f"history-{k}".encode()).hexdigest(), f"{k:032x}")
        hand = HandState.deal(find_variant("tiantai"), seed=wall.seed, dealer=0)
        bots, rng = TableBots(seed=k), random.Random(k)
        while not hand.is_over:
            hand.apply(bots.choose(hand, rng.choice(hand.awaiting())))
        if len(hand.result.winners) == 1:
            return hand, wall
    raise AssertionError("no hand with one winner in 50")


async def _settle(app, seats: list[int], seed_no: int) -> tuple[int, HandState]:
    hand, wall = _played_hand(seed_no)
    record = {
        "table_id": "t-hist", "seed": wall.seed, "commitment": wall.commitment,
        "actions": [a.to_json() for a in hand.actions],
        "result": {**hand.result.public_json(hand), "salt": wall.salt, "hand_no": 1, "dealer": 0,
                   "round_wind": 0, "dealer_streak": 0, "options": hand.options},
    }
    async with app.state.services.sessionmaker() as session:
        out = await settle_hand(session, hand_key=f"hist-{seed_no}", room=ROOMS[RoomKey.BEGINNER], seats=seats,
                                payments=hand.result.score.payments, variant="tiantai", record=record,
                                winners=hand.result.winners)
    return out.hand_id, hand


async def test_hands_replay_stats_and_leaderboards(client, app, player):
    a, b, c, outsider = [await player(n) for n in ("hist_a", "hist_b", "hist_c", "hist_d")]
    hand_id, hand = await _settle(app, [a.id, b.id, c.id], 1)

    # The hands list: the hand as each player played it; nobody else's list has it.
    for seat, p in enumerate((a, b, c)):
        rows = (await client.get("/api/me/hands", headers=p.headers)).json()
        assert [r["id"] for r in rows] == [hand_id]
        row = rows[0]
        assert row["seat"] == seat and row["variant"] == "tiantai" and row["room"] == "beginner"
        assert row["points"] == hand.result.score.net[seat]
        assert row["outcome"] == ("win" if seat in hand.result.winners else
                                  "deal_in" if hand.result.discarder == seat else "loss")
    assert (await client.get("/api/me/hands", headers=outsider.headers)).json() == []

    # The replay: the deal, then one face-up frame per action, ending on the hands the result shows.
    replay = (await client.get(f"/api/hands/{hand_id}/replay", headers=b.headers)).json()
    assert replay["seat"] == 1 and replay["names"] == ["hist_a", "hist_b", "hist_c"]
    frames = replay["frames"]
    assert len(frames) == len(hand.actions) + 1 and frames[0]["action"] is None
    assert frames[1]["action"] == hand.actions[0].to_json()
    last = frames[-1]["view"]
    assert last["phase"] == "ended"
    assert [sorted(p["concealed"]) for p in last["players"]] == [sorted(h) for h in hand.result.public_json(hand)["hands"]]
    assert all(p["concealed"] is not None for p in frames[0]["view"]["players"])  # face up from the deal
    # Who may open it follows the hand-record rule (its players and admins); an unknown hand is a typed 404.
    refused = await client.get(f"/api/hands/{hand_id}/replay", headers=outsider.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "hand_private"
    missing = await client.get("/api/hands/999999/replay", headers=a.headers)
    assert missing.status_code == 404 and missing.json()["code"] == "hand_not_found"

    # Stats and the title ladder, and the boards after the settlement.
    winner = (a, b, c)[hand.result.winners[0]]
    stats = (await client.get("/api/me/stats", headers=winner.headers)).json()
    assert stats["hands"] == 1 and stats["wins"] == 1 and stats["deal_ins"] == 0
    assert stats["biggest_hand"]["hand_id"] == hand_id
    me = (await client.get("/api/me", headers=winner.headers)).json()
    ladder = stats["ladder"]
    assert ladder["rank_points"] == me["rank_points"] > 0
    assert ladder["title"]["zh_hant"] == me["title"] and ladder["needed"] == ladder["next_at"] - me["rank_points"]
    for period in ("week", "all"):
        board = (await client.get(f"/api/leaderboard?period={period}")).json()
        assert board[0]["username"] == winner.name and board[0]["rank"] == 1
        assert board[0]["rank_points"] == me["rank_points"]
        assert all(x["rank_points"] > 0 for x in board)
    bad = await client.get("/api/leaderboard?period=year")
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_input"


async def test_the_variants_list_every_scoring_item_for_the_rules_page(client):
    from engine.options import item_units, option_defaults
    from engine.scoring.names import ITEM_NAMES

    for v in (await client.get("/api/variants")).json():
        items = v["items"]
        assert [i["key"] for i in items] == list(item_units(v["key"]))
        defaults = option_defaults(v["key"])
        for item in items:
            assert item["names"]["zh_hant"] == ITEM_NAMES[v["key"]][item["key"]].zh_hant
            assert item["unit"] in ("tai", "hu")
            expected = defaults[item["key"]]
            assert item["value"] == (list(expected) if isinstance(expected, tuple) else expected)


async def test_practice_tables_take_a_bot_speed(client, player):
    from typing import get_args

    from app.tables.settings import BOT_SPEEDS, BotSpeed

    assert set(BOT_SPEEDS) == set(get_args(BotSpeed)) and BOT_SPEEDS["fast"] < BOT_SPEEDS["normal"]
    p = await player("speedy")
    made = await client.post("/api/practice", json={"variant": "taiwan", "bot_speed": "fast"}, headers=p.headers)
    assert made.status_code == 201 and made.json()["bot_speed"] == "fast"
    q = await player("slowpoke")
    bad = await client.post("/api/practice", json={"variant": "taiwan", "bot_speed": "warp"}, headers=q.headers)
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_input"
