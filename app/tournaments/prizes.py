"""Prize maths (獎金), pure: the split of a pool into places, ties, and seating by standings."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


def place_amounts(pool: int, split: Sequence[int]) -> list[int]:
    """Coins per place: ``split`` are whole percentages summing to 100.  Each place gets the floor of its
    share; the coins the floors leave go to the first place (remainders to the higher place), so the
    amounts always sum to exactly ``pool``."""
    if sum(split) != 100 or any(p <= 0 for p in split):
        raise ValueError(f"prize split {list(split)} must be positive percentages summing to 100")
    amounts = [pool * p // 100 for p in split]
    amounts[0] += pool - sum(amounts)
    return amounts


@dataclass(frozen=True, slots=True)
class Award:
    user_id: int
    place: int  # 1-based; tied players share the best place of their group
    prize: int
    key_place: int  # the distinct 1-based place whose idempotency key this payment uses


def award(standings: Sequence[tuple[int, int]], amounts: Sequence[int]) -> list[Award]:
    """Prizes for ``standings`` = (user id, points) in final order (best first, ties adjacent).

    Tied players split the amounts of the places they occupy evenly; the coins that do not divide go one
    each to the earlier players of the group (the higher place).  Players beyond the paid places get 0.
    The prizes sum to ``sum(amounts)`` when at least ``len(amounts)`` players finish, else to the amounts
    of the places occupied (the caller returns the rest).
    """
    awards: list[Award] = []
    i = 0
    while i < len(standings):
        j = i
        while j + 1 < len(standings) and standings[j + 1][1] == standings[i][1]:
            j += 1
        group = standings[i:j + 1]
        share = sum(amounts[i:j + 1])
        each, extra = divmod(share, len(group))
        for k, (user_id, _points) in enumerate(group):
            awards.append(Award(user_id, i + 1, each + (1 if k < extra else 0), i + k + 1))
        i = j + 1
    return awards


def seat_round(players: Sequence[int | None], seats: int, rng: random.Random | None) -> list[list[int | None]]:
    """Tables of ``seats`` from a list (None = a house bot).  ``rng`` given: the players are shuffled first
    (round 1); None: in the order given (later rounds: the standings, so the top players sit together).
    Either way the house bots sit at the last table, as docs/tournaments.md says: every other table is
    all players."""
    humans = [p for p in players if p is not None]
    if rng is not None:
        rng.shuffle(humans)
    order: list[int | None] = [*humans, *[None] * (len(players) - len(humans))]
    if len(order) % seats:
        raise ValueError(f"{len(order)} seats cannot fill tables of {seats}")
    return [order[i:i + seats] for i in range(0, len(order), seats)]
