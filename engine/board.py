"""What lies on the table in one hand (牌局): the seats, the wall, the open claim window, the events so far;
and the questions the rules ask of it.

``HandBoard`` holds the hand's data and the primitive steps every part of the flow shares (emitting an
event, who may watch a seat's tiles, the seat order); ``engine.state.HandState`` builds the hand's flow on
top of it.  The modules that carry one part of that flow (``claims``, ``melding``, ``split_deal``,
``legal``, ``outcome``, ``view``) take a ``HandBoard`` and return what they decided: they never call back
into the flow, so the engine's imports form no circle (python-chess's BaseBoard / Board split).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.events import Event
from engine.hand_result import HandResult
from engine.phase import ClaimWindow, Phase, Source, TurnContext
from engine.seat import SeatState
from engine.tiles import HONOUR_BASE, N_KINDS, NAMES, TILES, Tile
from engine.variants import Variant
from engine.variants.base import PassLock
from engine.wall import Wall


class HandBoard:
    """The state of one hand, without its flow.  Create a hand with ``engine.state.HandState.deal``."""

    def __init__(self, variant: Variant, options: Mapping[str, Any], dealer: int, round_wind: int,
                 dealer_streak: int, seed: int | str | bytes,
                 wall: Sequence[Tile] | None = None) -> None:
        self.variant = variant
        self.options = dict(options)
        self.n = variant.n_seats
        self.dealer = dealer
        self.round_wind = round_wind
        self.dealer_streak = dealer_streak
        self.seed = seed
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.phase = Phase.TURN
        self.current = dealer
        self.context = TurnContext(Source.DEAL)
        self.window: ClaimWindow | None = None
        self.kongs = 0
        self.discards_total = 0
        self.any_claim = False
        self.last_discard: tuple[int, Tile] | None = None
        self.split_order: list[int] = []
        self.result: HandResult | None = None
        self.revealers: set[int] = set()  # 眼牌 / Miji declarers, who see the other hands
        rng = random.Random(seed)
        self.wall = Wall.shuffled(variant.kinds, rng) if wall is None else Wall(wall)
        self.dice = tuple(rng.randint(1, 6) for _ in range(variant.dice_count))
        self.open_seat = variant.open_seat(dealer, self.dice)
        # D-1: the indicators stay face up at the tail, out of play (never drawn, not even as replacements)
        self.indicators = tuple(self.wall.turn_up_tail(variant.indicator_count()))
        self.wildcards: tuple[Tile, ...] = variant.wildcard_faces(self.indicators)
        self.seats = [SeatState(wild=frozenset(self.wildcards)) for _ in range(self.n)]
        self.bonus_kinds = frozenset(k for k in range(HONOUR_BASE, N_KINDS)
                                     if variant.is_bonus(TILES[k], self.wildcards))
        self.bonus_order = sorted(self.bonus_kinds)
        self.seat_winds = [variant.seat_wind(s, dealer, self.open_seat, self.options) for s in range(self.n)]

    # -- events ------------------------------------------------------------------------------------

    def emit(self, type_: str, public: dict[str, Any],
             private: Mapping[int, Mapping[str, Any]] | None = None) -> Event:
        """Record the next numbered event: ``public`` for everyone, ``private[seat]`` for that seat only."""
        ev = Event(len(self.events) + 1, type_, public, {} if private is None else dict(private))
        self.events.append(ev)
        return ev

    def watchers(self, seat: int) -> list[int]:
        """Seats that may see ``seat``'s concealed tiles: itself and any 眼牌 declarer."""
        if not self.revealers:
            return [seat]
        return [s for s in range(self.n) if s == seat or s in self.revealers]

    def emit_draw(self, seat: int, t: Tile, tail: bool = False) -> None:
        """A draw (摸牌; ``tail``: a replacement from the tail, 補牌): the tile is shown to its watchers only."""
        name = NAMES[t]
        private = {w: {"tile": name} for w in self.watchers(seat)} if self.revealers else {seat: {"tile": name}}
        self.emit("draw", {"seat": seat, "tail": tail, "wall": self.wall.remaining}, private)

    def order_from(self, seat: int) -> list[int]:
        """Every seat once, counterclockwise (the order of play) starting with ``seat``."""
        return [(seat + i) % self.n for i in range(self.n)]

    # -- queries -----------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.ENDED

    def can_win_with(self, seat: int, extra: int | None = None) -> bool:
        """Is the seat's hand (plus ``extra``) a win?  With ``extra``, answered from cached waits."""
        if extra is not None:
            return extra in self.winning_tiles(seat)
        s = self.seats[seat]
        return s.code.is_win(s.jokers)

    def winning_tiles(self, seat: int) -> frozenset[int]:
        """Every tile that would complete the seat's 3n+1 hand, cached until the hand changes.

        A claim window asks this of up to three seats per discard; the hand changes only on the
        seat's own turn, and a hand that is not even one tile from a win costs one table lookup.
        """
        s = self.seats[seat]
        if s.wait_cache is not None and s.wait_cache[0] == s.rev:
            return s.wait_cache[1]
        found: frozenset[int] = frozenset()
        if s.code.is_win(s.jokers + 1):
            natural = [t for t in s.code.waits(s.jokers) if t not in s.wild]
            found = frozenset(natural) | s.wild
        s.wait_cache = (s.rev, found)
        return found

    def may_be_ready_after_a_discard(self, seat: int) -> bool:
        """A cheap necessary condition for any discard leaving the hand ready.

        Ready after discarding t ⇔ need(H−t) ≤ J+1; and need(H) ≤ need(H−t) + 2 (t plus two jokers
        make a pung), so some discard can only work when H wins with J+3 jokers: one lookup instead
        of one per tile.
        """
        s = self.seats[seat]
        return s.code.is_win(s.jokers + 3)

    def is_ready_after_discard(self, seat: int, t: int) -> bool:
        """Tenpai after discarding ``t``: one tile from a win ⇔ a win with one more joker."""
        s = self.seats[seat]
        return s.code.is_win_without(t, s.jokers + 1)

    def first_turn_open(self) -> bool:
        """The dealer's first turn, before any discard or kong (天胡)."""
        return self.context.source is Source.DEAL and self.discards_total == 0 and self.kongs == 0

    def is_dealers_first_discard(self) -> bool:
        """The claim window is on the dealer's first discard of the hand (天台/台炮 地胡)."""
        return (self.window is not None and self.window.from_seat == self.dealer
                and self.discards_total == 1 and not self.any_claim)

    def self_win_allowed(self, seat: int) -> bool:
        """台灣 過水: a seat that passed a win on a tile may not self-draw that tile before its own discard."""
        s = self.seats[seat]
        return not (self.variant.pass_win_lock is PassLock.UNTIL_OWN_DISCARD and s.drawn in s.no_win)

    def reserve(self) -> int:
        """Tiles that are never drawn normally now (R, docs/rules/common.md#wall)."""
        return self.variant.reserve(self)

    def awaiting(self) -> list[int]:
        """Seats that must answer now (the table actor prompts these)."""
        if self.phase in (Phase.TURN, Phase.SPLIT):
            return [self.current]
        if self.window is not None:
            return [s for s in self.window.options if s not in self.window.answers]
        return []
