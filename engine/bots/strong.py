"""The ``strong`` bot: ``normal``'s tile efficiency plus value (做牌) and defence (防守).

* **Value**: close to a one-suit hand (清一色 / 混一色) it throws the other suits first, as hard as the
  variant pays for it (``VALUE_TABLES``); where 門清 pays enough (``concealed_bonus``, no variant today:
  台灣's 底 outweighs its 1 台) it claims a chow only when that makes the hand ready; it declares Miji
  (台灣, 8 台) on a discard that leaves the hand ready.  台炮 聽 has no scoring effect (RULES.md B-23)
  and only locks the hand, so it is never declared; neither is 眼牌 (+1 台 against a 1-台 penalty and a
  locked hand).
* **Defence** (where the discarder pays alone: 天台, 台灣): when another seat has declared, or is one meld
  short of a full hand, or two short late in the wall, and this hand is not ready, it prefers tiles that
  seat cannot (or is unlikely to) win on: tiles a declared seat threw after declaring, tiles of which this
  seat has seen every other copy, honours seen three times.

Like ``normal`` it reads only its own sight (:func:`engine.bots.shanten.sight`) and public events.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind, Declare
from engine.bots import register
from engine.bots.normal import (
    best_discard,
    by_kind,
    choose_claim,
    claim_tiles,
    own_kong,
    rank_discards,
    shanten_after_claim,
    take_win,
)
from engine.bots.shanten import N_PLAY, Sight, codes, exchange_shanten, sight
from engine.tiles import HONOUR_BASE

if TYPE_CHECKING:
    from engine.state import HandState


@dataclass(frozen=True)
class ValueTable:
    """How a variant pays for what ``strong`` steers towards (bot knowledge, taken from RULES.md §1.2 / §2.2 /
    §3.2); variants not listed play with ``DEFAULT_VALUE``."""

    concealed_bonus: bool = False  # 門清 pays enough to claim a chow only when it makes the hand ready
    flush_weight: float = 1.2  # how much need one more off-suit tile may cost on the way to 一色
    honours_in_flush: bool = True  # 混一色 pays, so honours stay with the suit
    defence: bool = True  # the discarder pays for a win on its discard, so dangerous tiles cost
    # how many need units a unit of danger costs when this hand is one exchange, or more, from ready
    defence_weights: tuple[float, float] = (0.7, 1.5)


DEFAULT_VALUE = ValueTable()
VALUE_TABLES: dict[str, ValueTable] = {
    # 底 5 + 1 per 台 (§3.2): a 台 is a fifth of a base, so speed beats 門清; 混一色 4 / 清一色 8 still pay.
    "taiwan": ValueTable(flush_weight=0.4, defence_weights=(0.3, 0.8)),
    # every loser pays the winner (§2.2 settlement): no defence; W doubles from 13 台 (清一色 +13, 混一色 +7).
    "taipao": ValueTable(flush_weight=1.6, defence=False),
    # 胡 × 2^台: 清一色 3 台 (×8), 混一色 1 台 (×2); the discarder pays 1.5 S alone (§1.2).
    "tiantai": ValueTable(flush_weight=1.6),
}

FLUSH_SHARE = 0.6  # the dominant suit's share of suited tiles from which a one-suit hand is pursued
LATE_WALL = 24  # tiles left in the wall below which every seat with two melds counts as a threat


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


def threats(state: HandState, seat: int) -> list[int]:
    """Other seats that may be ready: declared, one meld short of a full hand, or two short late in the wall."""
    late = state.wall.remaining - state.reserve() < LATE_WALL
    sets = state.variant.hand_size // 3  # sets a hand needs besides its pair
    out = []
    for i, s in enumerate(state.seats):
        if i == seat:
            continue
        if s.declaration is not None or len(s.melds) >= sets - 1 or (late and len(s.melds) >= sets - 2):
            out.append(i)
    return out


def safe_after_declaring(state: HandState, seat: int) -> set[int]:
    """Tiles ``seat`` discarded after declaring (its locked hand did not win on them), from public events.

    Empty when the seat has not declared: without 振聽 rules a tile thrown earlier may still win.
    """
    if state.seats[seat].declaration is None:
        return set()
    after = 0
    for ev in reversed(state.events):
        if ev.type == "discard" and ev.public.get("seat") == seat:
            if ev.public.get("declare"):
                break
            after += 1
    return set(state.seats[seat].river[-after:]) if after else set()


def danger(view: Sight, t: int, safe: set[int]) -> float:
    """How likely ``t`` is to be a threatening seat's winning tile, roughly 0 (safe) .. 3."""
    if t in safe:
        return 0.0
    left = view.unseen[t]  # copies this seat has not seen (its own are seen)
    if left == 0:
        return 0.2
    if t >= HONOUR_BASE:
        return 0.4 * left
    rank = t % 9
    shape = 1.5 if rank in (0, 8) else 2.2 if rank in (1, 7) else 3.0
    return shape * (0.5 + left / 6)


def _penalties(state: HandState, seat: int, view: Sight) -> dict[int, float]:
    values = VALUE_TABLES.get(state.variant.name, DEFAULT_VALUE)
    pen: dict[int, float] = {}
    suit = flush_suit(state, seat, view)
    if suit is not None:
        for t in range(N_PLAY):
            off = t < HONOUR_BASE and t // 9 != suit
            if off or (t >= HONOUR_BASE and not values.honours_in_flush):
                pen[t] = -values.flush_weight
    danger_seats = threats(state, seat) if values.defence else []
    if danger_seats:
        sh = exchange_shanten(codes(view.natural()), view.jokers)  # of the 3n+2 hand: ≥ 1 means far
        near, far = values.defence_weights
        weight = 0.0 if sh <= 0 else near if sh == 1 else far
        if weight:
            safe = set.intersection(*(safe_after_declaring(state, s) for s in danger_seats))
            for t in range(N_PLAY):
                if view.counts[t]:
                    pen[t] = pen.get(t, 0.0) + weight * danger(view, t, safe)
    return pen


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
    win = take_win(kinds)
    if win is not None:
        return win
    view = sight(state, seat)
    values = VALUE_TABLES.get(state.variant.name, DEFAULT_VALUE)
    if ActionKind.PASS in kinds:
        concealed = not any(m.claimed is not None for m in state.seats[seat].melds)
        allow_chow = not (values.concealed_bonus and concealed)
        claim = choose_claim(state, seat, view, kinds, allow_chow=allow_chow)
        if claim is None and not allow_chow and ActionKind.CHOW in kinds:
            claim = choose_claim(state, seat, view, {ActionKind.CHOW: kinds[ActionKind.CHOW]})
            if claim is not None and not _claim_makes_ready(view, claim):
                claim = None
        return claim or kinds[ActionKind.PASS][0]
    if ActionKind.KONG in kinds:
        kong = own_kong(view, kinds[ActionKind.KONG])
        if kong is not None:
            return kong
    choice = best_discard(state, seat, view, rng, _penalties(state, seat, view)) or legal[0]
    return _miji(state, seat, legal, choice)


def _claim_makes_ready(view: Sight, claim: Action) -> bool:
    return shanten_after_claim(view, claim_tiles(claim)) == 0


__all__ = ["rank_discards", "strong_policy"]
