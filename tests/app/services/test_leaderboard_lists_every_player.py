"""Issue 33 item 4: the 積分 leaderboards list every player who played in their period, numbered, including a
player whose 積分 did not rise (at 0, a lost hand moves none, so the ledger has no entry for them: one game's
four players showed as three).  A player who only played practice, or nobody's game, is not listed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.game.rooms import GameKind
from app.models import User
from app.services import games
from app.services.history import leaderboard, week_start
from app.services.ledger import post_entry


def _finished(table_id: str, seats: list[int | None], kind: GameKind, points: list[int]) -> games.FinishedGame:
    n = len(seats)
    return games.FinishedGame(
        table_id=table_id, game_id="g1", variant="taiwan", room="beginner" if kind is GameKind.COIN else None,
        kind=kind, options={}, hands_limit=1, seats=seats, seat_names=[f"s{i}" for i in range(n)], bots=[],
        reason="hands_limit", hands_played=1, last_hand_no=1, points=points, coins=[0] * n,
        places=[1, 2, 3, 4][:n], stood_up=[])


async def test_every_player_of_the_period_is_listed_and_numbered(client, app, player) -> None:
    winner, second, third, fourth = [await player(n) for n in ("lb_win", "lb_two", "lb_three", "lb_four")]
    await player("lb_idle")  # registered, never played
    practised = await player("lb_practice")
    now = datetime.now(UTC)
    async with app.state.services.sessionmaker() as session:
        # The winner's 積分 rose; the three others were at 0 and lost, so nothing moved for them.
        user = await session.get(User, winner.id)
        assert user is not None
        post_entry(session, user, asset="rank_points", delta=12, reason="hand", idempotency_key="lb:rank:0")
        await session.commit()
        coin_game = _finished("t-lb", [winner.id, second.id, third.id, fourth.id], GameKind.COIN, [12, -2, -4, -6])
        assert await games.record_game(session, coin_game, now=now)
        practice = _finished("t-lbp", [practised.id, None, None, None], GameKind.PRACTICE, [5, -5, 0, 0])
        assert await games.record_game(session, practice, now=now)

    for period in ("week", "all"):
        board = (await client.get(f"/api/leaderboard?period={period}")).json()
        names = [row["username"] for row in board]
        assert names[0] == "lb_win" and board[0]["rank_points"] == 12, board
        assert {"lb_two", "lb_three", "lb_four"} <= set(names), f"{period}: a player of the game is missing: {names}"
        assert "lb_practice" not in names and "lb_idle" not in names
        assert [row["rank"] for row in board] == list(range(1, len(board) + 1))
        assert all(row["rank_points"] == 0 for row in board if row["username"] in ("lb_two", "lb_three", "lb_four"))


async def test_last_weeks_players_are_not_on_this_weeks_board(app, player) -> None:
    old, fresh = await player("lb_lastweek"), await player("lb_thisweek")
    now = datetime.now(UTC)
    async with app.state.services.sessionmaker() as session:
        last_week = week_start(now) - timedelta(days=2)
        assert await games.record_game(session, _finished("t-old", [old.id, None, None, None], GameKind.COIN,
                                                          [0, 0, 0, 0]), now=last_week)
        assert await games.record_game(session, _finished("t-new", [fresh.id, None, None, None], GameKind.COIN,
                                                          [0, 0, 0, 0]), now=now)
        week = [x.username for x in await leaderboard(session, "week", now)]
        ever = [x.username for x in await leaderboard(session, "all", now)]
    assert "lb_thisweek" in week and "lb_lastweek" not in week
    assert {"lb_thisweek", "lb_lastweek"} <= set(ever)
