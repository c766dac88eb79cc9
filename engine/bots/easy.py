"""The ``easy`` bot (today's greedy player) and the uniform ``random`` player.

``easy`` wins when it can, claims every pong / kong / chow and discards its loneliest tile; it never stays
門清 (concealed) and never defends.  Kept as the weakest level of practice bots and as a stress policy.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.actions import Action, ActionKind
from engine.bots.registry import register

if TYPE_CHECKING:
    from engine.state import HandState


@register("random")
def random_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Any legal action, but always take a win (a bot that passes wins plays no real game)."""
    legal = state.legal_actions(seat)
    for a in legal:
        if a.kind is ActionKind.WIN:
            return a
    return rng.choice(legal)


def isolation(counts: list[int], t: int) -> int:
    """How little a tile helps: singles far from neighbours score high (discard those first)."""
    if counts[t] >= 2:
        return 0
    if t >= 27:
        return 6
    rank, near = t % 9, 0
    for d in (-2, -1, 1, 2):
        if 0 <= rank + d <= 8 and counts[t + d]:
            near += 3 - abs(d)
    edge = 1 if rank in (0, 8) else 0
    return max(0, 5 - near) + edge


@register("easy", "greedy")
def greedy_policy(state: HandState, seat: int, rng: random.Random) -> Action:
    """Win when possible; claim pongs/kongs/chows; discard to stay ready, else the loneliest tile."""
    legal = state.legal_actions(seat)
    by_kind: dict[ActionKind, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    for kind in (ActionKind.WIN, ActionKind.KILL_PIG, ActionKind.KONG, ActionKind.PONG, ActionKind.CHOW):
        if kind in by_kind:
            return by_kind[kind][0]
    discards = [a for a in by_kind.get(ActionKind.DISCARD, []) if a.declare is None]
    if not discards:
        return by_kind.get(ActionKind.PASS, legal)[0]
    ready = [a for a in discards if a.tile is not None and state.is_ready_after_discard(seat, a.tile)]
    pool = ready or discards
    counts = state.seats[seat].counts
    return max(pool, key=lambda a: (isolation(counts, a.tile or 0), rng.random()))

