"""Finished games (牌局): each game's final standings, written once at game over and read by its players.

A table's actor tells its runtime when a game ends (``FinishedGame``: what ``game_over`` told the seats);
the runtime writes the record here, off the actor's path.  Each seat's 積分 before and after come from the
ledger: the game's own 積分 entries (``hand:{table}:{game}:{n}:rank:{seat}``, app.services.settlement), so
a change made elsewhere (an admin's adjustment, a later game) never leaks into this game's title change.
The routes (``app.api.routes.games``) are thin: who may read a record is ``readable_game``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.game.names import Names
from app.game.rooms import GameKind
from app.game.titles import TITLES, title_for
from app.models import Game, GamePlayer, Hand, LedgerEntry, User
from app.services.errors import ErrorCode, Forbidden, NotFound
from app.services.roles import Role, has_role

GAMES_LIMIT = 50  # finished games listed at most (newest first)
RECORD_ID_MAX = 80  # ``Game.id``: a table id (≤ 64) and the table's game id


def record_id(table_id: str, game_id: str) -> str:
    """The record's id: the table's game id is unique only at its table, so the table's id leads."""
    return f"{table_id}:{game_id}"


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game's end as its table saw it: the totals, places and who stood up, per seat in seat order."""

    table_id: str
    game_id: str  # the table's own (unique at its table only; its hands' keys carry it)
    variant: str
    room: str | None
    kind: GameKind
    options: dict[str, Any]
    hands_limit: int | None
    seats: list[int | None]  # user id per seat; None for a bot
    seat_names: list[str | None]
    bots: list[int]
    reason: str
    hands_played: int
    last_hand_no: int  # hands were numbered 1 … last_hand_no (voided ones too): their 積分 keys
    points: list[int]
    coins: list[int]
    places: list[int]
    stood_up: list[int]

    @property
    def id(self) -> str:
        return record_id(self.table_id, self.game_id)


async def record_game(session: AsyncSession, game: FinishedGame, *, now: datetime) -> bool:
    """Write the game's record once.  True if written now; False if it was there already (a second call for
    the same game, from a retry or another process that also saw the end, changes nothing)."""
    if await session.get(Game, game.id) is not None:
        await session.commit()
        return False
    before, after = await _rank_points(session, game)
    await begin_write(session)
    session.add(Game(
        id=game.id, table_id=game.table_id, variant=game.variant, room=game.room, kind=game.kind.value,
        options=game.options, hands_limit=game.hands_limit, seats=game.seats, seat_names=game.seat_names,
        bots=game.bots, reason=game.reason, hands_played=game.hands_played, points=game.points,
        coins=game.coins, places=game.places, stood_up=game.stood_up, rank_before=before, rank_after=after,
        titles_before=[_title(r) for r in before], titles_after=[_title(r) for r in after], ended_at=now))
    await session.flush()  # the game's row first: the players' rows refer to it
    session.add_all(GamePlayer(game_id=game.id, seat=seat, user_id=uid, ended_at=now)
                    for seat, uid in enumerate(game.seats) if uid is not None)
    try:
        await session.commit()
    except IntegrityError:  # written meanwhile by another writer of the same game
        await session.rollback()
        return False
    return True


def _title(rank_points: int | None) -> str | None:
    return None if rank_points is None else title_for(rank_points)


async def _rank_points(session: AsyncSession, game: FinishedGame) -> tuple[list[int | None], list[int | None]]:
    """Each seat's 積分 before the game's first entry and after its last; unchanged (the account's 積分 now)
    for a seat the game moved none for (practice and tournament tables move none).  None for bots."""
    humans = {seat: uid for seat, uid in enumerate(game.seats) if uid is not None}
    keys = [f"hand:{game.table_id}:{game.game_id}:{n}:rank:{seat}"
            for n in range(1, game.last_hand_no + 1) for seat in humans]
    entries = (await session.scalars(
        sa.select(LedgerEntry).where(LedgerEntry.idempotency_key.in_(keys)).order_by(LedgerEntry.id))).all() \
        if keys else []
    rows = await session.execute(sa.select(User.id, User.rank_points).where(User.id.in_(list(humans.values()))))
    now = {int(uid): int(rank_points) for uid, rank_points in rows.all()}
    before: list[int | None] = [None] * len(game.seats)
    after: list[int | None] = [None] * len(game.seats)
    for seat, uid in humans.items():
        mine = [e for e in entries if e.user_id == uid]
        before[seat] = mine[0].balance_after - mine[0].delta if mine else now.get(uid, 0)
        after[seat] = mine[-1].balance_after if mine else now.get(uid, 0)
    return before, after


async def player_games(session: AsyncSession, user_id: int, limit: int = GAMES_LIMIT) -> list[Game]:
    """The games ``user_id`` played to their end, newest first."""
    query = (sa.select(Game).join(GamePlayer, GamePlayer.game_id == Game.id)
             .where(GamePlayer.user_id == user_id)
             .order_by(GamePlayer.ended_at.desc(), Game.id.desc()).limit(limit))
    return list((await session.scalars(query)).all())


def game_of_hand(hand_key: str) -> str | None:
    """The game record's id a table's hand belongs to: its key is ``{table}:{game}:{hand_no}`` (hand_end),
    the record's ``{table}:{game}``.  None for a key of another shape (a hand settled outside a table)."""
    head, sep, hand_no = hand_key.rpartition(":")
    return head if sep and ":" in head and hand_no.isdigit() else None


async def game_hands(session: AsyncSession, game_ids: list[str]) -> dict[str, list[int]]:
    """Each game's settled hands (their ids, in play order), for the history's grouping and the replay of the
    whole game (issue 33 item 5).  Voided hands were never recorded, so a game may skip a hand number."""
    found: dict[str, list[tuple[int, int]]] = {gid: [] for gid in game_ids}
    if not game_ids:
        return {}
    rows = await session.execute(sa.select(Hand.id, Hand.hand_key).where(
        sa.or_(*(Hand.hand_key.startswith(f"{gid}:", autoescape=True) for gid in game_ids))))
    for hand_id, key in rows.all():
        gid = game_of_hand(key)
        if gid in found:
            found[gid].append((int(key.rpartition(":")[2]), int(hand_id)))
    return {gid: [hand_id for _, hand_id in sorted(hands)] for gid, hands in found.items()}


async def readable_game(session: AsyncSession, game_id: str, user: User) -> Game:
    """The record, if ``user`` may read it: a player seated in the game, or an operator or admin.
    404 ``game_not_found`` for no such game, 403 ``game_private`` for anyone else."""
    game = await session.get(Game, game_id)
    if game is None:
        raise NotFound("no such finished game", ErrorCode.GAME_NOT_FOUND, game_id=game_id)
    if user.id in (game.seats or []) or has_role(user, Role.OPERATOR):
        return game
    raise Forbidden("only the game's players (and operators and admins) may read its standings",
                    ErrorCode.GAME_PRIVATE, game_id=game_id)


_NAMES = {names.zh_hant: names for _, names in TITLES}


def title_names(title: str | None) -> Names | None:
    """A stored title's names in the three languages (a title the ladder no longer has keeps its own)."""
    if title is None:
        return None
    return _NAMES.get(title) or Names(title, title, title)
