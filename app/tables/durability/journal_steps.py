"""The journal's writes as steps, and how a batch of them runs in one transaction (``app.tables.durability.journal``).

A step is one write of one table (a new game, a new hand, appended actions, a closed hand, an ended game),
guarded by the table's fencing token.  The group commit runs many tables' steps together: each batched kind
in a few statements for the whole batch (``run_batch``), or, for the steady traffic of new hands, appends and
closed hands on Postgres, in one statement (``row_writes`` and ``app.tables.durability.journal_statement``).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from sqlalchemy import Table, and_, bindparam, delete, insert, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import TextClause

from app.models import LiveTable, TableAction
from app.tables.durability.journal_statement import SQL_TYPES, RowWrite, padded_size
from app.tables.fairness import WallSeed
from engine.match import Match

#: the journal's two tables (their ORM classes type ``__table__`` as a plain ``FromClause``)
LIVE_TABLES = cast(Table, LiveTable.__table__)
TABLE_ACTIONS = cast(Table, TableAction.__table__)
_T, _A = LIVE_TABLES, TABLE_ACTIONS


class Fenced(Exception):
    """The table row carries a newer fencing token: another process owns the table now."""


@dataclass
class MatchState:
    """What survives between hands: the match (dealer, 連莊 streak, 圈) and the table's running totals."""

    dealer: int
    dealer_streak: int
    round_wind: int
    hands_played: int
    voided: int
    points: list[int]
    coins: list[int]
    # The game's first commitment, which drew the first dealer (docs/rules/common.md#first-dealer); None until
    # the first hand closes: a resumed first hand draws from its own wall's commitment
    first_commitment: str | None = None

    @classmethod
    def of(cls, match: Match, *, voided: int, points: Sequence[int], coins: Sequence[int],
           first_commitment: str | None = None) -> MatchState:
        return cls(match.dealer, match.dealer_streak, match.round_wind, match.hands_played, voided,
                   list(points), list(coins), first_commitment)

    def columns(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "dealer_streak": self.dealer_streak, "round_wind": self.round_wind,
                "hands_played": self.hands_played, "voided": self.voided, "points": self.points,
                "coins": self.coins, "first_commitment": self.first_commitment}


# One write of the journal: statements run inside the batch's transaction.  A step that finds its guard no
# longer holds raises ``Fenced`` before it changes anything.
Step = Callable[[AsyncConnection], Awaitable[None]]


class _Batched:
    """A step that a batch writes together with the same step of every other table (a few statements for
    the whole batch instead of a few per table); alone it is a batch of one."""

    async def __call__(self, conn: AsyncConnection) -> None:
        fenced: dict[int, Fenced] = {}
        await run_batch(conn, [[self]], fenced)
        if fenced:
            raise fenced[0]


@dataclass(frozen=True)
class OpenGameStep(_Batched):
    """A new game at the table: a fresh row (replacing any earlier game's and its log) with no hand yet."""

    row: dict[str, Any]


@dataclass(frozen=True)
class HandStartStep(_Batched):
    """A new hand's wall (seed, salt, commitment); its log starts empty.  Guarded by the fence."""

    table_id: str
    fence: int
    hand_no: int
    wall: WallSeed
    v: int


@dataclass(frozen=True)
class AppendStep(_Batched):
    """Actions for a table's log, guarded by the fence, the hand and the log's length."""

    table_id: str
    fence: int
    game_id: str
    hand_no: int
    start: int
    actions: list[dict[str, Any]]
    v: int

    def rows(self) -> list[dict[str, Any]]:
        return [{"table_id": self.table_id, "game_id": self.game_id, "hand_no": self.hand_no, "seq": self.start + i,
                 "action": a} for i, a in enumerate(self.actions)]


@dataclass(frozen=True)
class HandCloseStep(_Batched):
    """The hand is settled (or voided): the match moves on and its log is no longer needed.  Fenced."""

    table_id: str
    fence: int
    game_id: str
    hand_no: int
    match: MatchState
    v: int
    result: dict[str, Any] | None = None  # the hand_result message (None: voided)

    def columns(self) -> dict[str, Any]:
        """What the row becomes: the match moved on, the hand closed with its result."""
        return {"hand_closed": True, "v": self.v, "last_result": self.result, **self.match.columns()}


_KINDS = (OpenGameStep, HandStartStep, AppendStep, HandCloseStep)  # batched, in this order; other steps after
_S = TypeVar("_S", OpenGameStep, HandStartStep, AppendStep, HandCloseStep)


async def run_batch(conn: AsyncConnection, units: list[list[Step]], fenced: dict[int, Fenced]) -> None:
    """Run the units' steps in one transaction: every unit's new game, then every new hand, then every append
    (each kind in a few statements for the whole batch), then the units' other steps one by one (closed
    hands and games).  A unit whose guard fails is put in ``fenced`` and goes no further (the caller rolls
    the batch back if any did)."""
    if opened := _steps_of(units, fenced, OpenGameStep):
        await _open_games(conn, [step.row for step in opened.values()])
    if starts := _steps_of(units, fenced, HandStartStep):
        ok = await _update_rows(conn, ("fence",), (
            {"id": h.table_id, "fence": h.fence, "hand_no": h.hand_no, "seed": h.wall.seed, "salt": h.wall.salt,
             "commitment": h.wall.commitment, "log_len": 0, "v": h.v} for h in starts.values()))
        _fence_refused(fenced, starts, ok)
    if appends := _steps_of(units, fenced, AppendStep):
        ok = await _update_rows(conn, ("fence", "hand_no", "start"), (
            {"id": a.table_id, "fence": a.fence, "hand_no": a.hand_no, "start": a.start,
             "log_len": a.start + len(a.actions), "v": a.v} for a in appends.values()))
        _fence_refused(fenced, appends, ok)
        rows = [row for i, a in appends.items() if i not in fenced for row in a.rows()]
        if rows:
            await conn.execute(insert(_A), rows)
    if closes := _steps_of(units, fenced, HandCloseStep):
        for i in await _close_hands(conn, closes):
            fenced[i] = Fenced(f"table {closes[i].table_id}: fence {closes[i].fence} is no longer current")
    for i, steps in enumerate(units):
        if i in fenced:
            continue
        try:
            for step in steps:
                if not isinstance(step, _KINDS):
                    await step(conn)
        except Fenced as exc:
            fenced[i] = exc


def _steps_of(units: list[list[Step]], fenced: dict[int, Fenced], kind: type[_S]) -> dict[int, _S]:
    """The batch's steps of one kind, by unit, leaving out the units already fenced."""
    return {i: step for i, steps in enumerate(units) if i not in fenced for step in steps if isinstance(step, kind)}


def _fence_refused(fenced: dict[int, Fenced], batch: Mapping[int, HandStartStep | AppendStep],
                   moved: list[bool]) -> None:
    """Mark fenced the units whose row did not move: their fence (or hand, or log length) is not current."""
    for (i, step), ok in zip(batch.items(), moved, strict=True):
        if not ok:
            fenced[i] = Fenced(f"table {step.table_id}: fence {step.fence} (hand {step.hand_no}) is no longer current")


async def _close_hands(conn: AsyncConnection, batch: dict[int, HandCloseStep]) -> list[int]:
    """Close every hand of the batch: lock the rows and read their fences (one SELECT … FOR UPDATE; SQLite's
    write transaction holds the whole database), then one UPDATE per row in a single executemany and one
    DELETE of their logs.  Returns the units whose fence no longer holds (nothing of theirs is written)."""
    ids = [h.table_id for h in batch.values()]
    fences = dict((await conn.execute(select(_T.c.id, _T.c.fence).where(_T.c.id.in_(ids)).with_for_update())).all())
    fenced = [i for i, h in batch.items() if fences.get(h.table_id) != h.fence]
    good = [h for i, h in batch.items() if i not in fenced]
    if len(set(ids)) < len(ids):  # a table twice in one batch (never from an actor): one by one
        fenced, good = [], []
        for i, h in batch.items():
            result = await conn.execute(update(_T).where(_T.c.id == h.table_id, _T.c.fence == h.fence).values(
                **h.columns()))
            if result.rowcount != 1:
                fenced.append(i)
                continue
            await conn.execute(delete(_A).where(_A.c.table_id == h.table_id, _A.c.game_id == h.game_id,
                                                _A.c.hand_no <= h.hand_no))
        return fenced
    if good:
        columns = list(good[0].columns())
        await conn.execute(
            update(_T).where(_T.c.id == bindparam("b_id")).values(**{c: bindparam(f"b_{c}") for c in columns}),
            [{"b_id": h.table_id, **{f"b_{c}": x for c, x in h.columns().items()}} for h in good])
        await conn.execute(delete(_A).where(or_(*(
            and_(_A.c.table_id == h.table_id, _A.c.game_id == h.game_id, _A.c.hand_no <= h.hand_no)
            for h in good))))
    return fenced


async def _open_games(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    ids = [row["id"] for row in rows]
    await conn.execute(delete(_A).where(_A.c.table_id.in_(ids)))
    await conn.execute(delete(_T).where(_T.c.id.in_(ids)))
    await conn.execute(insert(_T), rows)


_SETS = {"hand_no": "hand_no", "seed": "seed", "salt": "salt", "commitment": "commitment", "log_len": "log_len",
         "v": "v"}  # batch column -> live_tables column it sets (``start`` only guards: log_len = start)


async def _update_rows(conn: AsyncConnection, guards: tuple[str, ...], values: Any) -> list[bool]:
    """Update live_tables rows by id where the guard columns still match (``start`` guards ``log_len``);
    returns, per row, whether it moved.  One ``WITH batch AS (VALUES …) UPDATE … FROM batch … RETURNING``
    statement (Postgres, and SQLite since 3.35) however many rows; one by one if a table repeats."""
    rows = list(values)
    if len({r["id"] for r in rows}) < len(rows):
        return [(await _update_rows(conn, guards, [r]))[0] for r in rows]
    cols = tuple(rows[0])
    size = padded_size(len(rows))  # the padding rows match no table (id "")
    padded = rows + [{**rows[0], "id": ""}] * (size - len(rows))
    params = {f"{c}{i}": row[c] for i, row in enumerate(padded) for c in cols}
    found = await conn.execute(_update_statement(cols, guards, size), params)
    moved = {r[0] for r in found}
    return [r["id"] in moved for r in rows]


@functools.lru_cache(maxsize=128)
def _update_statement(cols: tuple[str, ...], guards: tuple[str, ...], size: int) -> TextClause:
    """The batch UPDATE for ``size`` rows of ``cols``, built once per shape: building a ``text()`` parses its
    bind parameters with a regular expression, which cost more CPU than the round trip at low batch sizes
    (journal_bench)."""
    tuples = ", ".join("(" + ", ".join(f"CAST(:{c}{i} AS {SQL_TYPES[c]})" for c in cols) + ")" for i in range(size))
    where = " AND ".join(f"live_tables.{'log_len' if g == 'start' else g} = batch.{g}" for g in ("id", *guards))
    sets = ", ".join(f"{_SETS[c]} = batch.{c}" for c in cols if c in _SETS and c not in guards)
    extra = ", hand_closed = false, last_result = NULL" if "seed" in cols else ""  # a new hand: its own result
    return text(f"WITH batch({', '.join(cols)}) AS (VALUES {tuples}) UPDATE live_tables SET {sets}{extra} "
                f"FROM batch WHERE {where} RETURNING live_tables.id")


def row_writes(units: list[list[Step]]) -> list[RowWrite] | None:
    """The batch as one row write per table (``app.tables.durability.journal_statement``), when it is only new hands,
    appends and closed hands, each unit a new hand, an append, a new hand and its first actions, or a closed
    hand, one unit per table."""
    rows = []
    for steps in units:
        if not steps or len(steps) > 2:
            return None
        first = steps[0]
        if isinstance(first, HandCloseStep) and len(steps) == 1:
            rows.append(RowWrite(first.table_id, first.fence, first.game_id, first.hand_no, 0, first.v,
                                 close=first.columns()))
            continue
        if isinstance(first, AppendStep) and len(steps) == 1:
            rows.append(RowWrite(first.table_id, first.fence, first.game_id, first.hand_no, first.start, first.v,
                                 actions=first.actions))
            continue
        if not isinstance(first, HandStartStep):
            return None
        wall = (first.wall.seed, first.wall.salt, first.wall.commitment)
        if len(steps) == 1:
            rows.append(RowWrite(first.table_id, first.fence, "", first.hand_no, 0, first.v, wall))
            continue
        then = steps[1]
        if not isinstance(then, AppendStep) or (then.table_id, then.fence, then.hand_no, then.start) != (
                first.table_id, first.fence, first.hand_no, 0):
            return None
        rows.append(RowWrite(first.table_id, first.fence, then.game_id, first.hand_no, 0, max(first.v, then.v),
                             wall, then.actions))
    if len({r.table_id for r in rows}) < len(rows):
        return None
    return rows
