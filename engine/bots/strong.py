"""The ``strong`` bot: ``normal``'s tile efficiency plus value (做牌) and defence (防守).

* **Value**: normal's 進張 weighted by the 台 in reach where the variant has ``DRAW_WEIGHTS`` (天台); close
  to a one-suit hand (清一色 / 混一色) it throws the other suits first, as hard as the
  variant pays for it (``VALUE_TABLES``); where 門清 pays enough (``concealed_bonus``, no variant today:
  台灣's 底 outweighs its 1 台) it claims a chow only when that makes the hand ready; it declares Miji
  (台灣, 8 台) on a discard that leaves the hand ready.  台炮 聽 has no scoring effect (docs/rules/taipao.md#ting B-23)
  and only locks the hand, so it is never declared; neither is 眼牌 (+1 台 against a 1-台 penalty and a
  locked hand).
* **Defence** (where the discarder pays alone: 天台, 台灣; ``engine.bots.defence``): each other seat's chance
  of being ready (a declaration, else its melds and discards made), each tile's chance of being its wait
  (none for a tile it let pass since its last discard, low for its own discards and for honours with ≤ 1
  copy unseen), and this hand's chance to win by its 向聽, 進張 and the draws left (shortened by ready
  seats).  When normal's choice risks a deal-in, the discard kept is the one with the best
  ``win chance − ratio × deal-in chance``: a far hand folds (棄和) onto safe tiles, a ready one pushes.

Like ``normal`` it reads only its own sight (:func:`engine.bots.shanten.sight`) and public events.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from engine.actions import Action, ActionKind, Declare
from engine.bots.defence import deal_in_chance, threat_map
from engine.bots.normal import (
    best_after_discard,
    best_discard,
    by_kind,
    choose_claim,
    claim_tiles,
    draw_weight,
    own_kong,
    rank_discards,
    shanten_after_claim,
    take_win,
)
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


@dataclass(frozen=True)
class ValueTable:
    """How a variant pays for what ``strong`` steers towards (bot knowledge, taken from docs/rules/tiantai.md#scoring / docs/rules/taipao.md#scoring /
    docs/rules/taiwan.md#tai-table); variants not listed play with ``DEFAULT_VALUE``."""

    concealed_bonus: bool = False  # 門清 pays enough to claim a chow only when it makes the hand ready
    flush_weight: float = 1.2  # how much need one more off-suit tile may cost on the way to 一色
    honours_in_flush: bool = True  # 混一色 pays, so honours stay with the suit
    defence: bool = True  # the discarder pays for a win on its discard, so dangerous tiles cost
    defence_ratio: float = 0.8  # what dealing in costs, in units of what a win brings
    kong_pays: bool = False  # every kong scores 台 for winner and losers alike: take 暗槓 / 加槓 unless it unreadies


DEFAULT_VALUE: Final = ValueTable()
VALUE_TABLES: Final[dict[str, ValueTable]] = {
    # 底 5 + 1 per 台 (docs/rules/taiwan.md#payment): a 台 is a fifth of a base, so speed beats 門清; 混一色 4 / 清一色 8 still pay.
    # a deal-in pays 底 + 台 alone; a win brings that from one seat, or from three on 自摸.
    "taiwan": ValueTable(flush_weight=0.4, defence_ratio=0.7),
    # every loser pays the winner (docs/rules/taipao.md#settlement): no defence; W doubles from 13 台 (清一色 +13, 混一色 +7).
    # 明杠 3 / 暗杠 4 台 count in every seat's B (docs/rules/taipao.md#scoring), in the winner's total and in the losers' pairwise
    # settlement, so a kong is worth more than the shape it may cost.
    "taipao": ValueTable(flush_weight=1.6, defence=False, kong_pays=True),
    # 胡 × 2^台: 清一色 3 台 (×8), 混一色 1 台 (×2); the discarder pays 1.5 S alone (docs/rules/tiantai.md#payment).
    "tiantai": ValueTable(flush_weight=1.6, defence_ratio=0.9),
}

FLUSH_SHARE: Final = 0.6  # the dominant suit's share of suited tiles from which a one-suit hand is pursued


def _suit_tiles(state: HandState, seat: int, view: Sight) -> list[int]:
    """Suited tiles per suit in the seat's concealed hand and melds (財神 left out)."""
    per = [0, 0, 0]
    nat = view.natural()
    for t in range(HONOUR_BASE):
        per[t // 9] += nat[t]
    for m in state.seats[seat].melds:
        for t in m.tiles:
            if t < HONOUR_BASE:
                per[t // 9] += 1
    return per


def flush_suit(state: HandState, seat: int, view: Sight) -> int | None:
    """The suit (0 m, 1 p, 2 s) worth steering to, or ``None``: melds all in it (or honours), and it holds
    at least ``FLUSH_SHARE`` of the suited tiles."""
    per = _suit_tiles(state, seat, view)
    total = sum(per)
    if total == 0:
        return None
    suit = max(range(3), key=per.__getitem__)
    if per[suit] < FLUSH_SHARE * total:
        return None
    for m in state.seats[seat].melds:
        if m.tiles[0] < HONOUR_BASE and m.tiles[0] // 9 != suit:
            return None
    return suit


def _flush_penalties(state: HandState, seat: int, view: Sight) -> dict[int, float]:
    """Need-unit penalties (negative: throw first) steering towards 清一色 / 混一色 when close."""
    values = VALUE_TABLES.get(state.variant.name, DEFAULT_VALUE)
    pen: dict[int, float] = {}
    suit = flush_suit(state, seat, view)
    if suit is not None:
        for t in range(N_PLAY):
            off = t < HONOUR_BASE and t // 9 != suit
            if off or (t >= HONOUR_BASE and not values.honours_in_flush):
                pen[t] = -values.flush_weight
    return pen


# Chance to win from a 3n+1 hand by its 向聽 and own draws left, fitted to normal bots' games in 天台 and 台灣
# (bench/ready_table.py; bench/results/bots.md): ready ≈ 0.15 + 0.04 per draw left; k ≥ 1 向聽 ≈ 0.03 per draw
# left beyond 1.5 + 2.5 (k − 1), never below 0.02.
READY_BASE, READY_SLOPE, READY_CAP = 0.15, 0.04, 0.75
FAR_SLOPE, FAR_START, FAR_STEP, FAR_FLOOR = 0.03, 1.5, 2.5, 0.02
TYPICAL_DRAWS = (6.0, 24.0, 50.0, 80.0)  # usual 進張 at each 向聽, to scale the chance by the shape


def win_chance(sh: float, draws: int, turns_left: float) -> float:
    """A rough chance to win from 向聽 ``sh`` with ``draws`` useful unseen tiles and ``turns_left`` own draws.

    ``sh`` may be fractional (a value-steering penalty moves a tile part of a step); it is interpolated.
    """
    turns = max(0.0, turns_left)
    ready = min(READY_CAP, READY_BASE + READY_SLOPE * turns)

    def far(k: float) -> float:
        return max(FAR_FLOOR, FAR_SLOPE * (turns - FAR_START - FAR_STEP * (k - 1)))

    if sh <= 0:
        base = ready
    elif sh < 1:
        base = ready ** (1 - sh) * far(1) ** sh
    else:
        base = far(sh)
    typical = TYPICAL_DRAWS[min(max(round(sh), 0), len(TYPICAL_DRAWS) - 1)]
    return min(base, ready) * (0.8 + 0.2 * min(1.5, draws / typical))


def defended_discard(state: HandState, seat: int, view: Sight, rng: random.Random,
                     plain: dict[int, Action], pen: dict[int, float], ratio: float) -> Action | None:
    """The discard with the best offence minus ``ratio`` × deal-in chance, when normal's choice is risky.

    Normal's choice when it is (nearly) safe; ``None`` when nobody threatens (then normal's choice stands).
    """
    threats = threat_map(state, seat)
    if not threats:
        return None
    order = rank_discards(view, list(plain), rng, pen, draw_weight(state, seat))
    if not order:
        return None
    if deal_in_chance(view, order[0], threats) < MIN_RISK:
        return plain[order[0]]  # (not None: ranking again would draw new random tie-breaks)
    nat = view.natural()
    c = codes(nat)
    jokers = view.jokers
    # a seat surely ready shortens the hand beyond the average table (where some seat is often ready): the
    # wall left is worth less to a slow hand; squared so that the usual mid-game maybes count little
    turns_left = (state.wall.remaining - state.reserve()) / state.n / (1 + HASTE * sum(x[0] ** 2 for x in threats))
    risks = {t: deal_in_chance(view, t, threats) for t in plain if t < N_PLAY and nat[t]}
    top = order[0]
    best: tuple[float, int] | None = None
    for t, risk in risks.items():
        if t != top and risk >= risks[top]:
            continue  # no safer than normal's choice, and less efficient: never better
        remove(c, t)
        sh = exchange_shanten(c, jokers)
        draws, _ = improving_draws(c, jokers, view.unseen)
        add(c, t)
        # a penalty is in need units, three to a 向聽 step (need moves by threes in a 3n+1 hand)
        score = (1 - risk) * win_chance(sh + pen.get(t, 0.0) / 3, draws, turns_left) - ratio * risk
        if best is None or score > best[0] + 1e-9:
            best = (score, t)
    return plain[best[1]] if best else None


HASTE: Final = 0.8  # how much one certainly-ready seat shortens the hand (own draws left ÷ (1 + HASTE))
MIN_RISK: Final = 0.02  # below this chance of dealing in, normal's efficient discard stands


DECLARE_MIJI: Final = True  # Miji (8 台) on a discard that leaves the hand ready: measured in bench/results/bots.md


def _miji(state: HandState, seat: int, legal: list[Action], choice: Action) -> Action:
    """Declare Miji with the chosen discard when it is offered (the discard leaves the hand ready)."""
    for a in legal:
        if (a.declare is Declare.MIJI and a.tile is not None and a.tile == choice.tile
                and state.is_ready_after_discard(seat, a.tile)):
            return a
    return choice


@register("strong")
def strong_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Normal play plus value steering and defence, from the seat's own sight."""
    legal = state.legal_actions(seat)
    kinds = by_kind(legal)
    view = sight(state, seat)
    values = VALUE_TABLES.get(state.variant.name, DEFAULT_VALUE)
    if ActionKind.KILL_PIG in kinds and ActionKind.WIN not in kinds and _pig_can_wait(state, view):
        del kinds[ActionKind.KILL_PIG]
    win = take_win(kinds)
    if win is not None:
        return win
    if ActionKind.PASS in kinds:
        concealed = not any(m.claimed is not None for m in state.seats[seat].melds)
        allow_chow = not (values.concealed_bonus and concealed)
        claim = choose_claim(state, seat, view, kinds, allow_chow=allow_chow)
        if claim is None and not allow_chow and ActionKind.CHOW in kinds:
            claim = choose_claim(state, seat, view, {ActionKind.CHOW: kinds[ActionKind.CHOW]})
            if claim is not None and not _claim_makes_ready(view, claim):
                claim = None
        if claim is not None and values.defence and _folding_claim(state, seat, view, claim):
            claim = None
        return claim or kinds[ActionKind.PASS][0]
    if ActionKind.KONG in kinds:
        kong = own_kong(view, kinds[ActionKind.KONG])
        if kong is None and values.kong_pays:
            kong = _paying_kong(view, kinds[ActionKind.KONG])
        if kong is not None:
            return kong
    pen = _flush_penalties(state, seat, view)
    choice = None
    if values.defence:
        plain = {int(a.tile): a for a in legal
                 if a.kind is ActionKind.DISCARD and a.declare is None and a.tile is not None}
        if plain:
            choice = defended_discard(state, seat, view, rng, plain, pen, values.defence_ratio)
    if choice is None:
        choice = best_discard(state, seat, view, rng, pen, weighted=True) or legal[0]
    return _miji(state, seat, legal, choice) if DECLARE_MIJI else choice


def _paying_kong(view: Sight, kongs: list[Action]) -> Action | None:
    """Any 暗槓 / 加槓 that does not turn a ready hand (after its best discard) into an unready one."""
    nat = view.natural()
    c = codes(nat)
    ready_now = best_after_discard(nat, c, view.jokers, need) <= 1
    for a in kongs:
        if a.tile is None or not nat[a.tile]:
            continue
        t = int(a.tile)
        n = nat[t]
        for _ in range(n):
            remove(c, t)
        after = need(c, view.jokers)  # a 3n+1 hand: the replacement draw comes next
        for _ in range(n):
            add(c, t)
        if not ready_now or after <= 1:
            return a
    return None


PIG_WAIT_DRAWS: Final = 2.0  # own draws left (before 分牌) from which a ready 杀猪 holding waits for 杀猪胡


def _pig_can_wait(state: HandState, view: Sight) -> bool:
    """Hold a plain 杀猪 (13 台, docs/rules/taipao.md#winner-items) while the hand is ready with its discard: 杀猪胡 adds the
    same 13 to the hand's own B and X (its 財神 alone are worth 10 or more), on a discard or by 自摸, and the
    holding can still be declared on any later turn; a win by another seat meanwhile leaves this seat the
    biggest B in the losers' settlement."""
    if (state.wall.remaining - state.reserve()) / state.n < PIG_WAIT_DRAWS:
        return False
    nat = view.natural()
    return best_after_discard(nat, codes(nat), view.jokers, need) <= 1


FOLD_CLAIMS: Final = True  # pass claims that leave a far hand while other seats are likely ready
FOLD_READY_SUM: Final = 0.6  # summed readiness of the other seats from which a far hand stops claiming


def _folding_claim(state: HandState, seat: int, view: Sight, claim: Action) -> bool:
    """A pong / chow that would leave this hand two or more exchanges from ready while other seats are
    likely ready: it spends concealed tiles (the safe ones among them) on a hand that will not win."""
    if not FOLD_CLAIMS or claim.kind is ActionKind.KONG:
        return False
    if sum(x[0] for x in threat_map(state, seat)) < FOLD_READY_SUM:
        return False
    return shanten_after_claim(view, claim_tiles(claim)) >= 2


def _claim_makes_ready(view: Sight, claim: Action) -> bool:
    return shanten_after_claim(view, claim_tiles(claim)) == 0


__all__ = ["rank_discards", "strong_policy"]
