"""Defence (防守) for the ``strong`` bot: how likely each other seat is ready, and how likely a tile is to be
the one it wins on — read only from public events, so it never uses hidden information.

* **Readiness** (聽牌 probability) of another seat comes from what everybody sees: a declaration (眼牌 / Miji /
  聽) is certain; otherwise a table by its number of melds and of discards made (``READY_TABLES``), measured
  over ``normal`` bots' games (see ``bench/results/bots.md``).
* **Danger** of a tile against a ready seat: none when the tile was discarded since that seat's last discard
  and the hand went on (it did not win on it — and where a 過水 / 過胡 lock applies, docs/rules/taiwan.md#pass-lock and
  docs/rules/tiantai.md#pass-locks, it cannot until it acts again); low for a tile the seat threw itself, for an honour with one copy
  or none left unseen (no pair or 單吊 can use it); otherwise by the tile's shape (middle tiles join the most
  chows).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from engine.bots.shanten import N_PLAY, Sight
from engine.tiles import HONOUR_BASE, TILES

if TYPE_CHECKING:
    from engine.state import HandState

# Fraction of ready hands among normal bots' hands after a discard, by melds (rows) and discards made // 2
# (columns, capped at the last); measured by ``bench/ready_table.py`` (results in bench/results/bots.md).
READY_TABLES: Final[dict[int, tuple[tuple[float, ...], ...]]] = {
    # 4 sets + pair (天台, 14-tile hands)
    4: ((0.00, 0.02, 0.10, 0.27, 0.43, 0.54, 0.62, 0.74, 0.78),
        (0.00, 0.06, 0.20, 0.37, 0.50, 0.57, 0.58, 0.58, 0.60),
        (0.10, 0.20, 0.28, 0.49, 0.55, 0.64, 0.77, 0.86, 0.90),
        (0.30, 0.45, 0.55, 0.65, 0.75, 0.85, 0.90, 0.90, 0.90)),
    # 5 sets + pair (台灣, 台炮; 17-tile hands)
    5: ((0.00, 0.00, 0.01, 0.06, 0.18, 0.36, 0.56, 0.65, 0.70),
        (0.00, 0.01, 0.04, 0.12, 0.24, 0.39, 0.41, 0.48, 0.55),
        (0.03, 0.07, 0.11, 0.22, 0.33, 0.44, 0.60, 0.72, 0.75),
        (0.20, 0.25, 0.30, 0.35, 0.53, 0.62, 0.71, 0.70, 0.75),
        (0.40, 0.45, 0.50, 0.55, 0.65, 0.70, 0.75, 0.80, 0.80)),
}

# chance that one given middle-ish kind is among a ready hand's waits, by sets in a hand (calibrated against
# the deal-ins of normal bots' games: bench/results/bots.md, "deal-in calibration")
WAIT_SHARE: Final = {4: 0.11, 5: 0.07}
OWN_RIVER: Final = 0.35  # a tile the ready seat threw itself is that much less likely to be a wait (no 振聽 rule)


def ready_chance(state: HandState, seat: int) -> float:
    """How likely ``seat`` is ready (聽牌), from its declaration, melds and discards — all public."""
    s = state.seats[seat]
    if s.declaration is not None:
        return 1.0
    sets = state.variant.hand_size // 3
    table = READY_TABLES.get(sets, READY_TABLES[5])
    row = table[min(len(s.melds), len(table) - 1)]
    return row[min(s.discards_made // 2, len(row) - 1)]


def passed_since_last_discard(state: HandState, seat: int) -> set[int]:
    """Tiles other seats discarded (or tried to add to a kong) after ``seat``'s last discard, and on which it
    did not win: from the public event list."""
    out: set[int] = set()
    for ev in reversed(state.events):
        if ev.type == "discard":
            if ev.public.get("seat") == seat:
                break
            out.add(_kind(ev.public.get("tile")))
        elif ev.type == "kong_attempt" and ev.public.get("seat") != seat:
            out.add(_kind(ev.public.get("tile")))
        elif ev.type == "deal":
            break
    return out


_KIND_OF: Final[dict[str, int]] = {str(t): int(t) for t in TILES}


def _kind(name: object) -> int:
    return _KIND_OF.get(str(name), -1)


def tile_danger(view: Sight, t: int, passed: set[int], river: Sequence[int], share: float = 0.07) -> float:
    """Chance that ``t`` is among a ready seat's winning tiles (0 when it provably is not)."""
    if t in passed:
        return 0.0
    left = view.unseen[t]
    if t >= HONOUR_BASE:
        # an honour wins only as a pair or 單吊: with ≤ 1 copy unseen, only 單吊 (or nothing) remains
        w = 0.0 if left == 0 else 0.25 if left == 1 else 0.7
    else:
        rank = t % 9
        w = 0.8 if rank in (0, 8) else 1.0 if rank in (1, 7) else 1.3
        if left == 0:
            w *= 0.6  # the seat may still wait on it with a chow shape, with no copy left for it
    if t in river:
        w *= OWN_RIVER
    return share * w


Threat = tuple[float, set[int], list[int], float]


def threat_map(state: HandState, seat: int) -> list[Threat]:
    """For every other seat: (readiness, tiles passed since its last discard, its river kinds, wait share)."""
    share = WAIT_SHARE.get(state.variant.hand_size // 3, 0.07)
    out: list[Threat] = []
    for i in range(state.n):
        if i == seat:
            continue
        p = ready_chance(state, i)
        if p <= 0.0:
            continue
        out.append((p, passed_since_last_discard(state, i), [int(x) for x in state.seats[i].river], share))
    return out


def deal_in_chance(view: Sight, t: int, threats: Sequence[Threat]) -> float:
    """Chance that discarding ``t`` deals in (放銃) to some seat in ``threats``."""
    safe = 1.0
    for p, passed, river, share in threats:
        safe *= 1.0 - p * tile_danger(view, t, passed, river, share)
    return 1.0 - safe


__all__ = ["N_PLAY", "READY_TABLES", "deal_in_chance", "passed_since_last_discard", "ready_chance", "threat_map",
           "tile_danger"]
