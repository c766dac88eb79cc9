"""Every process's tables, seen from any process: listings, lookups and seating across processes.

Each process's ``TableRegistry`` holds the tables it owns (a waiting table lives where it was opened, a
playing one where its lease is).  With several processes a request may land on any of them, so:

* after every change the owner writes the table to the Redis hash ``{prefix}:tables`` (its process id,
  its opening order and ``TableInfo.public()``) and removes it when the table closes;
* listings (``GET /api/rooms/{room}/tables``, the lobby socket's snapshot) read that hash and keep the
  tables whose owner is alive (heartbeat, ``app.tables.cluster.lease``): a dead owner's playing tables come back
  when a survivor takes them over (it rewrites the entry), its waiting tables are gone with it;
* ``sit`` / ``stand`` on a table owned elsewhere are forwarded to the owner (``ClusterRuntime.call``), which
  runs them on its registry; its refusals come back as the same typed errors;
* one table per account: a process also looks in the hash before it seats someone, holding the account's
  seating lock (``seating``) from that look until the hash shows the new seat, so two requests of one
  account on two processes cannot both find it free.

Lobby *events* still fan out through the lobby channel (``app.lobby.broker``), published by the owner.

Through a Redis blip (issue 34): a write that fails marks the directory ``stale`` and its owner writes every
table again at its next renewal round (also when its heartbeat had gone: Redis restarted empty); while Redis
is away, or has just come back and the owners are still writing theirs back (``unsettle``), a player's table
(``table_of``) and a table (``get``) are read from the journal in the database, so ``GET /api/me`` still
names the table a player plays at.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable
from typing import Any, Protocol

from app.bots import DEFAULT_BOT_LEVEL
from app.core.outage import REDIS_ERRORS, Outage
from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.services import errors
from app.services.errors import Conflict, ErrorCode, NotFound, Unavailable
from app.state import AppState
from app.tables.cluster.lease import TableLeases
from app.tables.durability.journal import TableJournal
from app.tables.registry import TableInfo, TableStatus

log = logging.getLogger(__name__)

# The seating lock: held for one create or sit (a forwarded sit waits at most remote.call's 5 s), expiring
# by itself if its holder dies; a second request of the account waits for it this long, then gets a 409.
SEATING_LOCK_SECONDS = 15.0
SEATING_WAIT_SECONDS = 6.0
# Delete the lock only if it is still ours (it may have expired and been taken by another request).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def info_of(public: dict[str, Any]) -> TableInfo:
    """A ``TableInfo`` back from ``public()`` (what the directory and forwarded replies carry)."""
    seats = public["seats"]
    return TableInfo(
        id=public["id"], room=RoomKey(public["room"]) if public["room"] else None,
        variant=VariantKey(public["variant"]), options=dict(public["options"]),
        seats=[s["user_id"] for s in seats], bots=[s["seat"] for s in seats if s["bot"]],
        status=TableStatus(public["status"]), practice=public["practice"],
        bot_level=public.get("bot_level") or DEFAULT_BOT_LEVEL, suggest_discard=public["suggest_discard"],
        bot_speed=public.get("bot_speed") or "normal", seat_names=[s["username"] for s in seats],
        version=public["version"])


def raise_payload(error: dict[str, Any]) -> None:
    """Raise, in this process, the typed error the owner's registry raised (``remote.error_payload``)."""
    cls = getattr(errors, str(error.get("kind")), None)
    code = error.get("code")
    if isinstance(cls, type) and issubclass(cls, errors.ServiceError):
        raise cls(error["message"], ErrorCode.parse(str(code)) if code else None, **(error.get("params") or {}))
    raise Unavailable("the table's server did not answer; try again")


class DirectoryHost(Protocol):
    """What the directory needs of its process (``ClusterRuntime``): Redis, the leases, and a call to another
    process."""

    redis: Any
    prefix: str
    process_id: str
    state: AppState | None
    leases: TableLeases | None
    journal: TableJournal | None

    async def call(self, process_id: str, op: str, timeout: float = 5.0, **args: Any) -> dict[str, Any]: ...


class TableDirectory:
    def __init__(self, runtime: DirectoryHost) -> None:
        self.runtime = runtime
        self.redis = runtime.redis
        self.key = f"{runtime.prefix}:tables"
        self._order: dict[str, float] = {}
        self.unsettled_until = 0.0
        self._self_missing = False
        self._unremoved: set[str] = set()  # tables whose entry could not be removed yet
        self.stale = False  # a write failed: the owner writes its tables again once Redis answers
        self._writes = Outage(log, "the tables' directory: writing (Redis)", "written again when it is back")
        self._away = Outage(log, "table lookups: the directory (Redis)", "playing tables are read from the database")

    # -- the owner's side ----------------------------------------------------------------------------

    async def changed(self, table: TableInfo, kind: str) -> None:
        """Registry observer: write (or remove) the table's entry."""
        if kind == "table_removed":
            self._order.pop(table.id, None)
            self._unremoved.add(table.id)
            await self._written(table.id, self.redis.hdel(self.key, table.id))
            return
        order = self._order.setdefault(table.id, time.time())
        entry = {"owner": self.runtime.process_id, "order": order, "table": table.public()}
        await self._written(table.id, self.redis.hset(self.key, table.id, json.dumps(entry, ensure_ascii=False)))

    async def _written(self, table_id: str, write: Awaitable[Any]) -> None:
        try:
            await write
        except REDIS_ERRORS as exc:  # Redis away: one line for the outage; every table is written again after
            self.stale = True
            self._writes.failed(exc)
        except Exception:
            log.warning("table %s: the directory was not updated", table_id, exc_info=True)
        else:
            self._writes.ok()
            if table_id not in self._order:
                self._unremoved.discard(table_id)

    async def rewrite(self, tables: list[TableInfo]) -> None:
        """Write every table of this process again, and remove those whose removal failed: after Redis lost
        the directory (a restart) or missed changes (an outage)."""
        self.stale = False
        for table_id in list(self._unremoved):
            await self._written(table_id, self.redis.hdel(self.key, table_id))
        for table in tables:
            await self.changed(table, "table_updated")

    async def forget_all(self) -> None:
        """This process stops: its waiting tables go with it (its playing ones are taken over)."""
        if self.runtime.state is None:
            return
        for table in self.runtime.state.registry.all_tables():
            if table.status != TableStatus.PLAYING:
                with contextlib.suppress(Exception):
                    await self.redis.hdel(self.key, table.id)

    # -- any process -------------------------------------------------------------------------------------

    async def entries(self) -> list[dict[str, Any]]:
        """Every table whose owner is alive, oldest first."""
        assert self.runtime.leases is not None
        raw = await self.redis.hgetall(self.key)
        found = [json.loads(v) for v in raw.values()]
        alive = await self.runtime.leases.alive([*(e["owner"] for e in found), self.runtime.process_id])
        self._self_missing = self.runtime.process_id not in alive  # gone: Redis has just lost everything
        return sorted((e for e in found if e["owner"] in alive), key=lambda e: e["order"])

    def unsettle(self, seconds: float) -> None:
        """Redis lost (or missed) entries: for ``seconds`` more (and until the next read finds this process's
        heartbeat) a table not found here is looked for in the database too, while the owners write theirs
        back (``ClusterRuntime.keep_once``)."""
        self.unsettled_until = max(self.unsettled_until, time.monotonic() + seconds)

    @property
    def settled(self) -> bool:
        return not self._self_missing and time.monotonic() >= self.unsettled_until

    async def entry(self, table_id: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(self.key, table_id)
        if raw is None:
            return None
        found = json.loads(raw)
        assert self.runtime.leases is not None
        return found if found["owner"] in await self.runtime.leases.alive([found["owner"]]) else None

    async def last_version(self, table_id: str) -> int:
        """The version the table's last owner published (0 if none), alive or not."""
        raw = await self.redis.hget(self.key, table_id)
        return int(json.loads(raw)["table"]["version"]) if raw else 0

    async def tables(self) -> list[TableInfo]:
        return [info_of(e["table"]) for e in await self.entries()]

    @contextlib.asynccontextmanager
    async def seating(self, user_id: int) -> AsyncIterator[None]:
        """The account's seating lock (入座鎖) across processes, held while one request checks that the account
        sits nowhere and seats it (Redis ``SET NX`` with an expiry)."""
        key, token = f"{self.runtime.prefix}:seating:{user_id}", secrets.token_hex(8)
        deadline = time.monotonic() + SEATING_WAIT_SECONDS
        try:
            while not await self.redis.set(key, token, nx=True, px=int(SEATING_LOCK_SECONDS * 1000)):
                if time.monotonic() > deadline:
                    raise Conflict("another request is seating this account; try again", ErrorCode.CONFLICT)
                await asyncio.sleep(0.02)
        except REDIS_ERRORS as exc:  # Redis away: a coded 503 that seats nobody, not a 500 (issue 24)
            raise Unavailable("the tables' directory cannot be reached; try again", ErrorCode.SEATING_UNAVAILABLE) from exc
        try:
            yield
        finally:
            with contextlib.suppress(Exception):  # it expires anyway
                await self.redis.eval(_RELEASE, 1, key, token)

    async def table_of(self, user_id: int) -> tuple[str, int] | None:
        """(table id, seat) of the account's table on any process; while Redis is away, its playing table
        from the database (a waiting table elsewhere is not known then)."""
        try:
            found = await self.entries()
        except REDIS_ERRORS as exc:
            self._away.failed(exc)
            return await self.runtime.journal.seated(user_id) if self.runtime.journal is not None else None
        self._away.ok()
        for e in found:
            for s in e["table"]["seats"]:
                if s["user_id"] == user_id and not s["bot"]:
                    return str(e["table"]["id"]), int(s["seat"])
        if not self.settled and self.runtime.journal is not None:  # its owner may not have written it back yet
            return await self.runtime.journal.seated(user_id)
        return None

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        """The process each table's entry last named as its owner (alive or not); None without an entry."""
        if not table_ids:
            return []
        raw = await self.redis.hmget(self.key, table_ids)
        return [json.loads(r)["owner"] if r else None for r in raw]

    async def get(self, table_id: str) -> TableInfo:
        """The table, wherever it plays; while Redis is away, a playing table from the database."""
        try:
            found = await self.entry(table_id)
        except REDIS_ERRORS as exc:
            self._away.failed(exc)
            game = await self.runtime.journal.load(table_id) if self.runtime.journal is not None else None
            if game is None:
                raise NotFound("no such table", ErrorCode.TABLE_NOT_FOUND, table_id=table_id) from None
            return game.info
        self._away.ok()
        if found is None and not self.settled and self.runtime.journal is not None:
            game = await self.runtime.journal.load(table_id)
            if game is not None:
                return game.info
        if found is None:
            raise NotFound("no such table", ErrorCode.TABLE_NOT_FOUND, table_id=table_id)
        return info_of(found["table"])

    async def forward(self, table_id: str, op: str, **args: Any) -> TableInfo | None:
        """Run ``op`` (sit / stand) on the table's owner; its answer, or its typed error raised here."""
        found = await self.entry(table_id)
        if found is None:
            raise NotFound("no such table", ErrorCode.TABLE_NOT_FOUND, table_id=table_id)
        try:
            reply = await self.runtime.call(found["owner"], op, table_id=table_id, **args)
        except TimeoutError:
            raise Unavailable("the table's server did not answer; try again") from None
        if not reply.get("ok"):
            raise_payload(reply.get("error") or {})
        result = reply.get("result")
        return info_of(result) if result else None
