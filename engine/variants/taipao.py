"""台炮麻将: 4 players, 144 tiles, 16-tile hands, two revealed 財神 faces, 分牌 (docs/rules/taipao.md)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.tiles import FLOWER_BASE, Tile, is_one_face
from engine.variants.base import HandFacts, Option, PassLock, Variant, WallEnd, standard_kinds

WHITE = 33  # 白板 7z


class Taipao(Variant):
    def indicator_count(self) -> int:
        """docs/rules/taipao.md#caishen: the two tiles of the last stack at the tail are turned face up, out of play (D-1)."""
        return 2

    def wildcard_faces(self, indicators: Sequence[Tile]) -> tuple[Tile, ...]:
        """Their faces are 財神; the same face twice gives one face (same-face mode)."""
        return tuple(dict.fromkeys(indicators))

    def is_bonus(self, tile: Tile, wildcards: tuple[Tile, ...]) -> bool:
        """docs/rules/taipao.md#bonus-tiles: flowers and 白板 are bonus tiles unless they are a 財神 face."""
        return (tile >= FLOWER_BASE or tile == WHITE) and tile not in wildcards

    def reserve(self, state: HandFacts, kongs: int | None = None) -> int:
        """docs/rules/taipao.md#split-deal: 分牌 starts when 24 + 2K tiles remain (杠一过二)."""
        return 24 + 2 * (state.kongs if kongs is None else kongs)

    def can_declare(self, state: HandFacts, seat: int) -> tuple[str, ...]:
        """docs/rules/taipao.md#ting: 聽 locks the hand; it is offered once, on a discard that leaves the hand ready."""
        return () if state.seats[seat].locked else ("ready",)

    def can_kill_pig(self, state: HandFacts, seat: int) -> bool:
        """docs/rules/taipao.md#kill-pig: 3+ of one face and 1+ of the other, or 2+ in same-face mode; in a
        one-face hand (the other indicator a flower, docs/rules/taipao.md#one-face F-4) all three live copies."""
        s = state.seats[seat]
        if s.jokers < 2:  # every pattern needs two 財神 or more: the common case, answered at once
            return False
        held = [s.counts[f] for f in state.wildcards]
        if len(held) == 1:
            return held[0] >= 2
        if is_one_face(state.wildcards):
            return sum(held) >= 3  # the flower face has no live copy
        return (held[0] >= 3 and held[1] >= 1) or (held[1] >= 3 and held[0] >= 1)


TAIPAO = Taipao(
    name="taipao",
    chinese="台炮麻将",
    n_seats=4,
    hand_size=16,
    kinds=standard_kinds(),
    reserve_tiles=24,
    has_chow=True,
    multiple_winners=False,
    dice_count=2,
    pass_pong_lock=False,
    pass_win_lock=PassLock.NONE,
    last_discard_win_only=False,
    wall_end=WallEnd.SPLIT_DEAL,
    kong_chain_through_bonus=True,  # D-6: kong → flower/白 replacement → win is 杠上开花
    options={
        "claim_seconds": Option(10.0, float, low=0.5, high=120, doc="docs/rules/timing.md#timers: 10 s claim window"),
    },
)
