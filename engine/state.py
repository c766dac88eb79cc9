"""One hand (盤) of any variant: the authoritative state machine.

``HandState.deal(...)`` shuffles with the given seed and plays the automatic part (deal, 補花);
then ``legal_actions(seat)`` / ``apply(action)`` drive it.  Every change is an ``Event`` in
``events``; ``actions`` is the replay log (the seed plus the actions rebuild the hand bit for bit).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action, ActionKind, Declare, IllegalAction, Refusal
from engine.claims import ClaimWindow, open_discard_window, resolve_window
from engine.events import Event
from engine.legal import default_action, legal_actions
from engine.melding import claim_meld, complete_added_kong, own_kong
from engine.outcome import HandResult, finish_hand
from engine.phase import Phase, Source, TurnContext
from engine.rigging import deal_positions
from engine.scoring.situation import KongKind, WinKind
from engine.seat import SeatState
from engine.split_deal import split_answer, start_split
from engine.tiles import HONOUR_BASE, N_KINDS, TILES, Tile
from engine.variants import Variant, WallEnd
from engine.variants.base import PassLock
from engine.wall import Wall


class HandState:
    """The state of one hand.  Create with ``HandState.deal``."""

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
        self._legal_cache: dict[int, list[Action]] = {}
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

    # -- construction ------------------------------------------------------------------------------

    @classmethod
    def deal(cls, variant: Variant, *, seed: int | str | bytes, dealer: int = 0, round_wind: int = 0,
             dealer_streak: int = 0, options: Mapping[str, Any] | None = None,
             wall: Sequence[Tile] | None = None) -> HandState:
        """Shuffle, throw the dice, deal, replace bonus tiles; the dealer is then to act.

        ``wall`` replaces the shuffle with a given tile order (tests and puzzles; see engine.rigging).
        """
        if wall is not None and sorted(wall) != sorted(variant.kinds):
            raise ValueError("a given wall must hold exactly the variant's tiles")
        state = cls(variant, variant.resolve_options(options), dealer, round_wind, dealer_streak, seed, wall)
        state._deal_tiles()
        state._initial_bonus_replacement()
        state._run_automatic()
        return state

    @classmethod
    def replay(cls, variant: Variant, actions: Sequence[Action], *, seed: int | str | bytes,
               dealer: int = 0, round_wind: int = 0, dealer_streak: int = 0,
               options: Mapping[str, Any] | None = None) -> HandState:
        """Re-deal from the seed and re-apply the actions: the same events, bit for bit."""
        state = cls.deal(variant, seed=seed, dealer=dealer, round_wind=round_wind,
                         dealer_streak=dealer_streak, options=options)
        for action in actions:
            state.apply(action)
        return state

    def _order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.n for i in range(self.n)]

    def _deal_tiles(self) -> None:
        """§1.1 r7 / §3.1 r4: four at a time, then singles, then the dealer's extra tile."""
        tiles = self.wall.tiles
        for seat, positions in enumerate(deal_positions(self.variant, self.dealer)):
            self.seats[seat].take([tiles[p] for p in positions])
        self.wall.head = self.variant.n_seats * self.variant.hand_size + 1
        self.seats[self.dealer].drawn = tiles[self.wall.head - 1]
        self._emit(
            "deal",
            {"dealer": self.dealer, "dice": list(self.dice), "open_seat": self.open_seat,
             "seat_winds": self.seat_winds, "wildcards": [str(t) for t in self.wildcards],
             "indicators": [str(t) for t in self.indicators], "wall": self.wall.remaining},
            {s: {"tiles": [str(t) for t in self.seats[s].tiles()]} for s in range(self.n)},
        )

    def _initial_bonus_replacement(self) -> None:
        """§1.1 r8 / §2.1 r8 / §3.1 r5: passes from the dealer; a replacement bonus waits a pass."""
        while self.phase is not Phase.ENDED:
            replaced = False
            for s in self._order_from(self.dealer):
                seat = self.seats[s]
                bonus = [TILES[k] for k in self.bonus_order if seat.counts[k] for _ in range(seat.counts[k])]
                for t in bonus:
                    replaced = True
                    seat.remove(t)
                    seat.flowers.append(t)
                    self._emit("flower", {"seat": s, "tile": str(t), "wall": self.wall.remaining})
                    new = self.wall.draw_tail()
                    seat.add(new)
                    if s == self.dealer:
                        seat.drawn = new
                    self._emit_draw(s, new, tail=True)
                    # after the replacement, so that a 七搶一 payer still holds 16 tiles (§3.1 r17)
                    if self._check_flower_win(s):
                        return
            if not replaced:
                return

    # -- events ------------------------------------------------------------------------------------

    def _emit(self, type_: str, public: dict[str, Any],
              private: Mapping[int, Mapping[str, Any]] | None = None) -> Event:
        ev = Event(len(self.events) + 1, type_, public, dict(private or {}))
        self.events.append(ev)
        return ev

    def _watchers(self, seat: int) -> list[int]:
        """Seats that may see ``seat``'s concealed tiles: itself and any 眼牌 declarer."""
        if not self.revealers:
            return [seat]
        return [s for s in range(self.n) if s == seat or s in self.revealers]

    def _emit_draw(self, seat: int, t: Tile, tail: bool = False) -> None:
        self._emit("draw", {"seat": seat, "tail": tail, "wall": self.wall.remaining},
                   {w: {"tile": str(t)} for w in self._watchers(seat)})

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
        s.code.remove(t)
        try:
            return s.code.is_win(s.jokers + 1)
        finally:
            s.code.add(t)

    def first_turn_open(self) -> bool:
        """The dealer's first turn, before any discard or kong (天胡)."""
        return self.context.source is Source.DEAL and self.discards_total == 0 and self.kongs == 0

    def is_dealers_first_discard(self) -> bool:
        """The claim window is on the dealer's first discard of the hand (天台/台炮 地胡)."""
        return (self.window is not None and self.window.from_seat == self.dealer
                and self.discards_total == 1 and not self.any_claim)

    def reserve(self) -> int:
        return self.variant.reserve(self)

    def awaiting(self) -> list[int]:
        """Seats that must answer now (the table actor prompts these)."""
        if self.phase in (Phase.TURN, Phase.SPLIT):
            return [self.current]
        if self.window is not None:
            return [s for s in self.window.options if s not in self.window.answers]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (cached until the next applied action; do not mutate)."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = legal_actions(self, seat)
        return cached

    def default_action(self, seat: int, auto_play: bool = False) -> Action | None:
        return default_action(self, seat, auto_play)

    def view(self, seat: int | None) -> dict[str, Any]:
        from engine.view import seat_view

        return seat_view(self, seat)

    # -- applying actions --------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns the events it caused.  Illegal → ``IllegalAction``, no change."""
        self._check(action)
        start = len(self.events)
        self.actions.append(action)
        self._legal_cache.clear()
        if self.phase in (Phase.CLAIMS, Phase.ROB):
            self._answer(action)
        elif self.phase is Phase.SPLIT:
            split_answer(self, action)
        else:
            self._turn_action(action)
        self._run_automatic()
        return self.events[start:]

    def _check(self, action: Action) -> None:
        if self.phase is Phase.ENDED:
            raise IllegalAction(Refusal.HAND_OVER, action)
        if not 0 <= action.seat < self.n:
            raise IllegalAction(Refusal.BAD_SEAT, action)
        if self.window is not None and action.seat in self.window.answers:
            raise IllegalAction(Refusal.ALREADY_ANSWERED, action)
        legal = self.legal_actions(action.seat)
        if not legal:
            raise IllegalAction(Refusal.NOT_YOUR_TURN, action)
        # identity first: legal lists hold interned actions, and dataclass == is slow
        for a in legal:
            if a is action:
                return
        if action not in legal:
            raise IllegalAction(Refusal.NOT_LEGAL, action)

    def _turn_action(self, a: Action) -> None:
        if a.kind is ActionKind.DISCARD:
            assert a.tile is not None
            self._discard(a.seat, a.tile, a.declare)
        elif a.kind is ActionKind.WIN:
            self._self_win(a.seat)
        elif a.kind is ActionKind.KONG:
            assert a.tile is not None
            own_kong(self, a.seat, a.tile)
        elif a.kind is ActionKind.KILL_PIG:
            self._finish([a.seat], WinKind.KILL_PIG, None, None)

    # -- turn flow ---------------------------------------------------------------------------------

    def _run_automatic(self) -> None:
        """Play the turns nobody chooses, in a loop (not recursion: a locked hand may draw and
        discard many times in a row)."""
        while self._automatic_step():
            pass
        self._legal_cache.clear()

    def _automatic_step(self) -> bool:
        """A locked hand (聽 / 眼牌) wins when forced, otherwise discards its draw (§2.1 r13, §3.1 r14)."""
        if self.phase is not Phase.TURN:
            return False
        seat = self.seats[self.current]
        if not seat.locked or self.context.source is Source.CLAIM or seat.drawn is None:
            return False
        if self.can_win_with(self.current) and self._self_win_allowed(self.current):
            if seat.reveals_others:  # C-9: a 眼牌 declarer cannot pass a win
                self._self_win(self.current)
                return True
            return False
        if seat.drawn in self.wildcards or self.variant.can_kill_pig(self, self.current):
            return False  # the player chooses: 杀猪, or a discard other than the 財神
        self._discard(self.current, seat.drawn, None)
        return True

    def _self_win_allowed(self, seat: int) -> bool:
        s = self.seats[seat]
        return not (self.variant.pass_win_lock is PassLock.UNTIL_OWN_DISCARD and s.drawn in s.no_win)

    def _draw_for(self, seat: int) -> None:
        """A normal draw from the head, or the end of the wall (流局 / 分牌)."""
        reserve = self.reserve()
        if self.wall.remaining <= reserve:
            if self.variant.wall_end is WallEnd.SPLIT_DEAL:
                start_split(self, seat)
            else:
                self._finish([], None, None, None)
            return
        last = self.wall.remaining == reserve + 1
        s = self.seats[seat]
        if self.variant.pass_win_lock is PassLock.UNTIL_OWN_DRAW:
            s.no_win.clear()
        s.no_pong.clear()
        s.draws += 1
        t = self.wall.draw()
        self.current, self.phase = seat, Phase.TURN
        self.context = TurnContext(Source.DRAW, last=last)
        self._emit_draw(seat, t)
        self._receive(seat, t)

    def _receive(self, seat: int, t: Tile) -> None:
        """Take a drawn tile into the hand, replacing bonus tiles from the tail (補花)."""
        s = self.seats[seat]
        while t in self.bonus_kinds:
            s.flowers.append(t)
            self._emit("flower", {"seat": seat, "tile": str(t), "wall": self.wall.remaining})
            if self._check_flower_win(seat):
                return
            t = self.wall.draw_tail()
            # a flower's replacement inherits 海底: no kong on it, its discard only won on (§1.1 r20); and the
            # kong that began the chain, if any (D-6)
            ctx = self.context
            self.context = TurnContext(Source.FLOWER, last=ctx.last, kong_kind=ctx.kong_kind, kong_tile=ctx.kong_tile)
            self._emit_draw(seat, t, tail=True)
        s.add(t)
        s.drawn = t

    def _check_flower_win(self, seat: int) -> bool:
        won = self.variant.flower_win(self)
        if won is None:
            return False
        winner, kind = won
        self._finish([winner], WinKind(kind), None, None)
        return True

    def _discard(self, seat: int, t: Tile, declare: Declare | None) -> None:
        s = self.seats[seat]
        s.remove(t)
        s.river.append(t)
        s.drawn = None
        s.discards_made += 1
        self.discards_total += 1
        if self.variant.pass_win_lock is PassLock.UNTIL_OWN_DISCARD:
            s.no_win.clear()
        public: dict[str, Any] = {"seat": seat, "tile": str(t)}
        if declare is not None:
            s.declaration = declare
            public["declare"] = declare.value
        self._emit("discard", public)
        if declare is not None and s.reveals_others:
            self.revealers.add(seat)
            self._emit("reveal", {"seat": seat}, {seat: {"hands": {
                o: [str(x) for x in self.seats[o].tiles()] for o in range(self.n) if o != seat}}})
        self.last_discard = (seat, t)
        win_only = self.variant.last_discard_win_only and self.context.last
        self.window = open_discard_window(self, seat, t, win_only)
        self._after_answers()

    def _after_answers(self) -> None:
        """Resolve the open window once everyone entitled has answered."""
        w = self.window
        assert w is not None
        if not w.options:
            self.window = None
            if w.kind == "rob":
                complete_added_kong(self, w.from_seat, w.tile)
            else:
                self._draw_for((w.from_seat + 1) % self.n)
            return
        self.phase = Phase.ROB if w.kind == "rob" else Phase.CLAIMS
        if len(w.answers) == len(w.options):
            resolve_window(self)

    def _answer(self, a: Action) -> None:
        assert self.window is not None
        self.window.answers[a.seat] = a
        self._after_answers()

    def _self_win(self, seat: int) -> None:
        ctx = self.context
        kind = {Source.KONG: WinKind.KONG_REPLACEMENT, Source.FLOWER: WinKind.FLOWER_REPLACEMENT}.get(
            ctx.source, WinKind.SELF_DRAW)
        if kind is WinKind.FLOWER_REPLACEMENT and ctx.kong_kind is not None and self.variant.kong_chain_through_bonus:
            kind = WinKind.KONG_REPLACEMENT  # D-6: the chain of replacements began with a kong
        self._finish([seat], kind, self.seats[seat].drawn, None, ctx.kong_kind, ctx.kong_tile)

    # -- steps the claim resolution calls back into (engine.claims) -------------------------------------

    def claim_meld(self, seat: int, a: Action, from_seat: int, t: Tile) -> None:
        claim_meld(self, seat, a, from_seat, t)

    def _complete_added_kong(self, seat: int, t: Tile) -> None:
        complete_added_kong(self, seat, t)

    # -- the end -----------------------------------------------------------------------------------

    def _finish(self, winners: list[int], kind: WinKind | None, tile: Tile | None, discarder: int | None,
                kong_kind: KongKind | None = None, kong_tile: Tile | None = None) -> None:
        self.phase = Phase.ENDED
        # the window is still needed by the 地胡 test (is_dealers_first_discard) while the result is built
        self.result = finish_hand(self, winners, kind, tile, discarder, kong_kind, kong_tile)
        self.window = None
        self._emit("hand_end", self.result.public_json(self))

