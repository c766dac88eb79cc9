"""A player's finished hands, their stats and the 積分 leaderboards (issue 13: history, progress).

Domain functions over the stored hands and ledger; the routes in ``app.api.routes.history`` are thin.
Who sat in a hand is ``Hand.seats`` (a JSON list of user ids, null for bots); it is matched as JSON text
(``[7,`` / ``, 7]``…) so the same query runs on SQLite and Postgres, then checked again in Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from app.game.rooms import GameKind
from app.game.titles import TITLES, title_names_for
from app.models import Game, GamePlayer, Hand, LedgerEntry, User
from app.services.games import game_of_hand

HISTORY_LIMIT = 50  # hands listed at most (newest first)
STATS_HANDS = 1_000  # the stats read at most this many of the player's newest hands
LEADERBOARD_SIZE = 20  # rows a leaderboard lists at most (the best first)


def _seat_patterns(user_id: int) -> list[str]:
    """How ``user_id`` appears in the JSON text of ``Hand.seats`` (json.dumps separators ", ")."""
    u = str(int(user_id))
    return [f"[{u}]", f"[{u},%", f"%, {u},%", f"%, {u}]"]


async def player_hands(session: AsyncSession, user_id: int, limit: int = HISTORY_LIMIT) -> list[Hand]:
    """The player's finished hands, newest first."""
    text = sa.cast(Hand.seats, sa.Text)
    query = (sa.select(Hand).where(sa.or_(*(text.like(p) for p in _seat_patterns(user_id))))
             .order_by(Hand.id.desc()).limit(limit))
    return [h for h in (await session.scalars(query)).all() if user_id in (h.seats or [])]


def hand_summary(hand: Hand, user_id: int) -> dict[str, Any]:
    """One row of the hands list, as ``user_id`` played it: seat, result, points and coins."""
    seat = (hand.seats or []).index(user_id)
    result, settlement = hand.result or {}, hand.settlement or {}
    winners = result.get("winners") or []
    score = result.get("score") or {}
    net = score.get("net") or settlement.get("point_deltas") or []
    coins = settlement.get("coin_deltas") or []
    outcome = "win" if seat in winners else "deal_in" if result.get("discarder") == seat and winners else (
        "draw" if not winners else "loss")
    return {
        "id": hand.id, "game_id": game_of_hand(hand.hand_key), "created_at": hand.created_at,
        "table_id": hand.table_id, "variant": hand.variant,
        "room": hand.room, "practice": hand.practice, "seat": seat, "hand_no": result.get("hand_no"),
        "winners": winners, "win_kind": result.get("win_kind"), "outcome": outcome,
        "points": net[seat] if seat < len(net) else 0, "coins": coins[seat] if seat < len(coins) else 0,
    }


def _tai_of(hand: Hand, seat: int) -> int | None:
    """The winner's 台 (or 胡 for 天台) total of a hand, from the scored items."""
    for s in ((hand.result or {}).get("score") or {}).get("seats") or []:
        if s.get("seat") == seat:
            return sum(int(i.get("value", 0)) for i in s.get("items") or [])
    return None


async def player_stats(session: AsyncSession, user: User) -> dict[str, Any]:
    """Hands, wins, deal-ins, average 台 of the wins (胡 for 天台 are not mixed in), the biggest hand, and
    the title ladder: the current title, the next one and the 積分 still needed."""
    hands = await player_hands(session, user.id, limit=STATS_HANDS)
    rows = [hand_summary(h, user.id) for h in hands]
    wins = [r for r in rows if r["outcome"] == "win"]
    tai = [t for h, r in zip(hands, rows, strict=True) if r["outcome"] == "win" and h.variant != "tiantai"
           for t in [_tai_of(h, r["seat"])] if t is not None]
    biggest = max(rows, key=lambda r: r["points"], default=None)
    return {
        "hands": len(rows), "wins": len(wins), "deal_ins": sum(r["outcome"] == "deal_in" for r in rows),
        "average_tai": round(sum(tai) / len(tai), 2) if tai else None,
        "biggest_hand": {"hand_id": biggest["id"], "points": biggest["points"], "variant": biggest["variant"]}
        if biggest and biggest["points"] > 0 else None,
        "ladder": ladder(user.rank_points),
    }


def ladder(rank_points: int) -> dict[str, Any]:
    """The title ladder (白板 … 麻將王) and where ``rank_points`` stands on it."""
    current = title_names_for(rank_points)
    nxt = next(((t, n) for t, n in TITLES if t > rank_points), None)
    return {
        "rank_points": rank_points, "title": current.to_json(),
        "next_title": nxt[1].to_json() if nxt else None, "next_at": nxt[0] if nxt else None,
        "needed": nxt[0] - rank_points if nxt else 0,
        "steps": [{"at": t, "title": n.to_json()} for t, n in TITLES],
    }


@dataclass(frozen=True, slots=True)
class Leader:
    user_id: int
    username: str
    rank_points: int


def week_start(now: datetime) -> datetime:
    """Monday 00:00 UTC of ``now``'s week: the weekly board counts 積分 earned since then."""
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


async def leaderboard(session: AsyncSession, period: str, now: datetime) -> list[Leader]:
    """The players by 積分: all time (their balance) or this week (積分 earned since Monday 00:00 UTC).

    Every player who played in the period is listed (issue 33 item 4), not only those whose 積分 rose: a
    player at 0 who lost a hand moves no 積分 (it never goes below 0), so has no ledger entry; they are found
    by the coin games they finished (``GamePlayer``) and listed with what they earned, 0 or less."""
    since = week_start(now) if period == "week" else None
    played = (sa.select(GamePlayer.user_id).join(Game, Game.id == GamePlayer.game_id)
              .where(Game.kind == GameKind.COIN.value))
    if since is not None:
        played = played.where(GamePlayer.ended_at >= since)
    if since is None:
        moved = sa.select(User.id).where(User.rank_points > 0)
        players = sa.union(played, moved).subquery()
        query = (sa.select(User.id, User.username, User.rank_points).where(User.id.in_(sa.select(players.c[0])))
                 .order_by(User.rank_points.desc(), User.id).limit(LEADERBOARD_SIZE))
    else:
        entries = (sa.select(LedgerEntry.user_id.label("user_id"), sa.func.sum(LedgerEntry.delta).label("earned"))
                   .where(LedgerEntry.asset == "rank_points", LedgerEntry.created_at >= since)
                   .group_by(LedgerEntry.user_id).subquery())
        players = sa.union(played, sa.select(entries.c.user_id)).subquery()
        earned = sa.func.coalesce(entries.c.earned, 0).label("earned")
        query = (sa.select(User.id, User.username, earned).where(User.id.in_(sa.select(players.c[0])))
                 .outerjoin(entries, entries.c.user_id == User.id)
                 .order_by(earned.desc(), User.id).limit(LEADERBOARD_SIZE))
    return [Leader(int(r[0]), str(r[1]), int(r[2])) for r in (await session.execute(query)).all()]
