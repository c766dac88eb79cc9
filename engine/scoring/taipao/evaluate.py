"""Scoring one seat: B for everyone, and the winner's best reading (docs/rules/common.md#best-reading, docs/rules/taipao.md#scoring)."""

from __future__ import annotations

from engine.decompose import decompositions
from engine.melds import MeldKind
from engine.scoring.result import ScoreItem
from engine.scoring.rule_table import drop_replaced
from engine.scoring.situation import KongKind, Situation, WinKind
from engine.scoring.taipao.held import Held
from engine.scoring.taipao.items import SeatResult, item
from engine.scoring.taipao.options import Options
from engine.scoring.taipao.rules import RULES
from engine.scoring.taipao.shape import Reading, Shape, meld_part, nonwinner_shape, readings
from engine.scoring.taipao.table import BASE, Hit, Rule, Win, evaluate, evaluate_held
from engine.tiles import format_tiles

RULE = {r.key: r for r in RULES}
FED = (WinKind.DISCARD, WinKind.ROB_KONG)
NORMAL_KINDS = frozenset(WinKind) - {WinKind.KILL_PIG, WinKind.EIGHT_FLOWERS, WinKind.SEVEN_ROB_ONE}
KONG_MELD = {KongKind.EXPOSED: MeldKind.KONG, KongKind.ADDED: MeldKind.KONG, KongKind.CONCEALED: MeldKind.AKONG}


def _order(hit: Hit) -> int:
    return hit[0].order


def _items(hits: list[Hit]) -> tuple[ScoreItem, ...]:
    if len(hits) > 1:
        hits = sorted(hits, key=_order)
    return tuple([item(r, v) for r, v in hits])


def _sums(hits: list[Hit]) -> tuple[int, int]:
    base = bonus = 0
    for r, v in hits:
        if r.layer == BASE:
            base += v
        else:
            bonus += v
    return base, bonus


def score_loser(h: Held, opts: Options) -> SeatResult:
    """B of a non-winner: 財神 placed where they add most (B-20); never doubled."""
    hits = evaluate_held(opts.seat_base, h)
    if opts.shape_base:
        hits += evaluate(opts.shape_base, h, nonwinner_shape(h, h.melded))
    if not hits:
        return SeatResult(h.seat, 0, 0, ())
    # seat rules come before shape rules in the table, so ``hits`` is already in display order
    base = 0
    items = []
    for r, v in hits:
        base += v
        items.append(item(r, v))
    return SeatResult(h.seat, base, 0, tuple(items))


def win_of(sit: Situation, h: Held) -> Win:
    """Check how a normal win happened; ValueError names what is impossible."""
    kind = sit.win_kind
    assert kind is not None
    if kind in FED and (sit.discarder is None or sit.discarder == h.seat or not 0 <= sit.discarder < 4):
        raise ValueError(f"a {kind.value} win needs the feeding seat in 'discarder' (not the winner)")
    if kind is WinKind.KONG_REPLACEMENT:
        if sit.kong_kind is None:
            raise ValueError("a kong_replacement win needs kong_kind")
        kongs = [m for m in h.melds if m.kind is KONG_MELD[sit.kong_kind]]
        if sit.kong_tile is not None:
            kongs = [m for m in kongs if m.tiles[0] == sit.kong_tile]
        if not kongs:
            raise ValueError(f"winner {h.seat} has no {sit.kong_kind.value} meld for the kong replacement win")
    if sit.heavenly and h.seat != sit.dealer:
        raise ValueError("天胡 is the dealer's win (docs/rules/taipao.md#heavenly-earthly)")
    if sit.earthly and h.seat == sit.dealer:
        raise ValueError("地胡 is a non-dealer's win (docs/rules/taipao.md#heavenly-earthly)")
    if sit.winning_tile is not None and sit.winning_tile not in sit.seats[h.seat].concealed:
        raise ValueError(f"the winning tile {sit.winning_tile} is not in the winner's concealed tiles")
    return Win(kind, sit.kong_kind, sit.kong_tile, sit.heavenly, sit.earthly)


def score_winner(h: Held, win: Win, opts: Options) -> SeatResult:
    """The highest-scoring reading of the winner's hand: B and X together (docs/rules/common.md#best-reading; seed 002:L72)."""
    fixed = evaluate_held(opts.seat_base, h) + evaluate(opts.win_bonus_for[win.kind], h, win)
    fixed_total = 0
    fixed_replaces = False
    for r, v in fixed:
        fixed_total += v
        fixed_replaces = fixed_replaces or bool(r.replaces)
    shape_rules = opts.shape_all
    splits = decompositions(h.counts, h.jokers)
    best: list[Hit] = []
    best_total = -1
    best_at: tuple[Shape, int, tuple[int, ...]] | None = None
    seen: set[Shape] = set()
    for shape, index, faces in readings(h, splits, meld_part(h)):
        if shape in seen:
            continue
        seen.add(shape)
        hits = evaluate(shape_rules, h, shape)
        total = fixed_total
        replaces = fixed_replaces
        for r, v in hits:
            total += v
            replaces = replaces or bool(r.replaces)
        if replaces:
            hits = drop_replaced(fixed + hits)
            total = sum(v for _, v in hits)
            if total > best_total:
                best, best_total, best_at = hits, total, (shape, index, faces)
        elif total > best_total:
            best, best_total, best_at = fixed + hits, total, (shape, index, faces)
    if best_at is None:
        raise ValueError(f"winner {h.seat}'s concealed tiles do not form a winning hand (5 sets + 1 pair)")
    base, bonus = _sums(best)
    reading = Reading(best_at[0], splits[best_at[1]], best_at[2])
    return SeatResult(h.seat, base, bonus, _items(best), reading)


def score_special(h: Held, kind: WinKind, opts: Options) -> SeatResult:
    """Plain 杀猪 or 花胡: the item's value is the whole X and B is not added (docs/rules/taipao.md#winner-items, B-12, B-26)."""
    if kind is WinKind.KILL_PIG:
        r: Rule = RULE["shazhu"]
        value = r.fn(h, opts.values["shazhu"])
    else:
        if opts.eight_flowers == "off":
            raise ValueError("the eight-flower win (花胡) is off in this room (option eight_flowers)")
        r = RULE["huahu"]
        table_value = opts.values["huahu"] if opts.eight_flowers == "lingxi" else opts.values["shazhu"][0]
        value = r.fn(h, table_value)
    return SeatResult(h.seat, 0, value, (item(r, value),))


_TEXT: dict[tuple[int, ...], str] = {}


def _text(tiles: tuple[int, ...]) -> str:
    got = _TEXT.get(tiles)
    if got is None:
        got = _TEXT[tiles] = format_tiles(tiles)
    return got


def describe(rd: Reading) -> str:
    """The chosen split, e.g. ``123m 555z 11p 財神→1z 5z`` (faces of the pure-財神 groups)."""
    parts = [_text(g.tiles) for g in rd.groups if g.tiles]
    if rd.wild_faces:
        parts.append("財神→" + " ".join(_text((f,)) for f in rd.wild_faces))
    return " ".join(parts)
