"""The tournament director (比賽主持): moves due tournaments along and runs their tables in this process.

Every ``TOURNAMENT_TICK_SECONDS`` it opens due registrations, starts due tournaments (round 1 seated at
random), and (re)launches the tables of a running tournament's current round that are not live here —
which is how a running tournament resumes after a restart (a game cut short is replayed from its start;
only finished games' points count).  When a tournament table's game ends the actor tells the director,
which records the points, removes the table, seats the next round by standings or pays the prizes, and
publishes the standings to every lobby socket (``{"type": "tournament_updated", "tournament": …}``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import AsyncIterator
from typing import Any

from app.game.rooms import RoomKey
from app.game.variants import Variant
from app.models import Tournament, TournamentGame, User
from app.state import AppState
from app.tables.registry import TableInfo
from app.tables.runtime import TableRuntime
from app.tournaments import service
from app.tournaments.service import TournamentState

log = logging.getLogger(__name__)


class TournamentDirector:
    def __init__(self, state: AppState, runtime: TableRuntime | None, rng: random.Random | None = None) -> None:
        self.state = state
        self.runtime = runtime
        # Seating is a game secret like the wall: a CSPRNG-seeded generator unless a test passes its own.
        self.rng = rng or random.Random(secrets.randbits(128))
        self.lock = asyncio.Lock()  # one step at a time in this process

    async def tick(self) -> None:
        """One pass over every tournament whose next step is due."""
        async with self.state.sessionmaker() as session:
            due = await service.due(session)
        for tournament in due:
            try:
                await self.advance(tournament.id)
            except Exception:
                log.exception("tournament %s: step failed", tournament.id)

    async def advance(self, tournament_id: int) -> None:
        async with self.lock, self.state.sessionmaker() as session:
            tournament = await service.get(session, tournament_id)
            state = tournament.state
            await session.commit()
        if state == TournamentState.SCHEDULED:
            async with self.state.sessionmaker() as session:
                await service.open_registration(session, tournament_id)
        elif state == TournamentState.REGISTERING:
            await self.start(tournament_id)
            return
        elif state == TournamentState.RUNNING:
            await self.launch(tournament_id)
        await self.publish(tournament_id)

    async def start(self, tournament_id: int, actor_id: int | None = None) -> None:
        async with self.state.sessionmaker() as session:
            await service.start(session, tournament_id, rng=self.rng, actor_id=actor_id)
        await self.launch(tournament_id)
        await self.publish(tournament_id)

    async def launch(self, tournament_id: int) -> None:
        """Start a live table for every unfinished game of the current round that has none here."""
        async with self.state.sessionmaker() as session:
            tournament = await service.get(session, tournament_id)
            if tournament.state != TournamentState.RUNNING:
                await session.commit()
                return
            games = await service.unfinished_games(session, tournament_id)
            names = {u.id: u.username for u in await _users(session, games)}
            await session.commit()
        for game in games:
            if game.table_id is not None and self._live(game.table_id):
                self._adopt(game, tournament.hands_per_round)
                continue
            table = await self.state.registry.create_tournament_table(
                room=RoomKey(tournament.room), variant=Variant(tournament.variant), options=tournament.options,
                seats=[(uid, names[uid]) if uid is not None else None for uid in game.seats],
                game_id=game.id, hands_limit=tournament.hands_per_round,
            )
            async with self.state.sessionmaker() as session:
                await service.set_table(session, game.id, table.id)

    def _adopt(self, game: TournamentGame, hands_limit: int | None) -> None:
        """A table resumed after a restart (app.tables.journal) does not know it is a tournament's: tell its
        actor, so it settles without coins, stops after ``hands_limit`` hands and reports its points here."""
        actor = self.runtime.actors.get(game.table_id or "") if self.runtime is not None else None
        if actor is not None:
            actor.info.tournament_game_id, actor.info.hands_limit = game.id, hands_limit

    def _live(self, table_id: str) -> bool:
        try:
            self.state.registry.get(table_id)
        except Exception:
            return False
        return True

    async def table_finished(self, info: TableInfo, points: list[int], hands: int, _reason: str) -> None:
        """The actor's game-over hook: record a tournament table's points, then the next step."""
        if info.tournament_game_id is None:
            return
        async with self.state.sessionmaker() as session:
            game = await session.get(TournamentGame, info.tournament_game_id)
            tournament_id = game.tournament_id if game else None
            await session.commit()
        if tournament_id is None:
            return
        async with self.lock, self.state.sessionmaker() as session:
            outcome = await service.record_game(session, info.tournament_game_id, points=points,
                                                hands_played=hands)
        await self.state.registry.remove(info.id)
        if outcome == "next_round":
            await self.launch(tournament_id)
        await self.publish(tournament_id)

    async def cancel(self, tournament_id: int, *, actor_id: int | None, reason: str) -> bool:
        """Cancel with refunds (exactly once) and close its live tables: their hands move no coins."""
        async with self.lock, self.state.sessionmaker() as session:
            games = await service.unfinished_games(session, tournament_id)
            done = await service.cancel(session, tournament_id, actor_id=actor_id, reason=reason)
        for game in games:
            if game.table_id is not None and self._live(game.table_id):
                await self.state.registry.remove(game.table_id)
        await self.publish(tournament_id)
        return done

    async def publish(self, tournament_id: int) -> None:
        async with self.state.sessionmaker() as session:
            detail = await describe(session, tournament_id)
        try:
            await self.state.broker.publish({"type": "tournament_updated", "tournament": detail})
        except Exception:
            log.exception("tournament %s: lobby publish failed", tournament_id)


async def _users(session: Any, games: list[TournamentGame]) -> list[User]:
    from sqlalchemy import select

    ids = {uid for g in games for uid in g.seats if uid is not None}
    return list(await session.scalars(select(User).where(User.id.in_(ids)))) if ids else []


async def describe(session: Any, tournament_id: int) -> dict[str, Any]:
    """The public view of a tournament: settings, state, standings and the current round's tables."""
    tournament: Tournament = await service.get(session, tournament_id)
    standings = await service.standings(session, tournament_id)
    games = await service.games(session, tournament_id)
    pool = await session.get(User, tournament.pool_user_id, populate_existing=True)
    await session.commit()
    return {
        **service.summary(tournament),
        "registered": len(standings),
        "pool": pool.coins if pool else 0,
        "standings": standings,
        "tables": [
            {"round": g.round, "table_no": g.table_no, "table_id": g.table_id, "seats": g.seats,
             "finished": g.finished, "points": g.points, "hands_played": g.hands_played}
            for g in games
        ],
    }


@contextlib.asynccontextmanager
async def running_director(state: AppState, runtime: TableRuntime | None) -> AsyncIterator[TournamentDirector]:
    """Entered at startup after the table runtime: hooks the director in and ticks it in the background."""
    director = TournamentDirector(state, runtime)
    if runtime is not None:
        runtime.on_game_over = director.table_finished

    async def loop() -> None:
        while True:
            await asyncio.sleep(state.settings.tournament_tick_seconds)
            try:
                await director.tick()
            except Exception:
                log.exception("tournament director tick failed")

    task = asyncio.create_task(loop(), name="tournament-director") if state.settings.tournament_director else None
    try:
        yield director
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
