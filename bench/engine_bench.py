"""Engine micro-benchmarks: ``python bench/engine_bench.py [SECTION ...]`` (or ``make bench``).

Each section is a function returning rows ``(name, median µs per call, target/remark)``; ``main`` runs the
sections and prints one table.  To add a section, write ``section_xxx() -> list[Row]`` and append it to
``SECTIONS``.  Timings are medians over ``REPEATS`` batches, each timed with ``perf_counter_ns`` around a
plain ``for`` loop over pre-built inputs (loop overhead, ~20 ns, is included: figures are conservative).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# The checkout this file is in, not whatever ``engine`` the environment installed (a shared venv's editable
# install points at another checkout, which an A/B of two builds would then measure twice).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.decompose import decompositions  # noqa: E402
from engine.hand import HandCode, is_win, waits  # noqa: E402

Row = tuple[str, float, str]
REPEATS = 9


# --------------------------------------------------------------------------------------------------
# helpers


def median_us(fn: Callable[[], object], calls: int, repeats: int = REPEATS) -> float:
    """Median over ``repeats`` runs of ``fn()`` (which performs ``calls`` operations), in µs per operation."""
    fn()  # warm up (also loads lazy tables)
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - t0) / calls / 1000)
    return statistics.median(samples)


def complete_hand(rng: random.Random, n_sets: int, kinds: Sequence[int] = range(34)) -> list[int]:
    """A random complete hand (n_sets chows/pungs + a pair) as a 42-long count vector, ≤ 4 per kind."""
    allowed = set(kinds)
    chows = [s + 9 * su for su in range(3) for s in range(7) if s + 9 * su in allowed]
    while True:
        c = [0] * 42
        for _ in range(n_sets):
            if rng.random() < 0.6:
                s = rng.choice(chows)
                for t in (s, s + 1, s + 2):
                    c[t] += 1
            else:
                c[rng.choice(list(allowed))] += 3
        c[rng.choice(list(allowed))] += 2
        if max(c) <= 4:
            return c


def with_jokers(rng: random.Random, counts: list[int], jokers: int) -> list[int]:
    """Replace ``jokers`` random tiles by jokers (the caller passes ``jokers`` separately)."""
    c = counts[:]
    for _ in range(jokers):
        t = rng.choice([k for k in range(34) if c[k]])
        c[t] -= 1
    return c


# --------------------------------------------------------------------------------------------------
# sections


def section_hand(n: int = 2000) -> list[Row]:
    """engine.hand: win check (counts and incremental paths), waits, decompositions; vs PyPI mahjong."""
    rng = random.Random(20240601)
    rows: list[Row] = []
    for j in (0, 2):
        hands = [with_jokers(rng, complete_hand(rng, 5), j) for _ in range(n)]
        codes = [HandCode.from_counts(c) for c in hands]
        assert all(is_win(c, j) for c in hands)

        def by_counts(hands: list[list[int]] = hands, j: int = j) -> None:
            for c in hands:
                is_win(c, j)

        def by_code(codes: list[HandCode] = codes, j: int = j) -> None:
            for h in codes:
                h.is_win(j)

        rows.append((f"is_win(counts) 17 tiles, {j} jokers", median_us(by_counts, n), "≤ 1 µs"))
        rows.append((f"HandCode.is_win() 17 tiles, {j} jokers", median_us(by_code, n), "≤ 1 µs"))

    # is_win_with: the per-discard ron check on a 16-tile concealed hand
    full = [complete_hand(rng, 5) for _ in range(n)]
    pairs = []
    for c in full:
        t = rng.choice([k for k in range(34) if c[k]])
        h = HandCode.from_counts(c)
        h.remove(t)
        pairs.append((h, t))

    def ron(pairs: list[tuple[HandCode, int]] = pairs) -> None:
        for h, t in pairs:
            h.is_win_with(t)

    rows.append(("HandCode.is_win_with(t) 16+1 tiles", median_us(ron, n), "≤ 1 µs"))

    # waits on 16-tile hands: ready ones (complete minus a tile) and random ones
    ready = [h.counts() for h, _ in pairs]
    randoms = []
    for _ in range(n):
        c = [0] * 42
        while sum(c) < 16:
            k = rng.randrange(34)
            if c[k] < 4:
                c[k] += 1
        randoms.append(c)
    for label, hs in (("ready", ready), ("random", randoms)):

        def do_waits(hs: list[list[int]] = hs) -> None:
            for c in hs:
                waits(c)

        rows.append((f"waits() 16 tiles, {label}", median_us(do_waits, n), "all 34 kinds"))

    # decompositions on 17-tile winning hands
    for j, target in ((0, "≤ 60 µs"), (2, "≤ 300 µs")):
        hs = [with_jokers(rng, complete_hand(rng, 5), j) for _ in range(n // 4)]

        def decs(hs: list[list[int]] = hs, j: int = j) -> None:
            for c in hs:
                decompositions(c, j)

        avg = sum(len(decompositions(c, j)) for c in hs) / len(hs)
        rows.append(
            (
                f"decompositions() 17 tiles, {j} jokers",
                median_us(decs, len(hs), 5),
                f"{target}; {avg:.1f} splits/hand",
            )
        )

    rows.extend(_versus_mahjong(rng, n))
    return rows


def _versus_mahjong(rng: random.Random, n: int) -> list[Row]:
    try:
        from mahjong.agari import Agari
    except ImportError:
        return [("mahjong.agari.Agari().is_agari", float("nan"), "skipped: PyPI mahjong not installed")]
    hands = [complete_hand(rng, 4) for _ in range(n)]
    tiles34 = [c[:34] for c in hands]
    codes = [HandCode.from_counts(c) for c in hands]
    agari: Any = Agari()
    assert all(agari.is_agari(t) for t in tiles34)

    def theirs() -> None:
        for t in tiles34:
            agari.is_agari(t)

    def ours_counts() -> None:
        for t in tiles34:
            is_win(t)

    def ours_code() -> None:
        for h in codes:
            h.is_win()

    # interleaved, so that a noisy machine slows both sides alike; ratios are medians of per-repeat ratios
    samples: dict[str, list[float]] = {"theirs": [], "counts": [], "code": []}
    for fn in (theirs, ours_counts, ours_code):
        fn()
    for _ in range(REPEATS * 2 + 1):
        for key, fn in (("theirs", theirs), ("counts", ours_counts), ("code", ours_code)):
            t0 = time.perf_counter_ns()
            fn()
            samples[key].append((time.perf_counter_ns() - t0) / n / 1000)
    t_theirs = statistics.median(samples["theirs"])
    rows: list[Row] = [("mahjong Agari().is_agari 14 tiles", t_theirs, "PyPI mahjong, reference")]
    for key, name, target in (
        ("counts", "is_win(counts) 14 tiles", ""),
        ("code", "HandCode.is_win() 14 tiles", "; target ≥ 6×"),
    ):
        ratio = statistics.median(a / b for a, b in zip(samples[key], samples["theirs"], strict=True))
        rows.append(
            (
                name,
                statistics.median(samples[key]),
                f"ours/theirs {ratio:.3f} = {1 / ratio:.1f}× faster{target}",
            )
        )
    return rows


def play_random_hand(variant_name: str, seed: int) -> None:
    """One full-rule hand of ``variant_name`` dealt from ``seed``, every seat playing random legal actions (also
    what ``bench/engine_instructions.py`` counts)."""
    from engine.bots import random_policy
    from engine.state import HandState
    from engine.variants import find_variant

    variant = find_variant(variant_name)
    hand = HandState.deal(variant, seed=seed, dealer=seed % variant.n_seats)
    rng = random.Random(seed)
    while not hand.is_over:
        hand.apply(random_policy(hand, hand.awaiting()[0], rng))


def section_play(hands: int = 200) -> list[Row]:
    """full-rule hands with random players (deal, every action, scoring), per variant"""
    rows: list[Row] = []
    for name in ("tiantai", "taipao", "taiwan"):
        def batch(name: str = name) -> None:
            for seed in range(hands):  # the same hands every repeat, so repeats compare
                play_random_hand(name, seed)

        us = median_us(batch, hands, repeats=5)
        rows.append((f"{name}: one random hand", us, f"{1e6 / us:,.0f} hands/s (target ≥ 1,000)"))
    return rows


def _winning_situations(variant_name: str, want: int, wildcards: bool | None) -> list[Any]:
    """Situations of finished greedy-bot hands that had a winner (``wildcards``: the winner holds 財神
    (True), holds none (False), or either (None))."""
    from engine.bots import greedy_policy
    from engine.state import HandState
    from engine.variants import find_variant

    variant = find_variant(variant_name)
    found: list[Any] = []
    seed = 0
    while len(found) < want and seed < 50 * want:
        seed += 1
        hand = HandState.deal(variant, seed=seed)
        rng = random.Random(seed)
        while not hand.is_over:
            hand.apply(greedy_policy(hand, hand.awaiting()[0], rng))
        result = hand.result
        if result is None or not result.winners or result.win_kind is None:
            continue
        if result.win_kind.value in ("kill_pig", "eight_flowers", "seven_rob_one"):
            continue
        sit = result.situation
        held = sum(1 for t in sit.seats[sit.winners[0]].concealed if t in sit.wildcards)
        if wildcards is None or (held >= 2) == wildcards and (held == 0 or wildcards):
            found.append(sit)
    return found


def section_scoring(hands: int = 200) -> list[Row]:
    """scoring one winning hand from bot play (every split, every 財神 assignment, settlement)"""
    from engine.scoring import score

    rows: list[Row] = []
    cases = [("tiantai", None, "target ≤ 60"), ("taiwan", None, "target ≤ 60"),
             ("taipao", False, "winner holds no 財神; target ≤ 60"),
             ("taipao", True, "winner holds ≥ 2 財神; target ≤ 300")]
    for name, wild, target in cases:
        situations = _winning_situations(name, hands, wild)
        per_hand = []
        for sit in situations:
            score(sit)
            t0 = time.perf_counter_ns()
            for _ in range(5):
                score(sit)
            per_hand.append((time.perf_counter_ns() - t0) / 5 / 1000)
        label = f"{name}: score a winning hand" + ("" if wild is None else (" (2+ 財神)" if wild else " (no 財神)"))
        rows.append((label, statistics.median(per_hand), f"{target}; {len(situations)} hands, "
                     f"p90 {statistics.quantiles(per_hand, n=10)[-1]:.0f} µs"))
    return rows


SECTIONS: dict[str, Callable[[], list[Row]]] = {
    "hand": section_hand,
    "play": section_play,
    "scoring": section_scoring,
}


# --------------------------------------------------------------------------------------------------


def print_table(title: str, rows: list[Row]) -> None:
    width = max(len(r[0]) for r in rows)
    print(f"\n== {title}")
    print(f"{'benchmark':<{width}}  {'median µs':>10}  target / remark")
    print(f"{'-' * width}  {'-' * 10}  {'-' * 30}")
    for name, us, note in rows:
        print(f"{name:<{width}}  {us:>10.3f}  {note}")


def main(argv: Sequence[str] | None = None) -> int:
    wanted = list(sys.argv[1:] if argv is None else argv) or list(SECTIONS)
    unknown = [w for w in wanted if w not in SECTIONS]
    if unknown:
        print(f"unknown section(s) {unknown}; choose from {list(SECTIONS)}", file=sys.stderr)
        return 2
    print(f"Python {sys.version.split()[0]}, {REPEATS} repeats, medians")
    for name in wanted:
        print_table(f"{name}: {SECTIONS[name].__doc__ or ''}".strip(), SECTIONS[name]())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
