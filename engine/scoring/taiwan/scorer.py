"""台灣16張 scorer: the seed 003 台 table, maximised over every reading of the hand (docs/rules/taiwan.md#tai-table)."""

from __future__ import annotations

from engine.scoring.names import item_name
from engine.scoring.readings import candidates, check_winner_tiles
from engine.scoring.result import ScoreItem, ScoreResult, SeatScore
from engine.scoring.rule_table import counted_hits, items_of
from engine.scoring.situation import SELF_DRAWN_KINDS, Situation, WinKind
from engine.scoring.taiwan.features import build_hand, build_shape
from engine.scoring.taiwan.options import Options, resolve
from engine.scoring.taiwan.settle import dealer_tai, eye_declarers, payers, payments
from engine.tiles import FLOWER_BASE

VARIANT = "taiwan"
N_SEATS = 4
HAND_TILES = 17  # a winner's tiles, each kong counted as 3 (docs/rules/taiwan.md#tiles)
FLOWER_WINS = (WinKind.EIGHT_FLOWERS, WinKind.SEVEN_ROB_ONE)
WIN_KINDS = frozenset(
    {WinKind.DISCARD, WinKind.SELF_DRAW, WinKind.KONG_REPLACEMENT, WinKind.FLOWER_REPLACEMENT,
     WinKind.ROB_KONG, *FLOWER_WINS}
)


def seat_wind_index(seat: int, open_seat: int) -> int:
    """隨開門 (docs/rules/taiwan.md#winds): 開門 is 東, its 下家 南, 對家 西, 上家 北."""
    return (seat - open_seat) % N_SEATS


def score(s: Situation) -> ScoreResult:
    """Score a finished 台灣 hand (docs/rules/taiwan.md)."""
    opts = resolve(s.options)
    _check(s, opts)
    if s.is_draw:
        return ScoreResult(VARIANT, tuple(SeatScore(i) for i in range(N_SEATS)), (), ("流局: nobody pays",))
    w = s.winners[0]
    items, hand_tai = _hand_items(s, w, opts)
    seats: list[list[ScoreItem]] = [[] for _ in range(N_SEATS)]
    totals: list[dict[str, int]] = [{} for _ in range(N_SEATS)]
    seats[w] = list(items)
    totals[w]["tai"] = hand_tai
    who_pays = payers(s, w)
    if s.dealer == w or s.dealer in who_pays:  # 莊家台 shown where it is paid (docs/rules/taiwan.md#dealer-tai)
        seats[s.dealer].extend(_dealer_items(s, opts))
        totals[s.dealer]["dealer_tai"] = dealer_tai(s, opts)
    declarers = eye_declarers(s, w)
    for p in declarers:
        seats[p].append(_item("eye_penalty", opts.values["eye_penalty"]))
    result_seats = tuple(SeatScore(i, tuple(seats[i]), totals[i]) for i in range(N_SEATS))
    return ScoreResult(VARIANT, result_seats, payments(s, w, hand_tai, opts, who_pays, declarers))


def _item(key: str, value: int) -> ScoreItem:
    """An item outside the rule table (SPECIAL_ITEMS), named from engine.scoring.names."""
    return ScoreItem(key, item_name(VARIANT, key), value)


def _dealer_items(s: Situation, opts: Options) -> list[ScoreItem]:
    out = [_item("dealer", opts.values["dealer"])]
    if s.dealer_streak:
        out.append(_item("dealer_streak", opts.values["dealer_streak"] * s.dealer_streak))
    return out


def _hand_items(s: Situation, w: int, opts: Options) -> tuple[tuple[ScoreItem, ...], int]:
    """The winner's 台 items (without 莊家台) and their sum."""
    kind = s.win_kind
    if kind in FLOWER_WINS:  # 八仙過海 / 七搶一 exclude everything else (docs/rules/taiwan.md#eight-immortals, docs/rules/taiwan.md#seven-rob-one)
        assert kind is not None
        key = kind.value
        value = opts.values[key]
        return (_item(key, value),), value
    assert s.open_seat is not None
    hand = build_hand(s, w, seat_wind_index(w, s.open_seat))
    active = opts.active
    best_hits = None
    best = -1
    for cand in candidates(hand.counts, s.winning_tile):
        hits = counted_hits(build_shape(hand, cand), active)
        tai = sum(v for _, v in hits)
        if tai > best:
            best, best_hits = tai, hits
    assert best_hits is not None
    return items_of(best_hits), best


def _check(s: Situation, opts: Options) -> None:
    """Who won how, and whether the tiles fit (docs/rules/taiwan.md)."""
    if s.n_seats != N_SEATS:
        raise ValueError(f"台灣 is played by {N_SEATS} seats, got {s.n_seats}")
    if not 0 <= s.dealer < N_SEATS:
        raise ValueError(f"dealer {s.dealer} is not a seat")
    if not 0 <= s.round_wind <= 3 or s.dealer_streak < 0:
        raise ValueError(f"round_wind must be 0..3 and dealer_streak ≥ 0, got {s.round_wind}, {s.dealer_streak}")
    if not opts.accept_eye_declaration and any(seat.declaration for seat in s.seats):
        raise ValueError("this room does not accept 眼牌 / Miji (accept_eye_declaration is off)")
    if s.is_draw:
        if s.win_kind is not None or s.discarder is not None:
            raise ValueError("a drawn hand has no win_kind or discarder")
        return
    if len(s.winners) != 1:
        raise ValueError(f"台灣 has one winner (截胡, C-17), got {list(s.winners)}")
    w = s.winners[0]
    kind = s.win_kind
    if not 0 <= w < N_SEATS:
        raise ValueError(f"winner {w} is not a seat")
    if kind not in WIN_KINDS:
        raise ValueError(f"win_kind {kind!r} is not a 台灣 win")
    if s.open_seat is None or not 0 <= s.open_seat < N_SEATS:
        raise ValueError("台灣 needs open_seat (開門, 0..3) to know the 隨開門 winds")
    fed = kind in (WinKind.DISCARD, WinKind.ROB_KONG)
    if fed and (s.discarder is None or not 0 <= s.discarder < N_SEATS or s.discarder == w):
        raise ValueError(f"a {kind.value} win needs the discarder (or konger): another seat")
    if not fed and s.discarder is not None:
        raise ValueError(f"a {kind.value} win has no discarder")
    if kind in FLOWER_WINS:
        _check_flower_win(s, w, kind)
    else:
        _check_tiles(s, w)
    _check_first_turn(s, w, kind)


def _check_first_turn(s: Situation, w: int, kind: WinKind) -> None:
    if s.heavenly and (w != s.dealer or kind not in SELF_DRAWN_KINDS):
        raise ValueError("天胡 is the dealer's self-drawn win on the dealt hand")
    if s.earthly and (w == s.dealer or kind not in SELF_DRAWN_KINDS):
        raise ValueError("台灣 地胡 is a non-dealer's self-drawn win on the first draw (C-16)")
    if s.human and (w == s.dealer or kind is not WinKind.DISCARD):
        raise ValueError("人胡 is a non-dealer's win on a discard before the first draw")


def _check_tiles(s: Situation, w: int) -> None:
    check_winner_tiles(s, w, HAND_TILES, "台灣")


def _check_flower_win(s: Situation, w: int, kind: WinKind) -> None:
    held = [len(set(seat.flowers) & _FLOWERS) for seat in s.seats]
    if kind is WinKind.EIGHT_FLOWERS and held[w] != 8:
        raise ValueError(f"八仙過海: seat {w} must hold all 8 flowers, holds {held[w]}")
    if kind is WinKind.SEVEN_ROB_ONE:
        others = [p for p in range(N_SEATS) if p != w and held[p]]
        if held[w] != 7 or len(others) != 1 or held[others[0]] != 1:
            raise ValueError(f"七搶一: seat {w} must hold 7 flowers and one other seat the 8th, got {held}")


_FLOWERS = frozenset(range(FLOWER_BASE, FLOWER_BASE + 8))
