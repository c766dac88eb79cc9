"""The tournament director (比賽主持): moves due tournaments along and runs their tables in this process.

Every ``TOURNAMENT_TICK_SECONDS`` it creates the tournaments of recurring schedules whose next occurrence
is within its lead time (app.tournaments.schedules), opens due registrations, starts due tournaments (round 1 seated at
random), and (re)launches the tables of a running tournament's current round that are not live here —
which is how a running tournament resumes after a restart: a table the journal holds is resumed where it
stopped (app.tables.durability.journal), any other is started again (only finished games' points count).  When a
tournament table's game ends the actor tells the director, which records the points, removes the table,
seats the next round by standings or pays the prizes, and publishes the standings to every lobby socket
(``{"type": "tournament_updated", "tournament": …}``).

A table resumed from the journal is the tournament's from its first resumed hand, before any tick:
``adopt_resumed`` (the runtime's ``on_resume`` hook) finds its game by table id, which the director stores
before the table starts.  With several processes, a director acts for a tournament only while it holds the
tournament's lease (app.tournaments.lease).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

from sqlalchemy import select

from app import metrics
from app.core.outage import REDIS_ERRORS, Outage
from app.core.tasks import stop_tasks
from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.models import Tournament, TournamentGame, User
from app.monitoring import tournaments as tournament_gauges
from app.services.errors import Conflict
from app.state import AppState
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.registry import TableInfo, new_table_id
from app.tournaments import accounts, queries, schedules, service, views
from app.tournaments.lease import DirectorLease, LocalLease, RedisLease
from app.tournaments.spec import TournamentState

log = logging.getLogger(__name__)


class TournamentDirector:
    def __init__(self, state: AppState, runtime: ProcessRuntime | None, rng: random.Random | None = None,
                 lease: DirectorLease | None = None) -> None:
        self.state = state
        self.runtime = runtime
        # Seating is a game secret like the wall: a CSPRNG-seeded generator unless a test passes its own.
        self.rng = rng or random.Random(secrets.randbits(128))
        self.lock = asyncio.Lock()  # one step at a time in this process
        self.lease: DirectorLease = lease or LocalLease()
        self.held: set[int] = set()  # tournaments whose lease this process holds
        self.redis_outage = Outage(log, "tournament director: its leases (Redis)", "it keeps the tournaments it directs")

    def hook(self) -> None:
        """Wire into the table runtime before it resumes its tables (``create_app`` does this)."""
        if self.runtime is not None:
            self.runtime.on_game_over = self.table_finished
            self.runtime.on_resume = self.adopt_resumed

    async def leads(self, tournament_id: int) -> bool:
        """Whether this process directs the tournament now: takes its lease if free, renews it if ours.  Never
        while an operator drains this process (it seats no new table): it lets the lease go to another."""
        if self.state.registry.closed_to_new_tables:
            if tournament_id in self.held:
                self.held.discard(tournament_id)
                try:
                    await self.lease.release(tournament_id)
                except Exception:
                    log.warning("tournament %s: the director lease was not released; it expires", tournament_id)
            return False
        try:
            # Not ours: keep off a free lease while Redis has just come back; its live holder re-asserts it.
            ours = not (tournament_id not in self.held and await self.lease.settling())
            ours = ours and await self.lease.hold(tournament_id)
        except REDIS_ERRORS as exc:  # Redis away: the holder keeps directing (the database guards the money)
            self.lease.failed()
            self.redis_outage.failed(exc)
            return tournament_id in self.held
        except Exception:
            log.exception("tournament %s: the director lease could not be checked", tournament_id)
            ours = False
        else:
            self.redis_outage.ok()
        if ours:
            self.held.add(tournament_id)
        else:
            self.held.discard(tournament_id)
        return ours

    async def tick(self) -> None:
        """One pass: the schedules' due occurrences, then every tournament whose next step is due (and whose
        lease this process holds)."""
        try:
            await self.create_scheduled()
        except Exception:
            log.exception("creating scheduled tournaments failed")
        async with self.state.sessionmaker() as session:
            due = await queries.due(session)
            await tournament_gauges.refresh(session)
        for tournament in due:
            try:
                if await self.leads(tournament.id):
                    await self.advance(tournament.id)
            except Exception:
                log.exception("tournament %s: step failed", tournament.id)
        for tournament_id in sorted(self.held - {t.id for t in due}):
            try:  # finished, or cancelled by another process: close what still runs here and let go
                await self._wind_down(tournament_id)
            except Exception:
                log.exception("tournament %s: winding down failed", tournament_id)
        try:
            await self._close_strays()
        except Exception:
            log.exception("closing stray tournament tables failed")
        tournament_gauges.ticked()

    async def create_scheduled(self, now: datetime | None = None) -> list[int]:
        """Create the tournament of each schedule's occurrence that starts within its lead time, registration
        open, and tell the lobbies; exactly once per occurrence across processes (app.tournaments.schedules)."""
        created = await schedules.create_due(self.state.sessionmaker, now)
        for tournament_id in created:
            await self.publish(tournament_id)
        return created

    async def _close_strays(self) -> None:
        """Close this process's tournament tables whose game no longer counts: the tournament was cancelled
        (e.g. by another process, or just before a crash whose restart resumed the table) or the game was
        recorded already.  Their unfinished hand moves no coins, like any closed tournament table."""
        if self.runtime is None:
            return
        games = {a.info.tournament_game_id: table_id for table_id, a in list(self.runtime.actors.items())
                 if a.info.tournament_game_id is not None and not a.closed}
        if not games:
            return
        async with self.state.sessionmaker() as session:
            rows = (await session.execute(
                select(TournamentGame.id, TournamentGame.finished, Tournament.state)
                .join(Tournament, Tournament.id == TournamentGame.tournament_id)
                .where(TournamentGame.id.in_(list(games))))).all()
            await session.commit()
        for game_id, finished, state in rows:
            if finished or state != TournamentState.RUNNING:
                log.info("tournament game %s: its table closes (%s)", game_id,
                         "recorded" if finished else state, extra={"table_id": games[game_id]})
                await self.state.registry.remove(games[game_id])

    async def _wind_down(self, tournament_id: int) -> None:
        async with self.state.sessionmaker() as session:
            games = await service.unfinished_games(session, tournament_id)
            await session.commit()
        for game in games:
            if game.table_id is not None and self._live(game.table_id):
                await self.state.registry.remove(game.table_id)
        self.held.discard(tournament_id)
        await self.lease.release(tournament_id)

    async def release_all(self) -> None:
        """At shutdown: give every lease back, so another process takes over at its next tick."""
        for tournament_id in sorted(self.held):
            try:
                await self.lease.release(tournament_id)
            except Exception:
                log.exception("tournament %s: the director lease was not released", tournament_id)
        self.held.clear()

    async def advance(self, tournament_id: int) -> None:
        async with self.lock, self.state.sessionmaker() as session:
            tournament = await service.get(session, tournament_id)
            state = tournament.state
            await session.commit()
        if state == TournamentState.SCHEDULED:
            async with self.state.sessionmaker() as session:
                await service.open_registration(session, tournament_id)
        elif state == TournamentState.REGISTERING:
            async with self.state.sessionmaker() as session:
                director = await accounts.director_id(session)
                await session.commit()
            with contextlib.suppress(Conflict):  # another process started or cancelled it meanwhile
                await self.start(tournament_id, actor_id=director)
            return
        elif state == TournamentState.RUNNING:
            await self.launch(tournament_id)
        await self.publish(tournament_id)

    async def start(self, tournament_id: int, actor_id: int | None = None, reason: str | None = None) -> None:
        """Start now (exactly once, whichever process asks); the tables start in the process that leads the
        tournament — this one unless another holds the lease, whose next tick launches them."""
        async with self.state.sessionmaker() as session:
            await service.start(session, tournament_id, rng=self.rng, actor_id=actor_id, reason=reason)
        if await self.leads(tournament_id):
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
            if game.table_id is not None and (await self._elsewhere(game.table_id)
                                              or await self._resume(game.table_id)):
                continue  # it plays in another process, or is resumed here from the journal
            # The id is the game's before the table exists: a crash after the start cannot orphan it.
            table_id = new_table_id()
            async with self.state.sessionmaker() as session:
                await service.set_table(session, game.id, table_id)
            await self.state.registry.create_tournament_table(
                room=RoomKey(tournament.room), variant=VariantKey(tournament.variant), options=tournament.options,
                seats=[(uid, names[uid]) if uid is not None else None for uid in game.seats],
                game_id=game.id, hands_limit=tournament.hands_per_round, table_id=table_id,
            )

    async def _elsewhere(self, table_id: str) -> bool:
        """Another process owns the table (several processes: app.tables.cluster.cluster's directory)."""
        try:
            await self.state.registry.lookup(table_id)
        except Exception:
            return False
        return True

    async def _resume(self, table_id: str) -> bool:
        """A tournament table the journal still holds is resumed here (its hand goes on where it stopped).
        True also when that fails: the journal has the game, so a fresh table would play it twice; the next
        tick (or the cluster's take-over) tries again.  False only when the journal does not hold it."""
        runtime = self.runtime
        if runtime is None or runtime.journal is None or await runtime.journal.load(table_id) is None:
            return False
        try:
            if not await runtime.resume_table(table_id):
                log.warning("table %s: not resumed for its tournament (held elsewhere?); next tick", table_id)
        except Exception:
            log.exception("table %s: could not be resumed for its tournament; next tick", table_id)
        return True

    async def adopt_resumed(self, info: TableInfo) -> None:
        """The runtime's ``on_resume``: a table resumed from the journal that plays a tournament game is
        marked as the tournament's (no coins, the hand limit, its points reported here) before it plays."""
        async with self.state.sessionmaker() as session:
            row = (await session.execute(
                select(TournamentGame.id, Tournament.hands_per_round)
                .join(Tournament, Tournament.id == TournamentGame.tournament_id)
                .where(TournamentGame.table_id == info.id))).first()
            await session.commit()
        if row is not None:
            info.tournament_game_id, info.hands_limit = row[0], row[1]

    def _adopt(self, game: TournamentGame, hands_limit: int | None) -> None:
        """A table resumed after a restart (app.tables.durability.journal) does not know it is a tournament's: tell its
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
            try:
                outcome = await service.add_game_result(session, info.tournament_game_id, points=points,
                                                    hands_played=hands)
            except Exception:
                metrics.RECORD_FAILURES.inc()  # the points, and at the last table the prizes, are not in
                raise
        await self.state.registry.remove(info.id)
        if outcome == "next_round" and await self.leads(tournament_id):
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
            detail = await tournament_view(session, tournament_id)
        try:
            await self.state.broker.publish({"type": "tournament_updated", "tournament": detail})
        except Exception:
            log.exception("tournament %s: lobby publish failed", tournament_id)


async def _users(session: Any, games: list[TournamentGame]) -> list[User]:
    ids = {uid for g in games for uid in g.seats if uid is not None}
    return list(await session.scalars(select(User).where(User.id.in_(ids)))) if ids else []


async def tournament_view(session: Any, tournament_id: int) -> dict[str, Any]:
    """The public view of a tournament: settings, state, standings and the current round's tables."""
    tournament: Tournament = await service.get(session, tournament_id)
    standings = await queries.standings(session, tournament_id)
    if tournament.state == TournamentState.RUNNING:  # the hands settled at tables still playing count too
        live = await views.live_points(session, tournament_id)
        for s in standings:
            s["points"] += live.get(s["user_id"], 0)
        standings.sort(key=lambda s: -s["points"])  # stable: ties keep the registration order
    paid = await views.money(session, tournament)
    games = await queries.games(session, tournament_id)
    pool = await session.get(User, tournament.pool_user_id, populate_existing=True)
    await session.commit()
    return {
        **service.summary(tournament),
        "registered": len(standings),
        "pool": pool.coins if pool else 0,
        **paid,
        "standings": standings,
        "tables": [
            {"round": g.round, "table_no": g.table_no, "table_id": g.table_id, "seats": g.seats,
             "finished": g.finished, "points": g.points, "hands_played": g.hands_played,
             "closed_tables": list(g.closed_tables or [])}
            for g in games
        ],
    }


def make_director(state: AppState, runtime: ProcessRuntime | None) -> TournamentDirector:
    """The process's director, hooked into the table runtime: made before the runtime resumes its tables.
    With ``REDIS_URL`` it leads a tournament only while it holds the tournament's Redis lease."""
    settings = state.settings
    lease = (RedisLease(settings.redis_url, prefix=f"{settings.redis_prefix}:tournament-director:",
                        seconds=settings.tournament_lease_seconds, grace=2 * settings.tournament_tick_seconds)
             if settings.redis_url else LocalLease())
    director = TournamentDirector(state, runtime, lease=lease)
    director.hook()
    return director


@contextlib.asynccontextmanager
async def running_director(director: TournamentDirector) -> AsyncIterator[TournamentDirector]:
    """Entered at startup after the table runtime: ticks the director in the background; at exit its leases
    go back (so another process takes over at once)."""
    state = director.state

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
        await stop_tasks(task)
        await director.release_all()
        await director.lease.close()
