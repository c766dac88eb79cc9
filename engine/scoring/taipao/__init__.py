"""台炮麻将 scoring (RULES.md §2.2): B (基础台) for every player, X for the winner, 13-台 doubling,
payments to the winner and the losers' pairwise B settlement.

``score(situation)`` is the entry point.  Room options: see ``options.py`` (item values use the item
keys of ``rules.py``).
"""

from __future__ import annotations

from functools import cache

from engine.scoring.result import ScoreResult, SeatScore
from engine.scoring.situation import Situation, WinKind
from engine.scoring.taipao.evaluate import (
    FED,
    NORMAL_KINDS,
    SeatResult,
    describe,
    score_loser,
    score_special,
    score_winner,
    win_of,
)
from engine.scoring.taipao.held import N_SEATS, check_size, held_of, table_of
from engine.scoring.taipao.options import resolve
from engine.scoring.taipao.settle import settle
from engine.tiles import format_tiles

__all__ = ["score"]

SPECIAL_KINDS = (WinKind.KILL_PIG, WinKind.EIGHT_FLOWERS)


def score(situation: Situation) -> ScoreResult:
    sit = situation
    if sit.variant != "taipao":
        raise ValueError(f"the 台炮 scorer got a {sit.variant!r} situation")
    opts = resolve(sit.options)
    table = table_of(sit)
    winner = _winner(sit)
    special = sit.win_kind in SPECIAL_KINDS
    helds = [held_of(hand, i, table, i == winner) for i, hand in enumerate(sit.seats)]
    for h in helds:
        check_size(h, h.seat == winner, special)
    results = [
        score_loser(h, opts) if h.seat != winner
        else score_special(h, sit.win_kind, opts) if special and sit.win_kind is not None
        else score_winner(h, win_of(sit, h), opts)
        for h in helds
    ]
    notes = [_mode_note(table.wildcards)]
    if winner is None:
        notes.append("黄牌: no settlement (§2.2 Settlement 3)")
        return ScoreResult("taipao", tuple(_seat(r, None) for r in results), (), tuple(notes))
    won = results[winner]
    w = opts.doubled(won.total)
    liable = None
    if opts.sifeng_baopei and sit.win_kind in FED and any(i.key == "sifeng" for i in won.items):
        liable = sit.discarder
        notes.append(f"四风齐包赔: seat {liable} pays for everyone")
    if won.reading is not None:
        notes.append("split: " + describe(won.reading))
    payments = settle(
        winner, sit.dealer, w, [r.base for r in results], opts,
        pairwise=not special or opts.shazhu_losers_settle, liable=liable,
    )
    return ScoreResult("taipao", tuple(_seat(r, w if r.seat == winner else None) for r in results),
                       tuple(payments), tuple(notes))


def _winner(sit: Situation) -> int | None:
    if not sit.winners:
        return None
    if len(sit.winners) > 1:
        raise ValueError(f"台炮 has a single winner (截胡, §2.1 rule 11, B-18); got {list(sit.winners)}")
    winner = sit.winners[0]
    if not 0 <= winner < N_SEATS:
        raise ValueError(f"winner {winner} is not a seat index 0..3")
    if sit.win_kind is None:
        raise ValueError("a win needs win_kind")
    if sit.win_kind not in NORMAL_KINDS and sit.win_kind not in SPECIAL_KINDS:
        raise ValueError(f"{sit.win_kind.value} is not a 台炮 win")
    return winner


def _seat(r: SeatResult, score: int | None) -> SeatScore:
    if score is None:
        return SeatScore(r.seat, r.items, {"base": r.base, "total": r.base})
    return SeatScore(r.seat, r.items, {"base": r.base, "bonus": r.bonus, "total": r.total, "score": score})


@cache
def _mode_note(faces: tuple[int, ...]) -> str:
    if not faces:
        return "財神: none"
    mode = "same-face" if len(faces) == 1 else "two-face"
    return f"財神 {' '.join(format_tiles([f]) for f in faces)} ({mode} mode)"
