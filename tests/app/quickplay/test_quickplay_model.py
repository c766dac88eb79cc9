"""Issue 25: quick play as a Hypothesis state machine — random joins, leaves, waves, stand-ups and matchers
dying mid-match (their claim aged past recovery) — against the real queue service, store, matcher and table
registry, with an in-memory commitments owner that keeps one commitment per player as the real one does.

After every step: each player is in at most one place (a pool, a claim or one table), and the commitment
says the same (queue ⇔ waiting or being seated, seat ⇔ at that table or being seated at it).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from types import SimpleNamespace
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from app.game.rooms import RoomKey
from app.game.variants import VARIANT_INFO, VariantKey
from app.lobby.broker import LobbyBroker
from app.quickplay.commitments import queue_key
from app.quickplay.matcher import Matcher
from app.quickplay.matching import SpreadPolicy
from app.quickplay.service import QuickPlay
from app.quickplay.store import LocalQueueStore
from app.services.errors import Conflict, ErrorCode
from app.tables.registry import TableRegistry
from app.tournaments.lease import LocalLease

PLAYERS = 7
# Two pools of one room and one of another: crowded enough that tables form and claims clash.
POOLS = [(RoomKey.BEGINNER, VariantKey.TIANTAI), (RoomKey.INTERMEDIATE, VariantKey.TIANTAI), (RoomKey.BEGINNER, VariantKey.TAIWAN)]


class Commitments:
    """One commitment per player (kind, ref), as app.services.commitments keeps them; also the registry's
    seat claims (``SeatClaims``)."""

    def __init__(self) -> None:
        self.held: dict[int, tuple[str, str]] = {}
        self.leaves_during_seat: Any = None  # a coroutine function run as the next match's swap begins

    async def hold(self, user: Any, room: str, variant: str, rounds: int) -> None:
        want = ("queue", queue_key(room, variant, rounds))
        got = self.held.get(user.id)
        if got is not None and got != want:
            raise Conflict("committed elsewhere", ErrorCode.IN_QUEUE if got[0] == "queue" else ErrorCode.ALREADY_SEATED)
        self.held[user.id] = want

    async def release(self, user_id: int, room: str, variant: str, rounds: int) -> bool:
        if self.held.get(user_id) == ("queue", queue_key(room, variant, rounds)):
            del self.held[user_id]
            return True
        return False

    async def current(self, user_id: int) -> tuple[str, str] | None:
        return self.held.get(user_id)

    async def seat(self, table_id: str, room: str, variant: str, rounds: int, user_ids: list[int]) -> list[int]:
        if self.leaves_during_seat is not None:
            leave, self.leaves_during_seat = self.leaves_during_seat, None
            await leave(user_ids)
        missing = [u for u in user_ids if self.held.get(u) != ("queue", queue_key(room, variant, rounds))]
        if not missing:
            for u in user_ids:
                self.held[u] = ("seat", table_id)
        return missing

    async def unseat(self, table_id: str, room: str, variant: str, rounds: int, user_ids: list[int]) -> list[int]:
        requeued = [u for u in user_ids if self.held.get(u) == ("seat", table_id)]
        for u in requeued:
            self.held[u] = ("queue", queue_key(room, variant, rounds))
        return requeued

    # the registry's side
    async def claim(self, user_id: int, table_id: str) -> bool:
        return False

    async def release_seats(self, seats: list[tuple[int, str]]) -> None:
        for user_id, table_id in seats:
            if self.held.get(user_id) == ("seat", table_id):
                del self.held[user_id]


class SeatSide:
    def __init__(self, owner: Commitments) -> None:
        self.owner = owner

    async def claim(self, user_id: int, table_id: str) -> bool:
        return False

    async def release(self, seats: list[tuple[int, str]]) -> None:
        await self.owner.release_seats(seats)


class QuickPlayModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.commitments = Commitments()
        self.registry = TableRegistry()
        self.registry.commitments = SeatSide(self.commitments)
        self.store = LocalQueueStore()
        self.quickplay = QuickPlay(self.store, self.commitments, settle_seconds=0)
        state: Any = SimpleNamespace(registry=self.registry, broker=LobbyBroker())

        async def live(table_id: str) -> bool:
            return self.registry.is_open(table_id)

        self.matcher = Matcher(state, self.quickplay, lease=LocalLease(), policy=SpreadPolicy(15, 1.0),
                               wave_seconds=1.0, lease_seconds=2.0, table_live=live, table_durable=live,
                               rng=random.Random(0))
        self.dead = 0  # matchers that died mid-match so far (each claim has its own table id)
        self.users = [SimpleNamespace(id=i, username=f"u{i}", frozen=False, coins=10**6, rank_points=0)
                      for i in range(PLAYERS)]

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.loop.close()

    @rule(user=st.integers(0, PLAYERS - 1), pool=st.sampled_from(POOLS[:2]))
    def join_tiantai(self, user: int, pool: tuple[RoomKey, VariantKey]) -> None:
        self.join(user, pool)

    @rule(user=st.integers(0, PLAYERS - 1), pool=st.sampled_from(POOLS))
    def join(self, user: int, pool: tuple[RoomKey, VariantKey]) -> None:
        with contextlib.suppress(Conflict):  # committed elsewhere: refused, nothing changes
            self.run(self.quickplay.join(self.users[user], *pool))

    @rule(user=st.integers(0, PLAYERS - 1), room=st.sampled_from([RoomKey.BEGINNER, RoomKey.INTERMEDIATE]))
    def leave(self, user: int, room: RoomKey) -> None:
        self.run(self.quickplay.leave(user, room))

    @rule()
    def wave(self) -> None:
        self.run(self.matcher.wave())
        assert self.store.claimed == {}, "a wave leaves no claim behind"

    @rule(which=st.integers(0, 3))
    def wave_with_a_leave_as_the_match_begins(self, which: int) -> None:
        """A member leaves between the claim and the swap of commitments (another process's request)."""
        async def leave(user_ids: list[int]) -> None:
            user = user_ids[which % len(user_ids)]
            entry = await self.store.entry(user)
            await self.quickplay.leave(user, RoomKey(entry.room) if entry else RoomKey.BEGINNER)
            self.left.add(user)

        self.left: set[int] = set()
        self.commitments.leaves_during_seat = leave
        self.run(self.matcher.wave())
        self.commitments.leaves_during_seat = None
        assert self.store.claimed == {}, "a wave leaves no claim behind"
        for user in self.left:  # never seated after leaving
            assert self.registry.table_of(user) is None, user

    @rule(user=st.integers(0, PLAYERS - 1))
    def table_closes(self, user: int) -> None:
        table_id = self.registry.table_of(user)
        if table_id is not None:
            self.run(self.registry.remove(table_id))

    @rule(pool=st.sampled_from(POOLS[:2]))
    def a_matcher_dies_mid_match(self, pool: tuple[RoomKey, VariantKey]) -> None:
        """Claimed and swapped to seats, then the process is gone before the table exists; aged past recovery."""
        room, variant = pool
        members = self.run(self.store.members(room.value, variant.value, 1))[: VARIANT_INFO[variant].seats]
        self.dead += 1
        table_id = f"dead{self.dead}"
        if len(members) < VARIANT_INFO[variant].seats or not self.run(self.store.claim(table_id, members)):
            return
        self.run(self.commitments.seat(table_id, room.value, variant.value, 1, [e.user_id for e in members]))
        claim = self.store.claimed[table_id]
        self.store.claimed[table_id] = type(claim)(table_id, claim.at - 10, claim.entries)

    @invariant()
    def one_place_each_and_the_commitment_agrees(self) -> None:
        for user in range(PLAYERS):
            pools = [key for key, pool in self.store.pools.items() if user in pool]
            claim = self.store.claimed_users.get(user)
            seated = [t.id for t in self.registry.all_tables() if user in t.players]
            assert len(pools) + (claim is not None) + len(seated) <= 1, (user, pools, claim, seated)
            held = self.commitments.held.get(user)
            if pools:
                assert held == ("queue", queue_key(*pools[0])), (user, held, pools)
            elif seated:
                assert held == ("seat", seated[0]), (user, held, seated)
            elif claim is not None:
                assert held is None or held[0] == "queue" or held == ("seat", claim), (user, held, claim)
            else:
                assert held is None, (user, held)


QuickPlayModel.TestCase.settings = settings(max_examples=100, stateful_step_count=60, deadline=None)
test_quick_play_model = QuickPlayModel.TestCase
