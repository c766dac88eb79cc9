"""The ``normal`` bot: plays for tile efficiency (牌效) from its own sight only.

* Discards: the fewest wildcards still needed (``need``, see ``engine.bots.shanten``), then the most
  useful draws (進張) counted against the tiles this seat has not seen, then the loneliest tile.  Where the
  variant has :data:`DRAW_WEIGHTS` (天台: 胡 × 2^台), a discard's 進張 count double for each 台 the hand
  left keeps in reach (dragon / seat-wind pairs and pungs, a one-suit shape): a tie-break by value among
  discards of equal need, never a step away from ready.
* Claims (吃 碰 槓) only when the claim lowers the 向聽 (counted in exchanges) or gains 台 (a pung of a
  dragon or of the own seat / round wind); kongs when they do not cost shape.
* Takes every win (胡, 杀猪); never declares 聽 / 眼牌 / Miji.

Everything is computed from :func:`engine.bots.shanten.sight` — the seat's own hand and public tiles.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.actions import Action, ActionKind
from engine.bots.easy import isolation
from engine.bots.registry import register
from engine.bots.shanten import (
    N_PLAY,
    Sight,
    add,
    codes,
    exchange_shanten,
    improving_draws,
    need,
    remove,
    sight,
)
from engine.tiles import HONOUR_BASE

if TYPE_CHECKING:
    from engine.state import HandState

_DRAGONS: Final = frozenset(range(HONOUR_BASE + 4, HONOUR_BASE + 7))


def by_kind(legal: Sequence[Action]) -> dict[ActionKind, list[Action]]:
    """Legal actions grouped by kind, in their listed order."""
    out: dict[ActionKind, list[Action]] = {}
    for a in legal:
        out.setdefault(a.kind, []).append(a)
    return out


def value_pung(state: HandState, seat: int, t: int) -> bool:
    """Does a pung of ``t`` score 台 in every variant here (三元 / 門風 / 圈風)?"""
    return t in _DRAGONS or t == HONOUR_BASE + state.seat_winds[seat] or t == HONOUR_BASE + state.round_wind


@dataclass(frozen=True)
class DrawWeights:
    """How ``normal`` weighs 進張 among discards of equal need by the 台 the hand left keeps (台 material).

    Each 台 doubles a win where scores are 胡 × 2^台 (天台, docs/rules/tiantai.md#scoring), so there a draw of a hand that
    keeps a dragon / seat-wind pung, pair or a one-suit shape is worth more than one of a plainer hand.
    The weight of a discard's 進張 is ``2 ** (estimated 台)``; the need still comes first, so this only
    breaks ties between equally efficient discards.  Variants not listed count plain 進張 (weight 1).
    """

    pung: float = 1.0  # 台 of a held or melded pung of a dragon / own seat wind (三元 / 座風碰)
    pair: float = 0.5  # the same for a pair of them (a pong away from that 台; 2 胡 as the pair)
    one_suit: float = 1.0  # every suited tile (hand and melds) in one suit: 混一色 (1 台) in reach
    off_decay: float = 0.5  # each off-suit tile left multiplies ``one_suit`` by this ...
    reach: int = 1  # ... up to this many off-suit tiles; with more, no one-suit value is counted


DRAW_WEIGHTS: Final[dict[str, DrawWeights]] = {
    "tiantai": DrawWeights(),
}


def tai_material(state: HandState, seat: int, nat: Sequence[int], w: DrawWeights) -> float:
    """The estimated 台 of a concealed hand ``nat`` (34 counts) with the seat's melds, by ``w``."""
    values = _DRAGONS | {HONOUR_BASE + state.seat_winds[seat]}
    melds = state.seats[seat].melds
    tai = 0.0
    for t in values:
        n = nat[t] + sum(len(m.tiles) for m in melds if m.tiles[0] == t)
        tai += w.pung if n >= 3 else w.pair if n == 2 else 0.0
    per = [0, 0, 0]
    for t in range(HONOUR_BASE):
        per[t // 9] += nat[t]
    for m in melds:
        if m.tiles[0] < HONOUR_BASE:
            per[m.tiles[0] // 9] += len(m.tiles)
    off = sum(per) - max(per)
    if off <= w.reach:
        tai += w.one_suit * w.off_decay ** off
    return tai


def draw_weight(state: HandState, seat: int) -> Callable[[list[int]], float] | None:
    """The variant's 進張 weight for ``rank_discards`` (``2 ** tai_material``), or ``None`` without one."""
    w = DRAW_WEIGHTS.get(state.variant.name)
    if w is None:
        return None
    return lambda nat: 2.0 ** tai_material(state, seat, nat, w)


def rank_discards(view: Sight, candidates: Sequence[int], rng: random.Random,
                  penalty: dict[int, float] | None = None,
                  weight: Callable[[list[int]], float] | None = None) -> list[int]:
    """Candidate discard kinds ordered best first: need, then 進張 (unseen), then isolation.

    ``penalty`` adds to a tile's need (strong uses it for danger and value steering); ``weight`` scales a
    discard's 進張 by the hand it leaves (natural counts), see :class:`DrawWeights`.
    """
    nat = view.natural()
    c = codes(nat)
    jokers = view.jokers
    scored: list[tuple[float, int, int]] = []
    for t in set(candidates):
        if t >= N_PLAY or not nat[t]:
            continue
        remove(c, t)
        scored.append((need(c, jokers) + (penalty.get(t, 0.0) if penalty else 0.0), t, 0))
        add(c, t)
    if not scored:
        return list(candidates)
    best = min(x[0] for x in scored)
    ranked = []
    for key, t, _ in scored:
        if key >= best + 0.5:
            continue
        remove(c, t)
        n_draws, _kinds = improving_draws(c, jokers, view.unseen)
        draws = float(n_draws)
        add(c, t)
        if weight is not None:
            nat[t] -= 1
            draws *= weight(nat)
            nat[t] += 1
        ranked.append((key, -draws, -isolation(view.counts, t), rng.random(), t))
    ranked.sort()
    return [r[-1] for r in ranked]


def best_discard(state: HandState, seat: int, view: Sight, rng: random.Random,
                 penalty: dict[int, float] | None = None, weighted: bool = False) -> Action | None:
    """The plain discard ``rank_discards`` likes best among the legal ones (``weighted``: 進張 weighted
    by the variant's :data:`DRAW_WEIGHTS`, when it has one)."""
    plain: dict[int, Action] = {int(a.tile): a for a in state.legal_actions(seat)
                                if a.kind is ActionKind.DISCARD and a.declare is None and a.tile is not None}
    if not plain:
        return None
    order = rank_discards(view, list(plain), rng, penalty, draw_weight(state, seat) if weighted else None)
    return plain[order[0]] if order else next(iter(plain.values()))


def best_after_discard(nat: list[int], c: list[int], jokers: int,
                       measure: Callable[[list[int], int], int]) -> int:
    """The lowest ``measure`` (need or 向聽) over every discard of a natural tile; 99 with none to discard.

    ``c`` are the codes of ``nat``; they are restored before returning."""
    best = 99
    for t in range(N_PLAY):
        if nat[t]:
            remove(c, t)
            best = min(best, measure(c, jokers))
            add(c, t)
    return best


def take_win(kinds: dict[ActionKind, list[Action]]) -> Action | None:
    """A win (胡) or 杀猪 when offered: every level takes it."""
    for kind in (ActionKind.WIN, ActionKind.KILL_PIG):
        if kind in kinds:
            return kinds[kind][0]
    return None


def shanten_after_claim(view: Sight, used: Sequence[int]) -> int:
    """向聽 after melding ``used`` from the hand and making the best discard (the claim's result)."""
    nat = view.natural()
    for t in used:
        nat[t] -= 1
    c = codes(nat)
    jokers = view.jokers
    best = best_after_discard(nat, c, jokers, exchange_shanten)
    if best == 99:  # only 財神 left: the engine does not offer such claims (D-7), but stay safe
        best = exchange_shanten(c, jokers)
    return best


def claim_tiles(a: Action) -> list[int]:
    """The tiles a claim takes from the hand (not the claimed discard)."""
    t = a.tile
    if a.kind is ActionKind.CHOW:
        rest = list(a.tiles)
        if t is not None and t in rest:
            rest.remove(t)
        return [int(x) for x in rest]
    n = 3 if a.kind is ActionKind.KONG else 2
    return [int(t)] * n if t is not None else []


def choose_claim(state: HandState, seat: int, view: Sight, options: dict[ActionKind, list[Action]],
                 allow_chow: bool = True) -> Action | None:
    """The claim that lowers 向聽 or gains 台 the most, or ``None`` to pass."""
    held = view.natural()
    now = exchange_shanten(codes(held), view.jokers)
    best: tuple[int, int, Action] | None = None
    for kind in (ActionKind.KONG, ActionKind.PONG, ActionKind.CHOW):
        if kind is ActionKind.CHOW and not allow_chow:
            continue
        for a in options.get(kind, []):
            used = claim_tiles(a)
            if any(held[t] < used.count(t) for t in set(used)):
                continue  # a claim with 財神 faces: leave it to the engine's own players
            if kind is ActionKind.KONG:
                nat = view.natural()
                for t in used:
                    nat[t] -= 1
                after = exchange_shanten(codes(nat), view.jokers)
                gain = 1
            else:
                after = shanten_after_claim(view, used)
                gain = 1 if kind is ActionKind.PONG and a.tile is not None and value_pung(state, seat, a.tile) else 0
            if after < now or (gain and after <= now):
                key = (after - gain, -gain, a)
                if best is None or key[:2] < best[:2]:
                    best = key
    return best[2] if best else None


def own_kong(view: Sight, kongs: Sequence[Action]) -> Action | None:
    """An 暗槓 / 加槓 that costs no 向聽 compared with the best discard."""
    nat = view.natural()
    c = codes(nat)
    jokers = view.jokers
    best_now = best_after_discard(nat, c, jokers, need)
    for a in kongs:
        if a.tile is None or not nat[a.tile]:
            continue
        t = int(a.tile)
        n = nat[t]  # 4 for an 暗槓, 1 for a 加槓
        for _ in range(n):
            remove(c, t)
        after = need(c, jokers)
        for _ in range(n):
            add(c, t)
        if after <= best_now:
            return a
    return None


@register("normal")
def normal_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Tile efficiency from the seat's own sight; claims that help; every win."""
    legal = state.legal_actions(seat)
    kinds = by_kind(legal)
    win = take_win(kinds)
    if win is not None:
        return win
    view = sight(state, seat)
    if ActionKind.PASS in kinds:  # a claim window, a 搶槓 window or a 分牌 draw
        claim = choose_claim(state, seat, view, kinds)
        return claim or kinds[ActionKind.PASS][0]
    if ActionKind.KONG in kinds:
        kong = own_kong(view, kinds[ActionKind.KONG])
        if kong is not None:
            return kong
    return best_discard(state, seat, view, rng, weighted=True) or legal[0]
