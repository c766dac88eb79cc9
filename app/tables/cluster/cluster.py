"""Several server processes on one Postgres and one Redis: leased tables, relayed sockets, take-over.

``ClusterRuntime`` is the ``ProcessRuntime`` (``app.tables.hosting.runtime``) of every process.  With ``REDIS_URL`` set, a Postgres database
and ``Settings.cluster`` on (the default) it runs as one of N processes; otherwise it is the plain
single-process runtime (SQLite, no Redis: ``make run``).

* **Ownership** (``app.tables.cluster.lease``): a process starts or resumes a table's actor only under the table's
  lease, with the fencing token that every journal write of that actor carries.  It renews its leases
  every third of ``lease_seconds``; a lease it finds lost (it was paused, or Redis expired it) stops the
  actor here, and the database refuses any write it might still try (``journal.Fenced``).
* **Take-over**: every ``takeover_scan_seconds`` each process looks at the journal's live tables whose
  lease is free (the owner died or stopped) and takes them over: lease, a higher token, ``claim``, then
  ``HandState.replay`` as after a restart.  A socket arriving for a table nobody holds does the same at
  once.  So a dead owner's tables resume within ``lease_seconds + takeover_scan_seconds``.
* **Relay** (``app.tables.cluster.relay``): a socket for a table owned elsewhere is served here and relayed; the
  owner sees a ``RemoteLink`` in the seat and treats it like a local socket.  When the owner changes, the
  holder closes the socket with 1012 and the client reconnects to a snapshot.
* **Requests** (``call``): the table registry stays in the owner's memory; seating requests for a table
  owned elsewhere are forwarded to its owner (``app.tables.cluster.directory``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from redis.asyncio import Redis

from app import metrics
from app.core.outage import REDIS_ERRORS, Outage
from app.core.tasks import stop_tasks
from app.services.errors import ErrorCode, NotFound
from app.state import AppState
from app.tables.cluster.admin import apply_freeze, close_table, live_tables
from app.tables.cluster.directory import TableDirectory
from app.tables.cluster.lease import FreeLeases, Silence, TableLeases
from app.tables.cluster.processes import adopt_table, drain_key, hand_over_waiting_tables, process_card
from app.tables.cluster.relay import RELAY_GAP, HeldLink, Relay, RemoteLink
from app.tables.cluster.remote import RelayEnd, RelaySides
from app.tables.hosting.ends import NO_GAME_HERE, ActorEnd, Refusal, TableEnd
from app.tables.hosting.runtime import ProcessRuntime
from app.tables.play.actor import TableActor
from app.tables.play.commands import Leave, Stop, Unwatch
from app.tables.registry import TableStatus
from app.tables.settings import TableSettings

log = logging.getLogger(__name__)
MOVING = "moving"  # ``locate``: the table is between owners; the client should reconnect shortly
MOVING_NOW = Refusal(1013, "the table is moving between servers; reconnect")
NO_ANSWER_ROUNDS = 3  # renewal rounds a relayed socket waits for its owner's first message
RESYNC_TRIES = 3  # resyncs a relayed socket asks without an answer before it closes (1012)
# A holder's heartbeat can be missing for a moment while it lives (Redis restarted or cut): if it hears, its
# player reconnects (1012) instead of being told it left.
HOLDER_SILENT = "the server holding your connection did not answer; reconnect"
# A named process's id starts with its name and this (``node_of``): a table's owner, read from its lease,
# names the process the proxy should route the table's sockets to, with no lookup of its own.
NODE_SEPARATOR = "~"


def node_of(process_id: str) -> str | None:
    """The ``Settings.node_name`` of the process with this id, None when it has none."""
    name, separator, _ = process_id.partition(NODE_SEPARATOR)
    return name if separator and name else None


RENEWALS_PER_LEASE = 3  # an owner renews its leases (and beats) this many times per LEASE_SECONDS
TAKEOVER_GRACE_ROUNDS = 2  # renewal rounds a free lease is left to its owner before a take-over


def takeover_grace(lease_seconds: float) -> float:
    """How long a free lease is left to its owner before a take-over: ``TAKEOVER_GRACE_ROUNDS`` renewal
    rounds, so a live owner whose lease Redis lost re-asserts it first, whatever the rounds' jitter."""
    return TAKEOVER_GRACE_ROUNDS * lease_seconds / RENEWALS_PER_LEASE


def cluster_wanted(state: AppState) -> bool:
    s = state.settings
    return bool(s.cluster and s.redis_url and not s.is_sqlite)


class ClusterRuntime(RelaySides, ProcessRuntime):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.redis: Any = None
        self.leases: TableLeases | None = None
        self.relay: Relay | None = None
        self.remote: dict[str, tuple[RemoteLink, TableActor, int]] = {}  # owner side: link id -> seat
        self.watching: dict[str, tuple[RemoteLink, TableActor]] = {}  # owner side: relayed spectators
        self.held: dict[str, HeldLink] = {}  # holder side: link id -> the socket's outbox
        self.requests: dict[str, dict[str, Any]] = {}  # holder side: link id -> its join / watch (a resync)
        self.free = FreeLeases(grace=0.0, patience=0.0)  # set from the lease time in ``run``
        self.silent_owners, self.silent_holders = Silence(), Silence()
        self.handlers: dict[str, Callable[[dict[str, Any]], Awaitable[Any]]] = {}
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._loops: list[asyncio.Task[None]] = []
        self._taking: set[str] = set()
        self.lease_seconds = 4.0
        self.scan_seconds = 2.0
        self.taken_over = 0  # tables this process took over from another (or a dead) owner
        self.prefix = "mahjong"
        self.directory: TableDirectory | None = None

    @property
    def active(self) -> bool:
        return self.relay is not None

    @contextlib.asynccontextmanager
    async def run(self, state: AppState) -> AsyncIterator[None]:
        if not cluster_wanted(state) or not self.settings.durable:
            async with super().run(state):
                yield
            return
        self.state = state
        if state.settings.node_name:
            self.process_id = f"{state.settings.node_name}{NODE_SEPARATOR}{self.process_id}"
        self.lease_seconds, self.scan_seconds = state.settings.lease_seconds, state.settings.takeover_scan_seconds
        self.prefix = state.settings.redis_prefix
        grace = takeover_grace(self.lease_seconds)
        self.free = FreeLeases(grace=grace, patience=self.lease_seconds + grace)
        self.redis = Redis.from_url(str(state.settings.redis_url))
        self.leases = TableLeases(self.redis, self.process_id, self.lease_seconds, prefix=self.prefix)
        self.relay = Relay(self.redis, self.process_id, self._on_record, prefix=self.prefix)
        self.relay.on_broken = self._relay_broken
        self.directory = TableDirectory(self)
        self.handlers.update(sit=self._sit_here, stand=self._stand_here, live_tables=self._live_here,
                             close_table=self._close_here, freeze=self._freeze_here, adopt_table=self._adopt_here)
        await self.leases.beat(process_card(self))
        await self.relay.start()
        state.registry.directory = self.directory
        log.info("cluster: process %s (lease %.1f s, scan %.1f s)", self.process_id, self.lease_seconds,
                 self.scan_seconds)
        try:
            async with super().run(state):  # resume_all: takes over the tables nobody holds
                self._loops = [asyncio.create_task(self._keep(), name="cluster-leases"),
                               asyncio.create_task(self._scan_loop(), name="cluster-takeover")]
                try:
                    yield
                finally:
                    await self._stop_loops()
        finally:
            state.registry.directory = None
            with contextlib.suppress(Exception):
                await self.directory.forget_all()
                await self._release_all()
                await self.leases.leave()
            await self.relay.stop()
            await self.redis.aclose()
            self.relay = None

    async def _stop_loops(self) -> None:
        await stop_tasks(*self._loops)
        self._loops = []

    # -- ownership ---------------------------------------------------------------------------------------

    async def start_table(self, info: Any) -> None:
        if not self.active:
            await super().start_table(info)
            return
        assert self.leases is not None
        token = await self.leases.acquire(info.id)
        if token is None:  # a fresh random id: only a clash or a stale key; refuse rather than share
            raise RuntimeError(f"table {info.id}: its lease is held elsewhere")
        old = self.actors.get(info.id)
        if old is not None:
            old.post(Stop())
        actor = TableActor(info, self._services(), fence=token)
        self.actors[info.id] = actor
        actor.start()

    async def resume_all(self) -> int:
        if not self.active:
            return await super().resume_all()
        return await self.scan(at_start=True)

    async def resume_table(self, table_id: str, fence: int | None = None) -> bool:
        if not self.active or fence is not None:
            return await super().resume_table(table_id, fence)
        return await self.take_over(table_id)

    async def take_over(self, table_id: str) -> bool:
        """Lease, a token above the journal's, then resume the table from the journal here."""
        assert self.leases is not None and self.journal is not None
        if table_id in self._taking or self.draining or self.retiring:
            return False
        actor = self.actors.get(table_id)
        if actor is not None and not actor.closed:
            return True
        self._taking.add(table_id)
        try:
            token = await self.leases.acquire(table_id)
            if token is None:
                return False
            try:
                game = await self.journal.load(table_id)
                if game is None:
                    await self.leases.release(table_id)
                    return False
                if token <= game.fence:  # Redis lost its counter; the database's token rules
                    token = await self.leases.raise_token(table_id, game.fence + 1)
                ok = await super().resume_table(table_id, token)
            except Exception:
                log.exception("table %s: take-over failed", table_id)
                ok = False
            if not ok:
                await self.leases.release(table_id)
                return False
            self.taken_over += 1
            metrics.TAKEOVERS.inc()
            await self._announce(table_id)
            return True
        finally:
            self._taking.discard(table_id)

    async def _announce(self, table_id: str) -> None:
        """The table lives here now: the lobby (and the directory) hear of it with a newer version."""
        assert self.state is not None and self.directory is not None
        registry = self.state.registry
        try:
            # Lobby clients drop events older than the last version they saw: go on from the former owner's.
            registry.set_version(table_id, await self.directory.last_version(table_id))
            await registry.set_status(table_id, registry.get(table_id).status)
        except Exception:
            log.warning("table %s: the lobby did not hear of the take-over", table_id, exc_info=True)

    async def scan(self, *, at_start: bool = False) -> int:
        """Take over every live table whose lease is free, and has been free for the take-over grace (at
        start, at once, unless the process last named as its owner still beats).  Returns how many."""
        assert self.leases is not None and self.journal is not None
        if self.draining or self.retiring:  # a retiring process takes no table on; the others take its own
            return 0
        ids = await self.journal.live_ids()
        random.shuffle(ids)  # processes scanning together spread a dead owner's tables between them
        owners = await self.leases.owners(ids)
        self.free.held(t for t, owner in zip(ids, owners, strict=True) if owner is not None)
        free = [t for t, owner in zip(ids, owners, strict=True) if owner is None and t not in self.actors]
        self.free.held(set(self.free.since) - set(free))  # ended games, sockets' looks at tables with none
        taken = 0
        for table_id, owner_alive in zip(free, await self._named_owner_alive(free), strict=True):
            if at_start and not owner_alive or self.free.ripe(table_id, time.monotonic(), owner_alive=owner_alive):
                taken += await self.take_over(table_id)
        if taken:
            log.info("cluster: took over %d tables", taken)
        return taken

    async def _named_owner_alive(self, table_ids: list[str]) -> list[bool]:
        """For each table, whether the process the directory last named as its owner (not this one) still
        beats: a lease it lost in a Redis blip is about to be re-asserted, not a dead owner's."""
        if not table_ids or self.directory is None or self.leases is None:
            return [False] * len(table_ids)
        named = await self.directory.owners(table_ids)
        alive = await self.leases.alive(p for p in named if p is not None and p != self.process_id)
        return [p is not None and p in alive for p in named]

    async def _scan_loop(self) -> None:
        outage = Outage(log, "cluster: the take-over scan (Redis)")
        while True:
            await asyncio.sleep(self.scan_seconds * random.uniform(0.75, 1.25))
            try:
                await self.scan()
            except REDIS_ERRORS as exc:  # Redis away: one warning, not one per scan (app.core.outage)
                outage.failed(exc)
            except Exception:
                log.exception("cluster: take-over scan failed")
            else:
                outage.ok()

    async def _keep(self) -> None:
        """Every third of a lease: heartbeat, renew our leases, drop what we lost, watch relayed sockets.
        Redis away: the tables play on here; one warning when renewal starts failing, one when it recovers;
        ``mahjong_redis_unreachable`` says which."""
        outage = Outage(log, "cluster: lease renewal (Redis)", "this process keeps its tables and plays on")
        loop = asyncio.get_running_loop()
        due = loop.time()
        while True:  # a round every third of a lease, however long the last one took (a slow Redis)
            due = max(due + self.lease_seconds / RENEWALS_PER_LEASE, loop.time())
            await asyncio.sleep(due - loop.time())
            try:
                await self.keep_once()
            except REDIS_ERRORS as exc:
                outage.failed(exc)
                metrics.REDIS_UNREACHABLE.set(1)
                if self.directory is not None:  # it may come back empty: look in the database meanwhile
                    self.directory.unsettle(self.lease_seconds / RENEWALS_PER_LEASE + takeover_grace(self.lease_seconds))
            except Exception:
                log.exception("cluster: lease renewal failed")
            else:
                outage.ok()
                metrics.REDIS_UNREACHABLE.set(0)

    async def keep_once(self) -> None:
        assert self.leases is not None
        # A closing table's lease too: until its game's end is in the journal, no other process may resume it.
        ids = [t for t, a in self.actors.items() if not a.closed or a.lingering] + list(self.closing)
        gone, lost = await self.leases.keep(ids, card=process_card(self))
        if not self.retiring and await self.redis.get(drain_key(self.prefix, self.process_id)) is not None:
            log.warning("cluster: an operator drains this process: no new tables; its games finish here")
            await self.retire()
        elif self.retiring:
            await self.hand_over_waiting_tables()
        if gone and self.directory is not None:  # our heartbeat had gone: Redis restarted empty (or we were silent)
            self.directory.unsettle(takeover_grace(self.lease_seconds))  # the other owners write theirs back too
        if gone or (self.directory is not None and self.directory.stale):
            await self._rewrite_directory()
        if self.state is not None:  # tickets issued here while Redis was away
            await self.state.tickets.rebuild()
        for table_id in lost:
            actor = self.actors.get(table_id)
            if actor is not None:
                log.warning("table %s: lease lost; this process stops acting for it", table_id)
                actor.services.on_lost = None
                actor.post(Stop())
        await self._watch_held()
        await self._watch_holders()

    async def _rewrite_directory(self) -> None:
        """Redis lost what this process keeps there: its tables go back into the directory."""
        if self.state is None or self.directory is None:
            return
        tables = self.state.registry.all_tables()
        await self.directory.rewrite(tables)
        if tables:
            log.warning("cluster: wrote this process's %d tables back into the directory (Redis had lost them)",
                        len(tables))

    async def _watch_held(self) -> None:
        """Holder side: a relayed socket whose table moved to another owner (or whose owner is silent two
        rounds running) reconnects; one that may have lost frames resyncs (a fresh snapshot, still open)."""
        assert self.leases is not None
        links = list(self.held.values())
        if not links:
            return
        tables = sorted({link.table_id for link in links})
        owner_of = dict(zip(tables, await self.leases.owners(tables), strict=True))
        owners = {link.owner for link in links}
        dead = self.silent_owners.dead(owners, await self.leases.alive(owners))
        for link in links:
            now_owner = owner_of[link.table_id]  # None: Redis lost the lease; its owner re-asserts it
            if (now_owner is not None and now_owner != link.owner) or link.owner in dead:
                link.close(RELAY_GAP, "the table moved to another server; reconnect")
            elif link.stale or not link.answered and link.waited + 1 >= NO_ANSWER_ROUNDS:
                if link.resyncs >= RESYNC_TRIES:
                    link.close(RELAY_GAP, "the table's server does not answer; reconnect")
                else:
                    self.resync(link)
            elif not link.answered:
                link.waited += 1

    async def _watch_holders(self) -> None:
        """Owner side: seats whose socket was held by a process silent two rounds running (it died) are left
        (auto-played); the holder, should it live after all, is told to have its player reconnect."""
        assert self.leases is not None
        if not self.remote and not self.watching:
            return
        holders = {rlink.holder for rlink, _actor, _seat in self.remote.values()}
        holders |= {rlink.holder for rlink, _actor in self.watching.values()}
        dead = self.silent_holders.dead(holders, await self.leases.alive(holders))
        for link_id, (rlink, actor, seat) in list(self.remote.items()):
            if rlink.holder in dead:
                self.remote.pop(link_id, None)
                rlink.close(RELAY_GAP, HOLDER_SILENT)  # not the Leave's 1000 "left": clients take it as final
                actor.post(Leave(seat, rlink))
        for link_id, (rlink, actor) in list(self.watching.items()):
            if rlink.holder in dead:
                self.watching.pop(link_id, None)
                rlink.close(RELAY_GAP, HOLDER_SILENT)
                actor.post(Unwatch(rlink))

    def _exited(self, actor: TableActor) -> None:
        super()._exited(actor)
        if not self.active or self.actors.get(actor.id) is not None:
            return
        if self.state is not None and self.state.registry.is_open(actor.id) and not self.draining:
            self.state.registry.forget(actor.id)  # it plays on elsewhere: not removed from the lobby
        if self.leases is not None:
            task = asyncio.get_running_loop().create_task(self._release(actor.id))
            self._reloads.add(task)
            task.add_done_callback(self._reloads.discard)

    async def _release(self, table_id: str) -> None:
        assert self.leases is not None
        try:
            await self.leases.release(table_id)
        except Exception:
            log.warning("table %s: releasing its lease failed; it expires by itself", table_id)

    async def _release_all(self) -> None:
        for table_id in list(self.actors):
            await self._release(table_id)

    async def drain(self, pause_seconds: float, timeout: float) -> None:
        if self.active and self.state is not None:  # waiting tables are not journalled: they close here
            registry = self.state.registry
            for table in registry.all_tables():
                if table.status != TableStatus.PLAYING:
                    with contextlib.suppress(Exception):
                        await registry.remove(table.id)
        await super().drain(pause_seconds, timeout)
        if self.active:  # the other processes take the tables over at their next scan
            await self._release_all()

    # -- an operator's drain (app.tables.cluster.processes) ---------------------------------------------------

    async def retire(self) -> None:
        await super().retire()
        if self.active:
            await self.hand_over_waiting_tables()

    async def hand_over_waiting_tables(self) -> int:
        return await hand_over_waiting_tables(self)

    async def _adopt_here(self, a: dict[str, Any]) -> None:
        assert self.state is not None
        await adopt_table(self.state.registry, a["table"])

    # -- seating forwarded by another process (app.tables.cluster.directory) ----------------------------------------

    def _here(self, table_id: str) -> Any:
        assert self.state is not None
        if not self.state.registry.is_open(table_id):
            raise NotFound("no such table", ErrorCode.TABLE_NOT_FOUND, table_id=table_id)
        return self.state.registry

    async def _sit_here(self, a: dict[str, Any]) -> dict[str, Any]:
        table = await self._here(a["table_id"]).sit_here(a["table_id"], user_id=int(a["user_id"]),
                                                         username=str(a["username"]), seat=a.get("seat"))
        return table.public()  # type: ignore[no-any-return]

    async def _live_here(self, _a: dict[str, Any]) -> list[dict[str, Any]]:
        assert self.state is not None
        return live_tables(self.state.registry, self)

    async def _close_here(self, a: dict[str, Any]) -> dict[str, Any]:
        return await close_table(self._here(a["table_id"]), a["table_id"], force=bool(a["force"]), runtime=self,
                                 here=True)

    async def _freeze_here(self, a: dict[str, Any]) -> str | None:
        assert self.state is not None
        return await apply_freeze(self.state.registry, self, int(a["user_id"]), here=True)

    async def _stand_here(self, a: dict[str, Any]) -> dict[str, Any] | None:
        table = await self._here(a["table_id"]).stand(a["table_id"], user_id=int(a["user_id"]))
        return table.public() if table is not None else None

    # -- where a table is ----------------------------------------------------------------------------------

    async def owner_node(self, table_id: str) -> str | None:
        """The name of the process that owns the table (its lease, or for a table still waiting for players
        its directory entry), so the proxy can route the table's sockets there.  None when it is not known
        (no owner yet, an unnamed process, Redis away): the socket then goes anywhere and is relayed."""
        if not self.active:
            return await super().owner_node(table_id)
        if self.serving(table_id) is not None:
            return node_of(self.process_id)
        assert self.leases is not None and self.directory is not None
        try:
            owner = await self.leases.owner(table_id)
            if owner is None:
                entry = await self.directory.entry(table_id)
                owner = entry["owner"] if entry is not None else None
        except Exception as exc:  # routing is an optimisation: the ticket is still good without it
            log.warning("table %s: its owner is not known (%s: %s); the socket may be relayed", table_id,
                        type(exc).__name__, exc)
            return None
        return node_of(owner) if owner is not None else None

    async def connect(self, table_id: str) -> TableEnd | Refusal:
        """A socket's way to the table: its actor here (taken over if nobody holds it), the relay to the
        process that owns it, or a refusal (1013 while it moves between owners, 4004 when no game runs)."""
        found = await self.locate(table_id)
        if found == MOVING:
            return MOVING_NOW
        if isinstance(found, str):
            return RelayEnd(self, table_id, found)
        if found is None:
            return NO_GAME_HERE
        return ActorEnd(found, self.settings.outbox_size)

    async def locate(self, table_id: str) -> TableActor | str | None:
        """The table's actor if it plays here (taking it over if nobody holds it), else its owner's process
        id; None when no game runs at that table; ``MOVING`` while it is between owners for too long."""
        for _ in range(30):
            actor = self.serving(table_id)
            if actor is not None:
                return actor
            if not self.active:
                return None
            assert self.leases is not None and self.journal is not None
            owner = await self.leases.owner(table_id)
            if owner is not None and owner != self.process_id:
                return owner
            if owner is not None:
                self.free.held([table_id])
            elif table_id not in self._taking:
                if table_id not in await self.journal.live_ids():
                    self.free.held([table_id])
                    return None  # no game there (a free lease of a table that is not live)
                alive = (await self._named_owner_alive([table_id]))[0]
                if self.free.ripe(table_id, time.monotonic(), owner_alive=alive) and await self.take_over(table_id):
                    continue
            await asyncio.sleep(0.1)  # being taken over (here or elsewhere), or left to its owner: look again
        return MOVING


def default_table_runtime() -> ProcessRuntime:
    """The runtime of ``python -m app``: one of several processes when Redis and Postgres are configured
    (this module), else the plain single-process runtime."""
    return ClusterRuntime(TableSettings())
