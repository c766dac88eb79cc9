"""A model of the service, tested (issue 23): Hypothesis drives random sequences of what players and staff do
— register, sit, stand, open tables that play hands on bots and 托管, practise, create tournaments, register and
leave them, start and cancel them, adjust balances, fund the house, freeze, void hands, restart the process —
and after every step checks what must always hold:

* every account's ledger sums to its balance (coins and 積分), and no balance is below zero;
* coins are conserved: all balances together equal what came in from outside (welcome grants, admin and house
  adjustments);
* at most one commitment per player: never seated at a table of its own and registered in an unfinished
  tournament, never registered in two;
* every hand is settled at most once (one settlement entry per hand, account and asset);
* no request is answered 5xx.

SQLite in ``make test`` (bounded: ``EXAMPLES`` sequences of at most ``STEPS`` steps, ~60 s); Postgres too when
TEST_DATABASE_URL is set (the conftest's backends).  ``SERVICE_MODEL_EXAMPLES`` runs longer.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from sqlalchemy import func, select, text
from starlette.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from app.models import Commitment, LedgerEntry, Tournament, TournamentEntry, User
from app.services.accounts import WELCOME_REASON
from app.services.ledger import ADMIN_REASON
from app.services.settlement import HAND_REASON
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.settings import TableSettings
from tests.app.conftest import PASSWORD, TEST_SECRET, grant_role, reset_database

EXAMPLES = int(os.environ.get("SERVICE_MODEL_EXAMPLES", "4"))
STEPS = 20
PLAYERS = 4
OUTSIDE = (WELCOME_REASON, ADMIN_REASON)  # the only reasons coins enter or leave the system
FAST_TABLES = {"join_seconds": 0.05, "hand_pause_seconds": 0.01, "bot_delay_seconds": 0.0,
               "auto_play_delay_seconds": 0.0, "claim_hold_seconds": 0.0, "grace_seconds": 0.0}
UNFINISHED = ("scheduled", "registering", "running")


class ServiceModel(RuleBasedStateMachine):
    """One fresh database per sequence; the app is restarted on it by the ``restart`` rule."""

    make_settings: Any = None  # set by the test: () -> Settings of a fresh, empty database

    def __init__(self) -> None:
        super().__init__()
        self.settings: Settings = type(self).make_settings()
        self._open()
        self.staff = {role: self._account(role + "_m", role) for role in ("admin", "operator")}
        self.players = [self._account(f"player{i}_m") for i in range(PLAYERS)]
        self.tables: list[str] = []
        self.tournaments: list[int] = []

    # -- the process -------------------------------------------------------------------------------------

    def _open(self) -> None:
        runtime = ProcessRuntime(TableSettings(_env_file=None, **FAST_TABLES))  # type: ignore[call-arg]
        self.app = create_app(self.settings, table_runtime=runtime)
        self.context = TestClient(self.app, raise_server_exceptions=False)
        self.client = self.context.__enter__()

    def teardown(self) -> None:
        self.context.__exit__(None, None, None)

    def _call(self, method: str, url: str, who: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        headers = {"Authorization": f"Bearer {who['token']}"} if who else {}
        response = self.client.request(method, url, headers=headers, **kwargs)
        assert response.status_code < 500, (method, url, response.status_code, response.text)
        return response

    def _account(self, name: str, role: str | None = None) -> dict[str, Any]:
        body = self._call("POST", "/api/auth/register", json={"username": name, "password": PASSWORD}).json()
        if role is not None:
            self.client.portal.call(grant_role, self.app, body["user"]["id"], role)  # type: ignore[union-attr]
        return {"id": body["user"]["id"], "token": body["access_token"]}

    def _db(self, query: Any) -> Any:
        async def run() -> Any:
            async with self.app.state.services.sessionmaker() as session:
                return (await session.execute(query)).all()
        return self.client.portal.call(run)  # type: ignore[union-attr]

    # -- what players do ---------------------------------------------------------------------------------

    @rule(p=st.integers(0, PLAYERS - 1), variant=st.sampled_from(["tiantai", "taipao"]))
    def open_table(self, p: int, variant: str) -> None:
        response = self._call("POST", "/api/rooms/beginner/tables", self.players[p], json={"variant": variant})
        if response.status_code == 201:
            self.tables.append(response.json()["id"])

    @rule(p=st.integers(0, PLAYERS - 1), q=st.integers(0, PLAYERS - 1))
    def coin_game(self, p: int, q: int) -> None:
        """Two players and a bot: the table starts, and its hands move coins between the two."""
        response = self._call("POST", "/api/rooms/beginner/tables", self.players[p], json={"variant": "tiantai"})
        if response.status_code == 201:
            table_id = response.json()["id"]
            self.tables.append(table_id)
            self._call("POST", f"/api/tables/{table_id}/sit", self.players[q])
            self._call("POST", f"/api/tables/{table_id}/bots", self.players[p])

    @rule(fee=st.sampled_from([0, 1_000]), who=st.sets(st.integers(0, PLAYERS - 1), min_size=2, max_size=3))
    def tournament_round(self, fee: int, who: set[int]) -> None:
        """A tournament some players register for and an operator starts: its table plays on 托管."""
        self.create_tournament(fee, 0)
        if self.tournaments:
            tid = self.tournaments[-1]
            for p in sorted(who):
                self._call("POST", f"/api/tournaments/{tid}/register", self.players[p])
            self._call("POST", f"/api/operator/tournaments/{tid}/start", self.staff["operator"])

    @rule(p=st.integers(0, PLAYERS - 1), t=st.integers(0, 5))
    def sit(self, p: int, t: int) -> None:
        if self.tables:
            self._call("POST", f"/api/tables/{self.tables[t % len(self.tables)]}/sit", self.players[p])

    @rule(p=st.integers(0, PLAYERS - 1), t=st.integers(0, 5))
    def fill_with_bots(self, p: int, t: int) -> None:  # the table starts: hands play on bots and 托管
        if self.tables:
            self._call("POST", f"/api/tables/{self.tables[t % len(self.tables)]}/bots", self.players[p])

    @rule(p=st.integers(0, PLAYERS - 1), t=st.integers(0, 5))
    def stand(self, p: int, t: int) -> None:
        if self.tables:
            self._call("POST", f"/api/tables/{self.tables[t % len(self.tables)]}/stand", self.players[p])

    @rule(p=st.integers(0, PLAYERS - 1))
    def practise(self, p: int) -> None:
        self._call("POST", "/api/practice", self.players[p], json={"variant": "tiantai", "bot_speed": "fast"})

    @rule(p=st.integers(0, PLAYERS - 1), t=st.integers(0, 5), leave=st.booleans())
    def tournament_entry(self, p: int, t: int, leave: bool) -> None:
        if self.tournaments:
            tid = self.tournaments[t % len(self.tournaments)]
            self._call("DELETE" if leave else "POST", f"/api/tournaments/{tid}/register", self.players[p])

    @rule()
    def play_a_while(self) -> None:
        self.client.portal.call(asyncio.sleep, 0.5)  # type: ignore[union-attr]

    # -- what staff do -----------------------------------------------------------------------------------

    @rule(fee=st.sampled_from([0, 100, 20_000]), guarantee=st.sampled_from([0, 500]))
    def create_tournament(self, fee: int, guarantee: int) -> None:
        starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        response = self._call("POST", "/api/operator/tournaments", self.staff["operator"], json={
            "name": "Model cup", "room": "beginner", "variant": "tiantai", "starts_at": starts, "entry_fee": fee,
            "player_limit": 3, "rounds": 1, "hands_per_round": 1, "prize_split": [100], "options": {},
            "guarantee": guarantee})
        if response.status_code == 201:
            self.tournaments.append(response.json()["id"])

    @rule(t=st.integers(0, 5), action=st.sampled_from(["start", "cancel"]))
    def run_tournament(self, t: int, action: str) -> None:
        if self.tournaments:
            tid = self.tournaments[t % len(self.tournaments)]
            self._call("POST", f"/api/operator/tournaments/{tid}/{action}", self.staff["operator"],
                       json={"reason": "model"} if action == "cancel" else None)

    @rule(p=st.integers(0, PLAYERS - 1), delta=st.sampled_from([-60_000, -5_000, 700, 30_000]))
    def adjust(self, p: int, delta: int) -> None:
        self._call("POST", f"/api/admin/users/{self.players[p]['id']}/adjustments", self.staff["admin"],
                   json={"asset": "coins", "delta": delta, "reason": "model"})

    @rule(delta=st.sampled_from([-300, 1_000]))
    def fund_house(self, delta: int) -> None:
        self._call("POST", "/api/admin/house", self.staff["admin"], json={"delta": delta, "reason": "model"})

    @rule(p=st.integers(0, PLAYERS - 1), frozen=st.booleans())
    def freeze(self, p: int, frozen: bool) -> None:
        self._call("POST", f"/api/admin/users/{self.players[p]['id']}/freeze", self.staff["admin"],
                   json={"frozen": frozen, "reason": "model"})

    @rule(n=st.integers(0, 20))
    def void_a_hand(self, n: int) -> None:
        hands = [h for (h,) in self._db(text("SELECT id FROM hands ORDER BY id"))]
        if hands:
            self._call("POST", f"/api/admin/hands/{hands[n % len(hands)]}/void", self.staff["admin"],
                       json={"reason": "model"})

    @rule()
    def restart(self) -> None:
        """The process stops (tables keep their journal) and a new one starts on the same database."""
        self.teardown()
        self._open()

    # -- what must always hold ---------------------------------------------------------------------------

    # Tables play on in the app's own thread while these run, so each check reads in one statement: one snapshot.
    # Two queries could straddle a settlement and see its balances but not yet its ledger rows (or the reverse).

    @invariant()
    def ledger_matches_balances(self) -> None:
        def ledger_sum(asset: str) -> Any:
            return (select(func.coalesce(func.sum(LedgerEntry.delta), 0))
                    .where(LedgerEntry.user_id == User.id, LedgerEntry.asset == asset).scalar_subquery())
        for uid, coins, points, coin_sum, point_sum in self._db(
                select(User.id, User.coins, User.rank_points, ledger_sum("coins"), ledger_sum("rank_points"))):
            assert coins >= 0 and points >= 0, (uid, coins, points)
            assert int(coin_sum) == coins, (uid, "coins", coin_sum, coins)
            assert int(point_sum) == points, (uid, "rank_points", point_sum, points)

    @invariant()
    def coins_are_conserved(self) -> None:
        held = select(func.coalesce(func.sum(User.coins), 0)).scalar_subquery()
        came_in = (select(func.coalesce(func.sum(LedgerEntry.delta), 0))
                   .where(LedgerEntry.asset == "coins", LedgerEntry.reason.in_(OUTSIDE)).scalar_subquery())
        ((held_now, came_in_now),) = self._db(select(held, came_in))
        assert int(held_now) == int(came_in_now)

    @invariant()
    def one_commitment_per_player(self) -> None:
        registered = dict(itertools.groupby(sorted(uid for (uid,) in self._db(
            select(TournamentEntry.user_id).join(Tournament, Tournament.id == TournamentEntry.tournament_id)
            .where(TournamentEntry.active.is_(True), TournamentEntry.disqualified.is_(False),
                   Tournament.state.in_(UNFINISHED))))))
        counts = {uid: len(list(group)) for uid, group in registered.items()}
        assert all(n <= 1 for n in counts.values()), counts
        registry = self.app.state.services.registry
        # On the app's loop: the registry changes there while tables open and close.
        for table in self.client.portal.call(_all_tables, registry):  # type: ignore[union-attr]
            if table.tournament_game_id is None:
                for uid in table.players:
                    assert uid not in counts, (uid, "seated at", table.id, "and registered")
        held = {uid: (kind, ref) for uid, kind, ref in self._db(select(
            Commitment.user_id, Commitment.kind, Commitment.ref))}
        for uid in counts:
            assert held.get(uid, ("tournament", None))[0] == "tournament", (uid, held.get(uid))

    @invariant()
    def hands_settle_at_most_once(self) -> None:
        repeated = self._db(select(LedgerEntry.hand_id, LedgerEntry.user_id, LedgerEntry.asset)
                            .where(LedgerEntry.reason == HAND_REASON)
                            .group_by(LedgerEntry.hand_id, LedgerEntry.user_id, LedgerEntry.asset)
                            .having(func.count() > 1))
        assert repeated == []


async def _all_tables(registry: Any) -> Any:
    return registry.all_tables()


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_service_keeps_its_invariants_under_random_use(database_url: str, tmp_path: Path) -> None:
    counter = itertools.count()

    def fresh() -> Settings:
        if database_url.startswith("sqlite"):
            url = f"sqlite+aiosqlite:///{tmp_path / f'model{next(counter)}.sqlite3'}"
        else:
            asyncio.run(reset_database(database_url))
            url = database_url
        return Settings(_env_file=None, environment="development", secret_key=TEST_SECRET,  # type: ignore[call-arg]
                        database_url=url, redis_url=None, welcome_grant=50_000, tournament_director=False,
                        web_dir=tmp_path / "no-web", register_per_ip=10_000, login_per_ip=10_000)

    ServiceModel.make_settings = staticmethod(fresh)
    run_state_machine_as_test(ServiceModel, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, database=None,
        suppress_health_check=list(HealthCheck)))
