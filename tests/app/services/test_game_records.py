"""Every finished game leaves a record of its final standings (app.services.games), written once at game over
at practice, coin and tournament tables, with each seat's 積分 and title before and after from the ledger;
``game_over`` names it (``game_id``), and its players read it back (GET /api/me/games, GET /api/games/{id})."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from app import metrics
from app.game.rooms import RoomKey
from app.game.titles import title_for
from app.game.variants import VariantKey
from app.models import Game, GamePlayer
from app.services import games, ledger
from app.services.games import FinishedGame
from app.tables.play.hand_end import final_places
from tests.app.conftest import grant_role
from tests.app.support.table_harness import Closed, Harness, answer_until, harness


async def _records_written(h: Harness) -> None:
    """Wait for the runtime's record tasks (they run after game_over, off the table's path)."""
    assert h.runtime.records is not None
    for _ in range(500):
        if not h.runtime.records.tasks:
            return
        await asyncio.wait(list(h.runtime.records.tasks), timeout=5)
    raise AssertionError("records still being written")


def _captured(h: Harness) -> list[FinishedGame]:
    """The game ends the table hands to the runtime (each is still written as usual)."""
    assert h.runtime.records is not None
    records, seen = h.runtime.records, []
    write_later = records.write_later

    def capture(game: FinishedGame) -> None:
        seen.append(game)
        write_later(game)

    records.write_later = capture  # type: ignore[method-assign]
    return seen


async def _practice_game(h: Harness, player: dict[str, Any], hands: int = 1) -> dict[str, Any]:
    made = await h.client.post("/api/practice", headers=player["headers"],
                               json={"variant": "tiantai", "hands": hands, "bot_speed": "fast"})
    assert made.status_code == 201, made.text
    over = await answer_until(await h.connect(made.json()["id"], player), "game_over", seed=5, timeout=60)
    await _records_written(h)
    return over


def _assert_standings(record: dict[str, Any], over: dict[str, Any]) -> None:
    assert record["id"] == over["game_id"]
    assert record["reason"] == over["reason"] and record["hands_played"] == over["hands_played"]
    assert [s["points"] for s in record["seats"]] == over["points"]
    assert [s["coins"] for s in record["seats"]] == over["coins"]
    assert [s["place"] for s in record["seats"]] == over["places"] == final_places(over["points"])
    assert [s["seat"] for s in record["seats"] if s["stood_up"]] == over["stood_up"]


async def test_a_practice_game_is_recorded_once_with_its_standings(settings) -> None:
    async with harness(settings) as h:
        alice = await h.register("rec_alice")
        ended = _captured(h)
        over = await _practice_game(h, alice)
        mine = (await h.client.get("/api/me/games?limit=1", headers=alice["headers"])).json()
        assert len(mine) == 1
        record = mine[0]
        _assert_standings(record, over)
        assert over["game_id"].startswith(record["table_id"] + ":")
        assert (record["kind"], record["room"], record["variant"], record["hands_limit"]) == (
            "practice", None, "tiantai", 1)
        assert record["your_seat"] == 0
        me, *bots = record["seats"]
        assert (me["user_id"], me["username"], me["bot"]) == (alice["id"], "rec_alice", False)
        assert me["title_before"] == me["title_after"] == {"title": "白板", "title_names": {
            "zh_hans": "白板", "zh_hant": "白板", "en": "White Dragon"}}
        assert me["rank_points_before"] == me["rank_points_after"] == 0  # practice moves no 積分
        for bot in bots:
            assert bot["bot"] and bot["user_id"] is None and bot["title_before"] is None
        assert (await h.client.get(f"/api/games/{over['game_id']}", headers=alice["headers"])).json() == record

        # Written once: the same end again (a retry, another process that saw it) changes nothing.
        assert len(ended) == 1
        assert h.runtime.records is not None
        assert await h.runtime.records.write(ended[0], datetime.now(UTC)) is True
        async with h.app.state.services.sessionmaker() as session:
            assert await games.record_game(session, ended[0], now=datetime.now(UTC)) is False
            assert await session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1
            assert await session.scalar(sa.select(sa.func.count()).select_from(GamePlayer)) == 1


async def test_a_coin_game_records_coins_and_every_seats_title_from_the_ledger(settings) -> None:
    async with harness(settings) as h:
        players = [await h.register(f"rec_coin{i}") for i in range(3)]
        async with h.app.state.services.sessionmaker() as session:
            for p in players:  # 95 積分: five short of 一萬, so a won hand changes the title
                await ledger.adjust_balance(session, user_id=p["id"], asset="rank_points", delta=95,
                                            reason="test set-up", actor_id=p["id"])
        response = await h.client.post("/api/rooms/beginner/tables", headers=players[0]["headers"],
                                       json={"variant": "tiantai", "options": {}})
        table_id = response.json()["id"]
        h.runtime.state.registry.get(table_id).hands_limit = 1  # type: ignore[union-attr]  # one hand: a short game
        for p in players[1:]:
            assert (await h.client.post(f"/api/tables/{table_id}/sit", headers=p["headers"])).status_code == 200
        seats = [await h.connect(table_id, p) for p in players]
        overs = await asyncio.gather(*(answer_until(s, "game_over", seed=5, timeout=60) for s in seats))
        await _records_written(h)
        over = overs[0]
        assert all(o == over for o in overs)
        # Every seat's 積分 after the game, as the account has it now (nothing else moved it since).
        after = {p["id"]: (await h.client.get("/api/me", headers=p["headers"])).json()["rank_points"] for p in players}
        # The record is the same for every player (each reads their own seat as your_seat).
        records = [(await h.client.get(f"/api/games/{over['game_id']}", headers=p["headers"])).json()
                   for p in players]
        record = records[0]
        _assert_standings(record, over)
        assert record["kind"] == "coin" and record["room"] == "beginner" and sum(over["coins"]) == 0
        assert [r["your_seat"] for r in records] == [0, 1, 2]
        for seat in record["seats"]:
            uid = seat["user_id"]
            assert seat["rank_points_before"] == 95 and seat["title_before"]["title"] == "白板"
            assert seat["rank_points_after"] == after[uid]
            assert seat["title_after"]["title"] == title_for(after[uid])
        assert any(s["points"] > 0 for s in record["seats"]) or over["points"] == [0, 0, 0]

        # An adjustment after the game is not this game's: the record keeps what the game did.
        async with h.app.state.services.sessionmaker() as session:
            await ledger.adjust_balance(session, user_id=players[0]["id"], asset="rank_points", delta=1000,
                                        reason="later", actor_id=players[0]["id"])
        again = (await h.client.get(f"/api/games/{over['game_id']}", headers=players[0]["headers"])).json()
        assert again == records[0]


async def test_a_tournament_game_is_recorded_as_one(settings) -> None:
    async with harness(settings) as h:
        alice = await h.register("rec_tour")
        assert h.runtime.state is not None
        table = await h.runtime.state.registry.create_tournament_table(
            room=RoomKey.BEGINNER, variant=VariantKey.TIANTAI, options={}, seats=[(alice["id"], "rec_tour"), None, None],
            game_id=999_999, hands_limit=1)
        over = await answer_until(await h.connect(table.id, alice), "game_over", seed=5, timeout=60)
        await _records_written(h)
        record = (await h.client.get(f"/api/games/{over['game_id']}", headers=alice["headers"])).json()
        _assert_standings(record, over)
        assert record["kind"] == "tournament" and over["coins"] == [0, 0, 0]
        assert record["seats"][0]["rank_points_before"] == record["seats"][0]["rank_points_after"] == 0


async def test_a_practice_table_left_is_recorded_as_closed(settings) -> None:
    async with harness(settings) as h:
        alice = await h.register("rec_leave")
        made = await h.client.post("/api/practice", headers=alice["headers"], json={"variant": "tiantai"})
        table_id = made.json()["id"]
        seat = await h.connect(table_id, alice)
        await seat.recv_until(lambda m: m["type"] == "snapshot")
        assert (await h.client.post(f"/api/tables/{table_id}/stand", headers=alice["headers"])).status_code == 200
        over = await seat.recv_until(lambda m: m["type"] == "game_over")
        await _records_written(h)
        record = (await h.client.get(f"/api/games/{over['game_id']}", headers=alice["headers"])).json()
        assert record["reason"] == "table_closed" and record["table_id"] == table_id


async def test_a_table_closed_before_its_first_deal_leaves_no_record(settings) -> None:
    async with harness(settings) as h:
        players = [await h.register(f"rec_wait{i}") for i in range(3)]
        staff = await h.register("rec_closer")
        await grant_role(h.app, staff["id"], "operator")
        handed = _captured(h)
        table_id = await h.coin_table("tiantai", players)  # full, but nobody has come to it: no deal yet
        assert table_id in h.runtime.actors
        closed = await h.client.post(f"/api/operator/tables/{table_id}/close", headers=staff["headers"],
                                     json={"reason": "nobody came", "force": True})
        assert closed.status_code == 200, closed.text
        for _ in range(100):  # the actor ends as it handles the close
            if table_id not in h.runtime.actors and table_id not in h.runtime.closing:
                break
            await asyncio.sleep(0.01)
        await _records_written(h)
        assert handed == []
        assert (await h.client.get("/api/me/games", headers=players[0]["headers"])).json() == []


async def test_who_may_read_a_game(settings) -> None:
    async with harness(settings) as h:
        alice, bob = await h.register("rec_owner"), await h.register("rec_other")
        staff = await h.register("rec_staff")
        await grant_role(h.app, staff["id"], "operator")
        over = await _practice_game(h, alice)
        path = f"/api/games/{over['game_id']}"
        refused = await h.client.get(path, headers=bob["headers"])
        assert refused.status_code == 403 and refused.json()["code"] == "game_private"
        assert refused.json()["params"] == {"game_id": over["game_id"]}
        seen = await h.client.get(path, headers=staff["headers"])
        assert seen.status_code == 200 and seen.json()["your_seat"] is None
        assert (await h.client.get(path)).status_code == 401
        assert (await h.client.get("/api/me/games", headers=bob["headers"])).json() == []
        unknown = await h.client.get(f"/api/games/{over['game_id']}0", headers=alice["headers"])
        assert unknown.status_code == 404 and unknown.json()["code"] == "game_not_found"
        for bad in ("no-colon", "a:NOTHEX", "a" * 65 + ":00"):
            response = await h.client.get(f"/api/games/{bad}", headers=alice["headers"])
            assert response.status_code == 422 and response.json()["code"] == "invalid_input", bad
        for limit in (0, games.GAMES_LIMIT + 1, "x"):
            response = await h.client.get(f"/api/me/games?limit={limit}", headers=alice["headers"])
            assert response.status_code == 422 and response.json()["params"]["field"] == "limit"


async def test_my_games_are_newest_first_within_the_limit(settings) -> None:
    async with harness(settings) as h:
        alice = await h.register("rec_many")
        first = await _practice_game(h, alice)
        second = await _practice_game(h, alice)
        mine = (await h.client.get("/api/me/games", headers=alice["headers"])).json()
        assert [g["id"] for g in mine] == [second["game_id"], first["game_id"]]
        one = (await h.client.get("/api/me/games?limit=1", headers=alice["headers"])).json()
        assert [g["id"] for g in one] == [second["game_id"]]


@pytest.mark.timeout(60)
async def test_a_record_that_cannot_be_written_does_not_stop_game_over(settings, monkeypatch) -> None:
    async def broken(*_args: Any, **_kwargs: Any) -> bool:
        raise ConnectionRefusedError("the database is away")

    monkeypatch.setattr("app.tables.durability.records.RETRY_SECONDS", 0.0)
    monkeypatch.setattr(games, "record_game", broken)
    failures = metrics.GAME_RECORD_FAILURES._value.get()
    async with harness(settings) as h:
        alice = await h.register("rec_broken")
        made = await h.client.post("/api/practice", headers=alice["headers"],
                                   json={"variant": "tiantai", "hands": 1, "bot_speed": "fast"})
        table_id = made.json()["id"]
        seat = await h.connect(table_id, alice)
        over = await answer_until(seat, "game_over", seed=5, timeout=60)
        with pytest.raises(Closed) as closed:  # the socket still closes as the game ends
            await seat.recv(10)
        assert closed.value.code == 1000
        await _records_written(h)
        assert metrics.GAME_RECORD_FAILURES._value.get() == failures + 1
        assert not h.runtime.state.registry.is_open(table_id)  # type: ignore[union-attr]
        missing = await h.client.get(f"/api/games/{over['game_id']}", headers=alice["headers"])
        assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"
