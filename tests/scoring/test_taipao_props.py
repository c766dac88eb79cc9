"""台炮 properties over random winning tables (hypothesis): payments balance, are positive integers, and the
winner collects exactly 4W (non-dealer: 2W + W + W) or 6W (dealer) — docs/rules/taipao.md#settlement, docs/rules/rooms.md#points."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.melds import Meld, MeldKind
from engine.scoring import KongKind, SeatHand, Situation, WinKind, score
from engine.tiles import TILES, Tile

WHITE = 33
PLAYABLE = list(range(34))


@st.composite
def groups(draw: st.DrawFn, allowed: list[int]) -> tuple[str, int]:
    """("chow" | "pung", first face) using only ``allowed`` faces."""
    chow_starts = [k for k in allowed if k < 27 and k % 9 <= 6 and k + 1 in allowed and k + 2 in allowed]
    if chow_starts and draw(st.booleans()):
        return "chow", draw(st.sampled_from(chow_starts))
    return "pung", draw(st.sampled_from(allowed))


def faces_of(kind: str, first: int) -> list[int]:
    return [first, first + 1, first + 2] if kind == "chow" else [first] * 3


@st.composite
def tables(draw: st.DrawFn) -> Situation:
    wild = draw(st.lists(st.integers(0, 41), min_size=1, max_size=2, unique=True))
    white_bonus = WHITE not in wild
    natural = [k for k in PLAYABLE if k not in wild and not (k == WHITE and white_bonus)]
    used = [0] * 42

    def take(faces: list[int]) -> bool:
        if any(used[f] + faces.count(f) > 4 for f in set(faces)):
            return False
        for f in faces:
            used[f] += 1
        return True

    dealer = draw(st.integers(0, 3))
    winner = draw(st.integers(0, 3))
    # the winner: 5 sets + a pair, some sets exposed, some tiles replaced by 財神
    concealed: list[int] = []
    melds: list[Meld] = []
    while len(melds) + len(concealed) // 3 < 5:
        kind, first = draw(groups(natural))
        faces = faces_of(kind, first)
        exposed = draw(st.sampled_from(["no", "no", "meld", "kong"]))
        if exposed == "kong" and kind == "pung":
            if take([first] * 4):
                mk = draw(st.sampled_from([MeldKind.KONG, MeldKind.AKONG]))
                melds.append(Meld(mk, (TILES[first],) * 4, None, None, draw(st.booleans())))
        elif take(faces):
            if exposed == "meld":
                melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PONG, tuple(TILES[f] for f in faces)))
            else:
                concealed.extend(faces)
    pair = draw(st.sampled_from([k for k in natural if used[k] <= 2]))
    take([pair, pair])
    concealed += [pair, pair]
    wild_copies = [f for f in wild for _ in range(1 if f >= 34 else 4)]
    n_jokers = draw(st.integers(0, min(4, len(concealed), len(wild_copies))))
    for i in range(n_jokers):
        concealed[i] = wild_copies[i % len(wild_copies)]
    seats: list[SeatHand] = []
    rnd = draw(st.randoms(use_true_random=False))
    flowers_left = [f for f in range(34, 42) if f not in wild] + ([WHITE] * 4 if white_bonus else [])
    for s in range(4):
        fl = draw(st.lists(st.sampled_from(flowers_left), max_size=3, unique=True)) if flowers_left else []
        fl = [f for f in fl if f == WHITE or used[f] == 0]
        for f in fl:
            used[f] += 1
        if s == winner:
            seats.append(SeatHand(tuple(TILES[t] for t in concealed), tuple(melds), tuple(TILES[f] for f in fl)))
            continue
        pool = natural + [f for f in wild if f < 34 or f == WHITE]
        tiles: list[int] = []
        while len(tiles) < 16:
            t = rnd.choice(pool)
            if tiles.count(t) < 4:
                tiles.append(t)
        seats.append(SeatHand(tuple(TILES[t] for t in tiles), (), tuple(TILES[f] for f in fl)))
    kinds = [WinKind.DISCARD, WinKind.SELF_DRAW, WinKind.FLOWER_REPLACEMENT, WinKind.ROB_KONG, WinKind.SPLIT_DEAL]
    kongs = [m for m in melds if m.is_kong]
    if kongs:
        kinds.append(WinKind.KONG_REPLACEMENT)
    kind = draw(st.sampled_from(kinds))
    extra: dict[str, Any] = {}
    if kind in (WinKind.DISCARD, WinKind.ROB_KONG):
        extra["discarder"] = draw(st.sampled_from([s for s in range(4) if s != winner]))
    if kind is WinKind.KONG_REPLACEMENT:
        k = draw(st.sampled_from(kongs))
        extra["kong_kind"] = (KongKind.CONCEALED if k.kind is MeldKind.AKONG
                              else KongKind.ADDED if k.added else KongKind.EXPOSED)
        extra["kong_tile"] = k.tiles[0]
    options = {"sifeng_baopei": draw(st.booleans()), "shazhu_losers_settle": draw(st.booleans())}
    return Situation("taipao", tuple(seats), dealer, (winner,), win_kind=kind,
                     wildcards=tuple(Tile(f) for f in wild), options=options, **extra)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(tables())
def test_payments_balance_and_winner_collects_4w_or_6w(sit: Situation) -> None:
    res = score(sit)
    assert sum(res.net) == 0
    assert all(isinstance(p.points, int) and p.points > 0 and p.payer != p.payee for p in res.payments)
    w = sit.winners[0]
    totals = res.seats[w].totals
    t = totals["base"] + totals["bonus"]
    assert totals["total"] == t and totals["score"] == (2 * t if t >= 13 else t)
    assert res.net[w] == totals["score"] * (6 if w == sit.dealer else 4)
    assert all(p.payee != w or p.reason in ("win", "sifeng_baopei") for p in res.payments)
