"""engine.hand: win check, waits, decompositions, tables and the ``waits`` command.

Shapes: docs/rules/tiantai.md#winning-hand (天台: 4 sets + 1 pair, no other shapes), docs/rules/taipao.md#winning-hand, docs/rules/taipao.md#caishen-use (台炮: 5 sets + 1
pair, no 八對; 財神 stands for any tile, also its own face), docs/rules/taiwan.md#tiles (台灣: 5 sets + 1 pair); docs/rules/common.md#best-reading "Score
maximisation" (every split and every substitution is evaluated, so decompositions must be exhaustive).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engine.decompose as decompose
import engine.hand as hand
import engine.hand_tables as hand_tables
from engine.cli_waits import main as waits_main
from engine.decompose import Group, decompositions
from engine.hand import HandCode, is_win, waits
from engine.tiles import TILES, counts_of, parse_tiles

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------------------------------
# Slow, obviously-correct references


def _chow_starts(i: int) -> list[int]:
    """Starting kinds of the chows that contain kind i."""
    if i >= 27:
        return []
    r = i % 9
    return [i - d for d in (2, 1, 0) if 0 <= r - d <= 6]


@cache
def _ref(cs: tuple[int, ...], j: int, pair_left: bool) -> bool:
    """Can cs + j jokers be split into sets (+ the pair if pair_left)?  Jokers fill any slot."""
    i = next((k for k in range(34) if cs[k]), None)
    if i is None:  # only jokers left: joker-only sets, and the joker pair if still needed
        return j % 3 == 0 if not pair_left else j >= 2 and (j - 2) % 3 == 0

    def take(real: Sequence[int], size: int, pair_after: bool) -> bool:
        need = size - len(real)
        if need > j:
            return False
        c = list(cs)
        for f in real:
            if c[f] == 0:
                return False
            c[f] -= 1
        return _ref(tuple(c), j - need, pair_after)

    # the lowest real tile i must be in some group; every other real tile in it may be real or a joker
    for k in (1, 2, 3):
        if take([i] * k, 3, pair_left):
            return True
    if pair_left:
        for k in (1, 2):
            if take([i] * k, 2, False):
                return True
    for s in _chow_starts(i):
        others = [f for f in (s, s + 1, s + 2) if f != i]
        for mask in range(4):
            real = [i] + [f for b, f in enumerate(others) if mask >> b & 1]
            if take(real, 3, pair_left):
                return True
    return False


def ref_is_win(counts: Sequence[int], jokers: int) -> bool:
    return _ref(tuple(counts[:34]), jokers, True)


@cache
def _ref_need(cs: tuple[int, ...], pair: bool, honour: bool) -> int:
    """Fewest jokers to complete one group (9 suit ranks or one honour) into melds (+ one pair)."""
    n = len(cs)
    i = next((k for k in range(n) if cs[k]), None)
    if i is None:
        return 2 if pair else 0
    best = 99

    def sub(real: Sequence[int]) -> tuple[int, ...]:
        c = list(cs)
        for f in real:
            c[f] -= 1
        return tuple(c)

    for k in range(1, min(cs[i], 3) + 1):
        best = min(best, _ref_need(sub([i] * k), pair, honour) + 3 - k)
    if pair:
        for k in range(1, min(cs[i], 2) + 1):
            best = min(best, _ref_need(sub([i] * k), False, honour) + 2 - k)
    if not honour:
        for s in (i - 2, i - 1, i):
            if 0 <= s <= 6:
                for a in range(2):
                    for b in range(2):
                        real = [i] + [
                            f
                            for f, use in zip([f for f in (s, s + 1, s + 2) if f != i], (a, b), strict=True)
                            if use
                        ]
                        if all(f > i and cs[f] > 0 for f in real[1:]):
                            best = min(best, _ref_need(sub(real), pair, honour) + 3 - len(real))
    return best


def _all_groups() -> list[tuple[str, tuple[int, ...], int]]:
    out: list[tuple[str, tuple[int, ...], int]] = []
    for f in range(34):
        out += [("pair", (f, f), w) for w in (0, 1)]
        out += [("pung", (f, f, f), w) for w in (0, 1, 2)]
        if f < 27 and f % 9 <= 6:
            out += [("chow", (f, f + 1, f + 2), w) for w in (0, 1, 2)]
    return out + [("wild_pair", (), 2), ("wild_set", (), 3)]


_CATALOGUE = _all_groups()


def _assignable(groups: Sequence[tuple[str, tuple[int, ...], int]], counts: Sequence[int]) -> bool:
    """Can each group's real slots (len − wild of its faces) be chosen so that they are exactly counts?"""
    left = list(counts[:34])

    def rec(k: int) -> bool:
        if k == len(groups):
            return not any(left)
        _, faces, wild = groups[k]
        n_real = len(faces) - wild if faces else 0
        for pick in _subsets(faces, n_real):
            if all(left[f] >= c for f, c in Counter(pick).items()):
                for f in pick:
                    left[f] -= 1
                ok = rec(k + 1)
                for f in pick:
                    left[f] += 1
                if ok:
                    return True
        return False

    return rec(0)


def _subsets(faces: tuple[int, ...], n: int) -> set[tuple[int, ...]]:
    from itertools import combinations

    return set(combinations(faces, n))


def ref_decompositions(
    counts: Sequence[int], jokers: int
) -> set[tuple[tuple[str, tuple[int, ...], int], ...]]:
    """All multisets of catalogue groups with one pair, sizes summing to the hand, assignable to it."""
    held = {k for k in range(34) if counts[k]}
    cands = [g for g in _CATALOGUE if g[0].startswith("wild") or set(g[1]) & held]
    total = sum(counts[:34]) + jokers
    found: set[tuple[tuple[str, tuple[int, ...], int], ...]] = set()

    def pick(start: int, chosen: list[tuple[str, tuple[int, ...], int]], size: int, pairs: int) -> None:
        if size == total:
            if pairs == 1 and sum(g[2] for g in chosen) == jokers and _assignable(chosen, counts):
                found.add(tuple(sorted(chosen)))
            return
        for idx in range(start, len(cands)):
            g = cands[idx]
            sz = 2 if "pair" in g[0] else 3
            is_pair = "pair" in g[0]
            if size + sz <= total and pairs + is_pair <= 1:
                chosen.append(g)
                pick(idx, chosen, size + sz, pairs + is_pair)
                chosen.pop()

    pick(0, [], 0, 0)
    return found


def _plain(dec: tuple[Group, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    return tuple(sorted((g.kind, tuple(int(t) for t in g.tiles), g.wild) for g in dec))


def C(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


# --------------------------------------------------------------------------------------------------
# Table-driven win checks

WIN_CASES = [
    # (hand, jokers, win, why)
    ("123m 456m 789p 111z 22z", 0, True, "docs/rules/tiantai.md#winning-hand: 4 sets + 1 pair"),
    ("111m 222m 333m 444p 55z", 0, True, "docs/rules/tiantai.md#winning-hand: pungs"),
    ("1112345678999m 5m", 0, True, "docs/rules/tiantai.md#winning-hand: pure one-suit 9-gates shape"),
    ("11m 22m 33p 44p 55z 66z 77z", 0, False, "docs/rules/tiantai.md#winning-hand: no 七對"),
    ("123m 456m 789p 111z 2z 3z", 0, False, "docs/rules/tiantai.md#winning-hand: two singles"),
    ("123m 456m 789p 234s 567s 11z", 0, True, "docs/rules/taipao.md#winning-hand / docs/rules/taiwan.md#tiles: 5 sets + 1 pair"),
    ("11m 22m 33m 44p 55p 66p 77s 88s 9s", 0, False, "docs/rules/taipao.md#winning-hand: no 八對 shape"),
    ("11m 44m 77m 11p 44p 77p 11s 44s", 1, False, "docs/rules/taipao.md#winning-hand: 八對 with a 財神 is still no win"),
    ("123m 456m 789p 234s 567s 1z", 1, True, "docs/rules/taipao.md#caishen-use: 財神 completes the pair"),
    ("123m 456m 789p 234s 57s 11z", 1, True, "docs/rules/taipao.md#caishen-use: 財神 fills a chow's middle"),
    ("123m 456m 789p 234s 5s 11z", 2, True, "docs/rules/taipao.md#caishen-use: two 財神 with a single"),
    ("123m 456m 789p 234s 567s", 2, True, "docs/rules/taipao.md#caishen-use: two 財神 form the pair"),
    ("123m 456m 789p 234s 11z", 3, True, "docs/rules/taipao.md#caishen-use: three 財神 form a set by themselves (財神汇)"),
    ("1111m 234m 789p 234s 567s", 1, True, "docs/rules/taipao.md#caishen-use: 財神 makes 1m a pair (11m + J) — 4 real 1m kept"),
    ("1111m 2222m 3333m 456p 11z", 0, True, "4 copies each, used across pungs and a chow"),
    ("19m 19p 19s 1234567z", 1, False, "no thirteen-orphans shape"),
    ("11z", 0, True, "docs/rules/tiantai.md#winning-hand 'plus 1 per kong': only the concealed part is passed"),
    ("5z", 1, True, "a single plus a 財神 is the pair"),
    ("", 2, True, "two 財神 are the pair"),
    ("", 5, True, "5 財神: a joker set and a joker pair"),
    ("", 3, False, "size 3: no pair"),
    ("123m 456m 789p 111z 2z", 0, False, "13 tiles"),
    ("123m 456m 789p 111z", 2, True, "14 = 12 real + 2 財神 pair"),
    ("123m 456m 789p 111z", 1, False, "13 with the 財神"),
    ("1m 4m 7m 1p 4p 7p 1s 4s 7s 1z 2z 3z 4z 5z", 3, False, "nonsense with 3 財神"),
    ("1m 5m 9m 1p 5p 9p 1s 5s 9s 1z 2z 3z", 2, False, "12 isolated tiles + 2"),
]


@pytest.mark.parametrize(("text", "jokers", "expected", "why"), WIN_CASES)
def test_is_win_cases(text: str, jokers: int, expected: bool, why: str) -> None:
    counts = C(text)
    assert is_win(counts, jokers) is expected, why
    assert ref_is_win(counts, jokers) is expected, why  # the reference agrees with the table
    assert HandCode.from_counts(counts).is_win(jokers) is expected
    assert bool(decompositions(counts, jokers)) is expected


def test_is_win_accepts_34_long_and_ignores_flowers() -> None:
    c = C("123m 456m 789p 111z 22z")
    assert is_win(c[:34])
    c[34] = 1
    assert is_win(c)


# --------------------------------------------------------------------------------------------------
# HandCode


def test_handcode_incremental_matches_counts() -> None:
    rng = random.Random(7)
    h = HandCode()
    counts = [0] * 42
    for _ in range(5000):
        t = rng.randrange(34)
        if counts[t] < 4 and (rng.random() < 0.55 or sum(counts) < 10):
            h.add(t)
            counts[t] += 1
        elif counts[t] > 0:
            h.remove(t)
            counts[t] -= 1
        assert len(h) == sum(counts)
        j = rng.randrange(3)
        assert h.is_win(j) == is_win(counts, j)
        u = rng.randrange(34)
        if counts[u] < 4:
            counts[u] += 1
            assert h.is_win_with(u, j) == is_win(counts, j)
            counts[u] -= 1
        else:
            assert h.is_win_with(u, j) is False
    assert h.counts() == counts
    assert HandCode.from_counts(counts) == h


def test_handcode_copy_and_errors() -> None:
    h = HandCode(parse_tiles("123m 456p 789s 111z 5z"))
    assert h.is_win_with(TILES[31]) and not h.is_win()
    g = h.copy()
    g.add(31)
    assert g.is_win() and not h.is_win()
    assert h.count(27) == 3 and g.count(31) == 2
    h.add(27)
    with pytest.raises(ValueError, match="5th"):
        h.add(27)
    with pytest.raises(ValueError):
        h.remove(5)
    with pytest.raises(ValueError):
        h.add(34)  # a flower is never part of the shape
    assert h.is_win_with(34) is False
    assert h.is_win_with(27) is False  # already 4 held


# --------------------------------------------------------------------------------------------------
# Waits

WAIT_CASES = [
    ("1112345678999m", 0, "123456789m", "九蓮寶燈 shape waits on all nine"),
    ("123m 456m 789p 11z 22z", 0, "12z", "docs/rules/tiantai.md#winning-hand: 對碰"),
    ("123m 456m 789p 11z 222z", 0, "", "size 14: no waits"),
    ("123m 456m 789p 234s 567s 1z", 0, "1z", "docs/rules/taipao.md#winning-hand: 16 tiles, 單騎"),
    ("123m 456m 789p 234s 56s 11z", 0, "147s", "兩面 + 234s56s → 123s456s"),
    ("123m 456m 789p 234s 11z 1111p", 0, "", "1p is held 4 times: excluded"),
    ("1111m 2m 456p 789p 11z", 0, "3m", "4 copies of 1m held: 1m excluded; 111m + 123m"),
]


@pytest.mark.parametrize(("text", "jokers", "expected", "why"), WAIT_CASES)
def test_waits_cases(text: str, jokers: int, expected: str, why: str) -> None:
    counts = C(text)
    got = waits(counts, jokers)
    assert got == parse_tiles(expected), why
    assert HandCode.from_counts(counts).waits(jokers) == got
    assert got == _ref_waits(counts, jokers)


def test_waits_with_joker_and_kinds_filter() -> None:
    counts = C("123m 456m 789p 234s 567s")  # 15 real + 1 財神 = 16: wins on anything that pairs the joker
    got = waits(counts, 1)
    assert len(got) == 34
    assert waits(counts, 1, kinds=range(9, 18)) == [TILES[k] for k in range(9, 18)]
    tiantai = [k for k in range(34) if not 18 <= k < 27]
    assert all(t.suit != "s" for t in waits(counts, 1, kinds=tiantai))


def _ref_waits(counts: Sequence[int], jokers: int) -> list[int]:
    out = []
    for k in range(34):
        if counts[k] < 4:
            c = list(counts)
            c[k] += 1
            if ref_is_win(c, jokers):
                out.append(k)
    return out


# --------------------------------------------------------------------------------------------------
# Decompositions


def G(kind: str, text: str = "", wild: int = 0) -> Group:
    return Group(kind, tuple(parse_tiles(text)), wild)


def test_decompositions_examples_from_the_contract() -> None:
    # 1m2m + J -> chow 1-2-3 (and nothing else: 12m with one joker is only that chow)
    assert decompositions(C("12m 55z"), 1) == [(G("chow", "123m", 1), G("pair", "55z"))]
    # 4m + 2 J: the chows 2-3-4, 3-4-5, 4-5-6 and the pung, each with 2 jokers; or 44m(J) + 111z(J)
    got = decompositions(C("4m 11z"), 2)
    assert {tuple(d) for d in got} == {
        (G("chow", "234m", 2), G("pair", "11z")),
        (G("chow", "345m", 2), G("pair", "11z")),
        (G("chow", "456m", 2), G("pair", "11z")),
        (G("pung", "444m", 2), G("pair", "11z")),
        (G("pair", "44m", 1), G("pung", "111z", 1)),
    }
    assert len(got) == 5


def test_decompositions_wild_groups_and_fifth_copy() -> None:
    got = decompositions(C("55z"), 3)
    assert set(got) == {
        (G("pair", "55z"), G("wild_set", "", 3)),
        (G("pung", "555z", 1), G("wild_pair", "", 2)),
        (G("pair", "55z", 1), G("pung", "555z", 2)),  # 5 faces of 5z: a joker may be a "5th copy"
    }
    assert decompositions(C(""), 2) == [(G("wild_pair", "", 2),)]
    assert decompositions(C(""), 5) == [(G("wild_set", "", 3), G("wild_pair", "", 2))]


def test_decompositions_score_maximisation_splits() -> None:
    # docs/rules/common.md#best-reading: 111222333m can be three pungs or three identical chows
    got = decompositions(C("111222333m 456p 99s"), 0)
    assert {tuple(g.kind for g in d) for d in got} == {
        ("pung", "pung", "pung", "chow", "pair"),
        ("chow", "chow", "chow", "chow", "pair"),
    }
    assert decompositions(C("123m 456m 789p 111z 2z 3z"), 0) == []


def test_decompositions_sorted_distinct_and_ordered() -> None:
    got = decompositions(C("1112345678999m 5m"), 0)
    assert len(got) == len(set(got)) >= 1
    assert got == sorted(got, key=lambda d: [decompose.GROUPS.index(g) for g in d])


def test_decompositions_speed_smoke() -> None:
    """Guard against exponential blow-ups with many jokers (杀猪胡 hands hold up to 6)."""
    import time

    t0 = time.perf_counter()
    got = decompositions(C("123m 456p 789s 11z"), 6)
    assert got and time.perf_counter() - t0 < 5


# --------------------------------------------------------------------------------------------------
# Hypothesis: agreement with the references

MELDS = [("chow", s + 9 * su) for su in range(3) for s in range(7)] + [("pung", t) for t in range(34)]


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, ...] = (14, 17), max_jokers: int = 3) -> tuple[list[int], int]:
    """A count vector and a joker count, size in ``sizes``; complete, nearly complete, or random."""
    size = draw(st.sampled_from(sizes))
    jokers = draw(st.integers(0, min(max_jokers, size)))
    mode = draw(st.sampled_from(["complete", "near", "random"]))
    if mode == "random":
        tiles = draw(st.lists(st.integers(0, 33), min_size=size - jokers, max_size=size - jokers))
    else:
        n_sets, extra = divmod(size - 2, 3)
        tiles = []
        for kind, t in draw(st.lists(st.sampled_from(MELDS), min_size=n_sets, max_size=n_sets)):
            tiles += [t, t + 1, t + 2] if kind == "chow" else [t] * 3
        tiles += [draw(st.integers(0, 33))] * 2
        tiles += draw(st.lists(st.integers(0, 33), min_size=extra, max_size=extra))
        tiles = draw(st.permutations(tiles))[jokers:]
        if mode == "near" and tiles:
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    counts = counts_of(tiles)
    assume(max(counts) <= 4)
    return counts, jokers


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@SETTINGS
@given(hands())
def test_is_win_matches_reference(h: tuple[list[int], int]) -> None:
    counts, jokers = h
    assert is_win(counts, jokers) == ref_is_win(counts, jokers)
    assert HandCode.from_counts(counts).is_win(jokers) == ref_is_win(counts, jokers)


@SETTINGS
@given(hands(max_jokers=3))
def test_decompositions_nonempty_iff_win_and_use_exactly_the_tiles(h: tuple[list[int], int]) -> None:
    counts, jokers = h
    decs = decompositions(counts, jokers)
    assert bool(decs) == is_win(counts, jokers)
    assert len(set(decs)) == len(decs)
    for dec in decs:
        assert sum(1 for g in dec if g.kind in ("pair", "wild_pair")) == 1
        assert sum(g.wild for g in dec) == jokers
        for g in dec:
            size = 2 if "pair" in g.kind else 3
            assert len(g.tiles) == (0 if g.kind.startswith("wild") else size)
            assert g.wild == size if g.kind.startswith("wild") else 0 <= g.wild < size
        assert _assignable(
            [(g.kind, tuple(int(t) for t in g.tiles), g.wild) for g in dec if not g.kind.startswith("wild")],
            counts,
        )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(hands(sizes=(5, 8), max_jokers=3))
def test_decompositions_exhaustive_on_small_hands(h: tuple[list[int], int]) -> None:
    counts, jokers = h
    assert {_plain(d) for d in decompositions(counts, jokers)} == ref_decompositions(counts, jokers)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(hands(sizes=(13, 16), max_jokers=2))
def test_waits_match_reference(h: tuple[list[int], int]) -> None:
    counts, jokers = h
    assert [int(t) for t in waits(counts, jokers)] == _ref_waits(counts, jokers)


# --------------------------------------------------------------------------------------------------
# Tables


def test_table_sample_matches_recursive_definition() -> None:
    rng = random.Random(2024)
    for _ in range(3000):
        digits = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        code = sum(d * 5**r for r, d in enumerate(digits))
        assert hand.suit_needs(code) == (_ref_need(digits, False, False), _ref_need(digits, True, False)), (
            digits
        )
    for _ in range(500):
        digits = tuple(rng.randrange(5) for _ in range(7))
        code = sum(d * 5**r for r, d in enumerate(digits))
        n0 = sum(_ref_need((d,), False, True) for d in digits)
        d_min = min([2] + [_ref_need((d,), True, True) - _ref_need((d,), False, True) for d in digits])
        assert hand.honour_needs(code) == (n0, n0 + d_min), digits


def test_runtime_tables_are_the_shipped_bytes_read_through_value() -> None:
    """The tables stay one byte per code, as shipped (2 MB, not a 15.6 MB list of pointers per process), and
    ``VALUE`` turns each of the 256 bytes ``NEED0 << 2 | (NEED1 − NEED0 + 1)`` into what a hand's sum adds
    (``_need`` reads a value back, as ``suit_needs`` does)."""
    suit, honour, value, _dmin = hand.win_tables()
    payload = hand_tables.read_table_payload()
    assert (type(suit), type(honour)) == (bytes, bytes)
    assert suit == payload[: hand_tables.SUIT_KEYS] and honour == payload[hand_tables.SUIT_KEYS :]
    assert len(value) == 256
    for byte in range(256):  # D = NEED1 − NEED0 is −1 (a pair: suit_needs(2) == (1, 0)) to 2
        need0, d = byte >> 2, (byte & 3) - 1
        assert hand._need(value[byte]) == (need0, need0 + d), byte


def test_table_extremes() -> None:
    assert hand.suit_needs(0) == (0, 2)
    assert hand.suit_needs(1) == (2, 1)  # a single: pung with 2 jokers, or pair with 1
    assert hand.suit_needs(2) == (1, 0)
    assert hand.suit_needs(5**9 - 1) == (_ref_need((4,) * 9, False, False), _ref_need((4,) * 9, True, False))


def test_shipped_tables_equal_a_rebuild() -> None:
    """The generated file is reproducible: ``python -m engine.hand_tables --check`` rebuilds it (~1-2 s) and
    compares, run as a command as a maintainer would (``python -m engine.hand`` once failed on an import
    cycle there)."""
    done = subprocess.run([sys.executable, "-m", "engine.hand_tables", "--check"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "tables match a rebuild"), done.stderr


def test_table_command_refuses_unknown_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert hand_tables.main(["--rebuild"]) == 2
    assert "usage: python -m engine.hand_tables --build | --check" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------------
# python -m engine waits


def run_waits(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object] | None, str]:
    rc = waits_main(list(argv))
    out, err = capsys.readouterr()
    return rc, (json.loads(out) if rc == 0 else None), err


def test_cli_waits_basic(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_waits(capsys, "--variant", "taiwan", "123m 456m 789p 234s 56s 11z")
    assert rc == 0 and out == {"hand": "123456m789p23456s11z", "complete": False, "waits": ["1s", "4s", "7s"]}
    rc, out, _ = run_waits(capsys, "waits", "--variant", "tiantai", "1112345678999m 5m")
    assert rc == 0 and out is not None and out["complete"] is True and out["waits"] == []


def test_cli_waits_tiantai_has_no_s(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_waits(capsys, "--variant", "tiantai", "123m 456m 789p 1z")
    assert rc == 0 and out is not None and out["waits"] == ["1z"]
    rc, _, err = run_waits(capsys, "--variant", "tiantai", "123m 456m 789s 1z")
    assert rc == 2 and "'7s'" in err


def test_cli_waits_taipao_wildcards(capsys: pytest.CaptureFixture[str]) -> None:
    # 12 tiles in sets + 1z 5z + two 9m 財神: 1z/5z pair up with a joker; drawing a 財神 face also wins
    rc, out, _ = run_waits(
        capsys, "--variant", "taipao", "--wildcards", "9m,7p", "123m 456p 789s 123s 1z 5z 9m 9m"
    )
    assert rc == 0 and out is not None and out["waits"] == ["9m", "7p", "1z", "5z"]
    # 白 is a bonus tile in 台炮 unless it is a 財神 face
    rc, _, err = run_waits(capsys, "--variant", "taipao", "123m 456p 789s 123s 7z")
    assert rc == 2 and "'7z'" in err
    rc, out, _ = run_waits(capsys, "--variant", "taipao", "123m 456p 789s 123s 1z")
    assert rc == 0 and out is not None
    assert isinstance(out["waits"], list) and "7z" not in out["waits"] and "1z" in out["waits"]
    rc, out, _ = run_waits(capsys, "--variant", "taipao", "--wildcards", "7z", "123m 456p 789s 123s 1z 7z")
    assert rc == 0 and out is not None and out["complete"] is True


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["--variant", "taiwan", "123x"], "'x'"),
        (["--variant", "taiwan", "123m 0p"], "'0p'"),
        (["--variant", "taiwan", "11111m"], "'1m'"),
        (["--variant", "taiwan", "123m 1f"], "'1f'"),
        (["--variant", "taiwan", "--wildcards", "1m", "123m 4m"], "'1m'"),
        (["--variant", "taipao", "--wildcards", "1q", "123m 4m"], "'q'"),
        (["--variant", "taiwan", "123m"], "3 tiles"),
    ],
)
def test_cli_waits_errors(capsys: pytest.CaptureFixture[str], argv: list[str], token: str) -> None:
    rc, _, err = run_waits(capsys, *argv)
    assert rc == 2 and token in err


def test_cli_waits_bad_variant(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_waits(capsys, "--variant", "riichi", "123m")
    assert rc == 2 and "riichi" in err
