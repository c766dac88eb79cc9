"""台炮麻将 scoring (docs/rules/taipao.md#scoring): B (基础台) for every player, X for the winner, 13-台 doubling,
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
    describe,
    score_loser,
    score_special,
    score_winner,
    win_of,
)
from engine.scoring.taipao.held import N_SEATS, WINNER_TILES, Held, check_size_of, held_of, table_of
from engine.scoring.taipao.items import SeatResult
from engine.scoring.taipao.loser import score_loser_fast
from engine.scoring.taipao.options import resolve
from engine.scoring.taipao.settle import settle
from engine.tiles import FLOWER_BASE, format_tiles, is_one_face

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
    # every seat is checked (in seat order) before any is scored; non-winners take the direct path
    # when it covers the room's B rules (loser.py)
    results: list[SeatResult | None] = []
    helds: list[Held] = []
    sizes: list[int] = []
    fast = opts.loser_fast
    values = opts.values
    for i, hand in enumerate(sit.seats):
        if fast and i != winner:
            r, size = score_loser_fast(hand, i, table, values)
            results.append(r)
        else:
            h = held_of(hand, i, table, i == winner)
            helds.append(h)
            results.append(None)
            size = h.size
        sizes.append(size)
    for i, size in enumerate(sizes):
        if size != WINNER_TILES:  # 17 is always allowed
            check_size_of(i, size, i == winner, special)
    for h in helds:
        results[h.seat] = (
            score_loser(h, opts) if h.seat != winner
            else score_special(h, sit.win_kind, opts) if special and sit.win_kind is not None
            else score_winner(h, win_of(sit, h), opts)
        )
    done = [r for r in results if r is not None]
    notes = [_mode_note(table.wildcards)]
    if winner is None:
        notes.append("黄牌: no settlement (docs/rules/taipao.md#settlement (3))")
        return ScoreResult("taipao", tuple(_seat(r, None) for r in done), (), tuple(notes))
    won = done[winner]
    w = opts.doubled(won.total)
    liable = None
    if opts.sifeng_baopei and sit.win_kind in FED and any(i.key == "sifeng" for i in won.items):
        liable = sit.discarder
        notes.append(f"四风齐包赔: seat {liable} pays for everyone")
    if won.reading is not None:
        notes.append("split: " + describe(won.reading))
    payments = settle(
        winner, sit.dealer, w, [r.base for r in done], opts,
        pairwise=not special or opts.shazhu_losers_settle, liable=liable,
    )
    return ScoreResult("taipao", tuple(_seat(r, w if r.seat == winner else None) for r in done),
                       tuple(payments), tuple(notes))


def _winner(sit: Situation) -> int | None:
    if not sit.winners:
        return None
    if len(sit.winners) > 1:
        raise ValueError(f"台炮 has a single winner (截胡, docs/rules/taipao.md#claims, B-18); got {list(sit.winners)}")
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
    if is_one_face(faces):  # docs/rules/taipao.md#one-face F-4
        live = next(f for f in faces if f < FLOWER_BASE)
        return f"財神 {format_tiles([live])} (one-face hand: the other indicator a flower)"
    mode = "same-face" if len(faces) == 1 else "two-face"
    return f"財神 {' '.join(format_tiles([f]) for f in faces)} ({mode} mode)"
