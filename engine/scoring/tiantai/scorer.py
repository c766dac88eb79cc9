"""天台 scorer: S = min(ceil(H · 2^T / 10) · 10, cap), maximised over every reading of the hand."""

from __future__ import annotations

from engine.scoring.names import item_name
from engine.scoring.readings import candidates, check_winner_tiles
from engine.scoring.result import ScoreItem, ScoreResult, SeatScore
from engine.scoring.rule_table import CountedRule, counted_hits, items_of
from engine.scoring.situation import SELF_DRAWN_KINDS, Situation, WinKind
from engine.scoring.tiantai.features import Shape, build_hand, build_shape
from engine.scoring.tiantai.options import Options, resolve
from engine.scoring.tiantai.rules import HU
from engine.scoring.tiantai.settle import payments

VARIANT = "tiantai"
FLAT_ITEMS = ("heavenly", "earthly", "eight_flowers")  # flat scores outside the rule table (A-8, docs/rules/tiantai.md#eight-flowers)
N_SEATS = 3
HAND_TILES = 14  # a winner's tiles, a kong counted as 3 (docs/rules/tiantai.md#winning-hand)
WIN_KINDS = frozenset(
    {WinKind.DISCARD, WinKind.SELF_DRAW, WinKind.KONG_REPLACEMENT, WinKind.FLOWER_REPLACEMENT,
     WinKind.ROB_KONG, WinKind.EIGHT_FLOWERS}
)

# 2^64 胡 is past any cap: counting more doublings would only cost time (issue 9)
MAX_DOUBLINGS = 64


def score(s: Situation) -> ScoreResult:
    """Score a finished 天台 hand (docs/rules/tiantai.md#scoring)."""
    opts = resolve(s.options)
    _check(s)
    if s.is_draw:
        return ScoreResult(VARIANT, tuple(SeatScore(i) for i in range(N_SEATS)), (), ("流局: nobody pays",))
    seats: list[SeatScore] = []
    scores: dict[int, int] = {}
    notes: list[str] = []
    for i in range(N_SEATS):
        if i in s.winners:
            seat = _score_winner(s, i, opts)
            scores[i] = seat.totals["score"]
            seats.append(seat)
            raw = seat.totals.get("raw", 0)
            if raw > opts.cap:
                notes.append(f"seat {i}: {raw} 胡 capped at {opts.cap}")
        else:
            seats.append(SeatScore(i))
    return ScoreResult(VARIANT, tuple(seats), payments(s, scores, opts), tuple(notes))


def seat_wind_index(s: Situation, seat: int, opts: Options) -> int:
    """Wind index 0..3 of ``seat`` (dealer 東, 下家 南, 上家 北 or 西: docs/rules/tiantai.md#seat-winds, A-1)."""
    return opts.winds[(seat - s.dealer) % N_SEATS]


def _score_winner(s: Situation, w: int, opts: Options) -> SeatScore:
    hand_seat = s.seats[w]
    kind = s.win_kind
    assert kind is not None
    if kind is WinKind.EIGHT_FLOWERS:
        if not opts.eight_flowers:
            raise ValueError("天台 has no eight-flower win unless the room enables option 'eight_flowers'")
        if len(set(hand_seat.flowers)) != 8:
            raise ValueError(f"seat {w} wins by eight flowers but holds {len(hand_seat.flowers)}")
        return _flat(w, "eight_flowers", opts.cap)
    _check_tiles(s, w)
    hand = build_hand(hand_seat, seat_wind_index(s, w, opts), kind, s.last_tile)
    if hand.suits & 4:
        raise ValueError(f"seat {w} holds 條 (s) tiles, which 天台 does not have")
    cands = candidates(hand.counts, s.winning_tile)
    if s.heavenly:
        return _flat(w, "heavenly", int(opts.heavenly * opts.cap))
    if s.earthly:
        return _flat(w, "earthly", int(opts.earthly * opts.cap))
    best: tuple[int, int, int, int, list[tuple[CountedRule[Shape], int]]] | None = None
    active = opts.active
    for cand in cands:
        hits = counted_hits(build_shape(hand, cand), active)
        hu = tai = 0
        for r, v in hits:
            if r.unit == HU:
                hu += v
            else:
                tai += v
        raw = hu << min(tai, MAX_DOUBLINGS)  # past the cap either way; keeps the cost flat
        final = min(-(-raw // 10) * 10, opts.cap)
        if best is None or (final, raw) > (best[0], best[1]):
            best = (final, raw, hu, tai, hits)
    assert best is not None
    final, raw, hu, tai, hits = best
    return SeatScore(w, items_of(hits), {"hu": hu, "tai": tai, "raw": raw, "score": final})


def _flat(w: int, key: str, value: int) -> SeatScore:
    return SeatScore(w, (ScoreItem(key, item_name(VARIANT, key), value, HU),), {"score": value})


def _check_tiles(s: Situation, w: int) -> None:
    check_winner_tiles(s, w, HAND_TILES, "天台")


def _check(s: Situation) -> None:
    """Consistency of who won how (docs/rules/tiantai.md#multiple-wins, docs/rules/tiantai.md#robbing, docs/rules/tiantai.md#heavenly-earthly)."""
    if s.n_seats != N_SEATS:
        raise ValueError(f"天台 is played by {N_SEATS} seats, got {s.n_seats}")
    if not 0 <= s.dealer < N_SEATS:
        raise ValueError(f"dealer {s.dealer} is not a seat")
    if s.is_draw:
        if s.win_kind is not None or s.discarder is not None:
            raise ValueError("a drawn hand has no win_kind or discarder")
        return
    kind = s.win_kind
    if kind not in WIN_KINDS:
        raise ValueError(f"win_kind {kind!r} is not a 天台 win")
    if len(set(s.winners)) != len(s.winners) or any(not 0 <= w < N_SEATS for w in s.winners):
        raise ValueError(f"winners {list(s.winners)} must be distinct seats 0..{N_SEATS - 1}")
    if len(s.winners) > 1 and kind is not WinKind.DISCARD:
        raise ValueError("several winners (一炮多響) are only possible on a discard (docs/rules/tiantai.md#multiple-wins, docs/rules/tiantai.md#robbing)")
    fed = kind in (WinKind.DISCARD, WinKind.ROB_KONG)
    if fed and (s.discarder is None or not 0 <= s.discarder < N_SEATS or s.discarder in s.winners):
        raise ValueError(f"a {kind.value} win needs the discarder (or konger): a seat that did not win")
    if not fed and s.discarder is not None:
        raise ValueError(f"a {kind.value} win has no discarder")
    if s.human:
        raise ValueError("天台 has no 人胡 (Situation.human)")
    if s.heavenly and (s.winners != (s.dealer,) or kind not in SELF_DRAWN_KINDS):
        raise ValueError("天胡 is the dealer's self-drawn win (docs/rules/tiantai.md#heavenly-earthly)")
    if s.earthly and (kind is not WinKind.DISCARD or s.discarder != s.dealer):
        raise ValueError("天台 地胡 is a non-dealer's win on the dealer's first discard (docs/rules/tiantai.md#heavenly-earthly)")
