"""Issue 33 item 5: the history groups hands under their game.  Each of your hands names its game's record
(``game_id`` in GET /api/me/hands), and each game (GET /api/me/games, GET /api/games/{id}) lists its settled
hands in play order (``hand_ids``), so the client can replay the whole game hand after hand."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from app.bots import TableBots
from app.game.rooms import ROOMS, GameKind, RoomKey
from app.services import games
from app.services.settlement import settle_hand
from app.tables.fairness import new_wall_seed
from engine.state import HandState
from engine.variants import find_variant


async def _settle(app, key: str, seats: list[int], seed: int) -> int:
    wall = new_wall_seed()
    hand = HandState.deal(find_variant("tiantai"), seed=wall.seed, dealer=0)
    bots, rng = TableBots(seed=seed), random.Random(seed)
    while not hand.is_over:
        hand.apply(bots.choose(hand, rng.choice(hand.awaiting())))
    record = {"table_id": key.split(":")[0], "seed": wall.seed, "commitment": wall.commitment,
              "actions": [a.to_json() for a in hand.actions],
              "result": {**hand.result.public_json(hand), "salt": wall.salt, "hand_no": int(key.rsplit(":", 1)[1]),
                         "dealer": 0, "round_wind": 0, "dealer_streak": 0, "options": hand.options}}
    async with app.state.services.sessionmaker() as session:
        out = await settle_hand(session, hand_key=key, room=ROOMS[RoomKey.BEGINNER], seats=seats,
                                payments=hand.result.score.payments, variant="tiantai", record=record,
                                winners=hand.result.winners)
    return out.hand_id


async def test_hands_are_grouped_under_their_game_in_play_order(client, app, player) -> None:
    a, b, c, outsider = [await player(n) for n in ("grp_a", "grp_b", "grp_c", "grp_d")]
    seats = [a.id, b.id, c.id]
    # Hand 2 is settled before hand 1 would sort it (ids are not play order); hand 3 was voided (no record);
    # hand 10 sorts after hand 4 by number, not by text; another game's hand stays out.
    second = await _settle(app, "tab_1:a7:2", seats, 2)
    first = await _settle(app, "tab_1:a7:1", seats, 1)
    tenth = await _settle(app, "tab_1:a7:10", seats, 10)
    fourth = await _settle(app, "tab_1:a7:4", seats, 4)
    other = await _settle(app, "tab_1:a70:1", seats, 5)
    async with app.state.services.sessionmaker() as session:
        assert await games.record_game(session, games.FinishedGame(
            table_id="tab_1", game_id="a7", variant="tiantai", room="beginner", kind=GameKind.COIN, options={},
            hands_limit=None, seats=seats, seat_names=["grp_a", "grp_b", "grp_c"], bots=[], reason="rounds_complete",
            hands_played=4, last_hand_no=10, points=[0, 0, 0], coins=[0, 0, 0], places=[1, 1, 1], stood_up=[]),
            now=datetime.now(UTC))

    [game] = [g for g in (await client.get("/api/me/games", headers=b.headers)).json() if g["id"] == "tab_1:a7"]
    assert game["hand_ids"] == [first, second, fourth, tenth]
    assert (await client.get("/api/games/tab_1:a7", headers=c.headers)).json()["hand_ids"] == game["hand_ids"]
    refused = await client.get("/api/games/tab_1:a7", headers=outsider.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "game_private"

    rows = {r["id"]: r for r in (await client.get("/api/me/hands", headers=a.headers)).json()}
    assert {rows[h]["game_id"] for h in (first, second, fourth, tenth)} == {"tab_1:a7"}
    assert rows[other]["game_id"] == "tab_1:a70"


def test_only_a_tables_hand_key_names_a_game() -> None:
    assert games.game_of_hand("t-1:g2:3") == "t-1:g2"
    assert games.game_of_hand("hist-1") is None and games.game_of_hand("x:3") is None
    assert games.game_of_hand("t:g:final") is None
