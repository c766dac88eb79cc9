"""Forming quick-play tables (快速開始配桌) from one pool's waiting players: pure, no I/O.

A pool is one room × one variant × one game length (``QUICK_PLAY_ROUNDS``).  Every wave the matcher hands the pool's members to ``form_tables``:
members are sorted by rank (their title's place in the ladder of docs/rules/rooms.md#titles, then 積分), and a run of
table-size neighbours becomes a table when the titles in it lie within the spread every one of them
allows.  A member's allowed spread starts at ``SpreadPolicy.start`` titles and widens by one title for
every ``widen_seconds`` waited, up to the whole ladder, so nobody waits for ever when few are online
(lichess pools widen the rating range of a member who missed waves the same way).  Seats are drawn at
random within a table.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from app.game.titles import TITLES

# The game lengths quick play offers, in 圈, each its own pool (docs/rules/rooms.md#quick-play F-8): one 圈
# (東風戰, the default, first) and four (全莊).  A matched table's ``rounds`` option is its pool's length.
QUICK_PLAY_ROUNDS: tuple[int, ...] = (1, 4)
DEFAULT_QUICK_PLAY_ROUNDS = QUICK_PLAY_ROUNDS[0]
# A game's typical length in minutes at the default pace, per (variant, rounds), shown on the quick-play
# buttons: the mean of 30 games each in bench/game_length.py (the server's hand flow, every seat a server bot,
# the default table settings; bench/results/game_length.md).  People think longer than bots: a floor.
TYPICAL_GAME_MINUTES: dict[tuple[str, int], int] = {
    ("tiantai", 1): 4, ("tiantai", 4): 16,
    ("taipao", 1): 4, ("taipao", 4): 18,
    ("taiwan", 1): 7, ("taiwan", 4): 29,
}
TITLE_COUNT = len(TITLES)
WIDEST_SPREAD = TITLE_COUNT - 1  # the whole ladder: anyone may sit with anyone


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """One player waiting in a pool (排隊): who, where (room, variant, game length in 圈), since when (epoch
    seconds) and at what rank."""

    user_id: int
    username: str
    room: str
    variant: str
    since: float
    title_rank: int  # the title's index in app.game.titles.TITLES (0 = 白板)
    rank_points: int  # 積分, to order players of one title
    rounds: int = DEFAULT_QUICK_PLAY_ROUNDS  # 圈 per game: an entry stored before F-8 waited for one 圈

    @property
    def pool(self) -> tuple[str, str, int]:
        """The pool the entry waits in: (room, variant, rounds)."""
        return (self.room, self.variant, self.rounds)

    @property
    def joined_at(self) -> datetime:
        return datetime.fromtimestamp(self.since, UTC)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of(cls, data: dict[str, Any]) -> QueueEntry:
        return cls(**data)


@dataclass(frozen=True, slots=True)
class SpreadPolicy:
    """How far apart in titles a table's players may be: ``start`` titles at once, one more for every
    ``widen_seconds`` waited, never more than the whole ladder."""

    start: int
    widen_seconds: float

    def allowed(self, waited: float) -> int:
        return min(WIDEST_SPREAD, self.start + int(max(waited, 0.0) // self.widen_seconds))


def form_tables(members: Iterable[QueueEntry], seats: int, *, now: float, policy: SpreadPolicy,
                rng: random.Random) -> list[list[QueueEntry]]:
    """The tables this wave seats: groups of ``seats`` members, each in random seat order.

    Members sorted by (title, 積分, since); a window of ``seats`` neighbours is taken when its titles
    differ by no more than the narrowest spread its members allow, else the window slides on by one.
    Linear in the pool's size after the sort.
    """
    ordered = sorted(members, key=lambda e: (e.title_rank, e.rank_points, e.since, e.user_id))
    tables: list[list[QueueEntry]] = []
    i = 0
    while i + seats <= len(ordered):
        window = ordered[i:i + seats]
        if _fits(window, now, policy):
            group = list(window)
            rng.shuffle(group)
            tables.append(group)
            i += seats
        else:
            i += 1
    return tables


def _fits(window: Sequence[QueueEntry], now: float, policy: SpreadPolicy) -> bool:
    spread = window[-1].title_rank - window[0].title_rank  # sorted by title
    return spread <= min(policy.allowed(now - e.since) for e in window)
