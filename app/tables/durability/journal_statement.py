"""The journal's steady traffic in one SQL statement per batch (Postgres, on asyncpg's own connection).

Most of what the journal writes is new hands and appended actions (``app.tables.durability.journal``).  A batch of only
those, one unit per table, needs no explicit transaction: one ``WITH … UPDATE … RETURNING, INSERT …``
statement is atomic by itself, so the batch costs one round trip instead of BEGIN, an UPDATE per kind, the
INSERT and COMMIT: about a quarter less CPU in journal_bench (bench/results/throughput.md).

Each table's unit becomes one guarded UPDATE of its row: a new hand (guarded by the fence; the hand's
actions, if the same command logged some, counted in the same row update), an append (guarded by the
fence, the hand and the log's length) or a closed hand (guarded by the fence: the match moves on, the
result is kept, and the hand's actions are deleted).  The actions are inserted or deleted only for the rows
the UPDATEs returned, so a unit whose guard no longer holds writes nothing, and the rest of the batch
commits without it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

# Postgres refuses more bind parameters than this in one statement; a larger batch takes the general path.
MAX_PARAMETERS: Final = 32_767


@dataclass
class RowWrite:
    """One table's unit of a batch: a new hand (``wall`` = seed, salt, commitment) and/or actions from
    ``start``; ``v`` the event number the row records."""

    table_id: str
    fence: int
    game_id: str
    hand_no: int
    start: int
    v: int
    wall: tuple[str, str, str] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    close: dict[str, Any] | None = None  # a closed hand: the row's new columns (``HandCloseStep.columns``)

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, table_id: str, fence: int, game_id: str, hand_no: int, start: int, v: int,
                 wall: tuple[str, str, str] | None = None, actions: list[dict[str, Any]] | None = None,
                 close: dict[str, Any] | None = None) -> None:
        self.table_id, self.fence, self.game_id, self.hand_no, self.start, self.v = (table_id, fence, game_id,
                                                                                  hand_no, start, v)
        self.wall, self.close = wall, close
        self.actions = [] if actions is None else actions


_NEW: Final = ("id", "fence", "hand_no", "seed", "salt", "commitment", "log_len", "v")
_APPEND: Final = ("id", "fence", "hand_no", "start", "log_len", "v")
_ACTION: Final = ("table_id", "game_id", "hand_no", "seq", "action")
_MATCH: Final = ("v", "last_result", "dealer", "dealer_streak", "round_wind", "hands_played", "voided", "points", "coins",
          "first_commitment")
_CLOSE: Final = ("id", "fence", "game_id", "hand_no", *_MATCH)
# SQL types of the values a batched statement compares or sets (Postgres types a VALUES list by them)
SQL_TYPES: Final = {"id": "TEXT", "table_id": "TEXT", "game_id": "TEXT", "fence": "BIGINT", "hand_no": "INTEGER",
             "start": "INTEGER", "log_len": "INTEGER", "seq": "INTEGER", "v": "BIGINT", "seed": "TEXT",
             "salt": "TEXT", "commitment": "TEXT", "action": "JSON", "last_result": "JSON", "dealer": "INTEGER",
             "dealer_streak": "INTEGER", "round_wind": "INTEGER", "hands_played": "INTEGER", "voided": "INTEGER",
             "points": "JSON", "coins": "JSON", "first_commitment": "TEXT"}
_JSON: Final = frozenset(c for c, t in SQL_TYPES.items() if t == "JSON")


def json_text(value: Any) -> str:
    """A JSON column's value as the text its codec takes (SQLAlchemy's asyncpg dialect passes it on as is).

    orjson rather than ``json.dumps``: every logged action is encoded here, one per journal write, and the
    standard library's encoder was about a third of building a batch's arguments (issue 36).  Postgres keeps a
    ``json`` value's text and every reader parses it, so the compact form reads back the same."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def padded_size(rows: int) -> int:
    """A batch's row count padded to a power of two (with rows that match nothing), so a handful of statement
    shapes cover every batch and the driver's prepared statements are reused instead of parsing and planning
    a new one per batch."""
    return 0 if rows == 0 else 1 << (rows - 1).bit_length()


@functools.lru_cache(maxsize=512)
def batch_sql(new: int, append: int, actions: int, close: int = 0) -> str:
    """The statement for ``new`` new-hand rows, ``append`` append rows, ``actions`` action rows and ``close``
    closed-hand rows (each already padded), parameters numbered in that order."""
    counter = iter(range(1, MAX_PARAMETERS + 1))

    def values(cols: tuple[str, ...], rows: int) -> str:
        return ", ".join("(" + ", ".join(f"${next(counter)}::{SQL_TYPES[c]}" for c in cols) + ")"
                         for _ in range(rows))

    parts, moved = [], []
    if new:
        parts.append(f"n({', '.join(_NEW)}) AS (VALUES {values(_NEW, new)})")
        parts.append("started AS (UPDATE live_tables t SET hand_no = n.hand_no, seed = n.seed, salt = n.salt, "
                     "commitment = n.commitment, log_len = n.log_len, v = n.v, hand_closed = false, "
                     "last_result = NULL FROM n WHERE t.id = n.id AND t.fence = n.fence RETURNING t.id)")
        moved.append("SELECT id FROM started")
    if append:
        parts.append(f"a({', '.join(_APPEND)}) AS (VALUES {values(_APPEND, append)})")
        parts.append("appended AS (UPDATE live_tables t SET log_len = a.log_len, v = a.v FROM a WHERE t.id = a.id "
                     "AND t.fence = a.fence AND t.hand_no = a.hand_no AND t.log_len = a.start RETURNING t.id)")
        moved.append("SELECT id FROM appended")
    if actions:
        parts.append(f"r({', '.join(_ACTION)}) AS (VALUES {values(_ACTION, actions)})")
        parts.append(f"logged AS (INSERT INTO table_actions ({', '.join(_ACTION)}) SELECT {', '.join(_ACTION)} "
                     f"FROM r WHERE r.table_id IN ({' UNION ALL '.join(moved)}))")
    if close:
        parts.append(f"c({', '.join(_CLOSE)}) AS (VALUES {values(_CLOSE, close)})")
        sets = ", ".join(f"{col} = c.{col}" for col in _MATCH)
        parts.append(f"closed AS (UPDATE live_tables t SET hand_closed = true, {sets} FROM c WHERE t.id = c.id "
                     "AND t.fence = c.fence RETURNING t.id, c.game_id, c.hand_no)")
        parts.append("dropped AS (DELETE FROM table_actions d USING closed WHERE d.table_id = closed.id AND "
                     "d.game_id = closed.game_id AND d.hand_no <= closed.hand_no)")
        moved.append("SELECT id FROM closed")
    return f"WITH {', '.join(parts)} {' UNION ALL '.join(moved)}"


def batch_arguments(rows: Sequence[RowWrite]) -> tuple[str, list[Any]] | None:
    """The statement and its arguments for ``rows`` (one per table), or None when they do not fit in one."""
    new = [r for r in rows if r.wall is not None]
    closed = [r for r in rows if r.close is not None]
    append = [r for r in rows if r.wall is None and r.close is None]
    logged = [(r, i) for r in rows for i in range(len(r.actions))]
    sizes = (padded_size(len(new)), padded_size(len(append)), padded_size(len(logged)), padded_size(len(closed)))
    if sum(n * len(cols) for n, cols in zip(sizes, (_NEW, _APPEND, _ACTION, _CLOSE), strict=True)) > MAX_PARAMETERS:
        return None
    args: list[Any] = []
    for k in range(sizes[0]):  # padding rows repeat the last real row with a blank id: they match no table
        r = new[min(k, len(new) - 1)]
        assert r.wall is not None
        args += [r.table_id if k < len(new) else "", r.fence, r.hand_no, *r.wall, len(r.actions), r.v]
    for k in range(sizes[1]):
        r = append[min(k, len(append) - 1)]
        args += [r.table_id if k < len(append) else "", r.fence, r.hand_no, r.start, r.start + len(r.actions), r.v]
    for r, i in logged:
        # the JSON column's codec (SQLAlchemy's asyncpg dialect) takes the JSON text
        args += [r.table_id, r.game_id, r.hand_no, r.start + i, json_text(r.actions[i])]
    args += ["", "", 0, 0, "null"] * (sizes[2] - len(logged))
    for k in range(sizes[3]):
        r = closed[min(k, len(closed) - 1)]
        assert r.close is not None
        match = [r.close[c] for c in _MATCH]
        args += [r.table_id if k < len(closed) else "", r.fence, r.game_id, r.hand_no,
                 *(json_text(x) if c in _JSON and x is not None else x for c, x in zip(_MATCH, match, strict=True))]
    return batch_sql(*sizes), args
