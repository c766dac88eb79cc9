"""One hand (盤) of any variant: the authoritative state machine.

``HandState.deal(...)`` shuffles with the given seed and plays the automatic part (deal, 補花);
then ``legal_actions(seat)`` / ``apply(action)`` drive it.  Every change is an ``Event`` in
``events``; ``actions`` is the replay log (the seed plus the actions rebuild the hand bit for bit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action, ActionKind, Declare, IllegalAction, Refusal
from engine.board import HandBoard
from engine.claims import open_discard_window, open_rob_window, resolve_window
from engine.events import Event
from engine.legal import default_action, legal_actions
from engine.melding import claim_meld, complete_added_kong, concealed_kong, replacement_draw
from engine.outcome import finish_hand
from engine.phase import DRAWN, DRAWN_LAST, ClaimWindow, Phase, Source, TurnContext
from engine.rigging import deal_positions
from engine.scoring.situation import KongKind, WinKind
from engine.split_deal import next_split, start_split
from engine.tiles import NAMES, TILES, Tile
from engine.variants import Variant, WallEnd
from engine.variants.base import PassLock
from engine.view import seat_view


class HandState(HandBoard):
    """One hand and its flow.  Create with ``HandState.deal``."""

    def __init__(self, variant: Variant, options: Mapping[str, Any], dealer: int, round_wind: int,
                 dealer_streak: int, seed: int | str | bytes,
                 wall: Sequence[Tile] | None = None) -> None:
        super().__init__(variant, options, dealer, round_wind, dealer_streak, seed, wall)
        self._legal_cache: dict[int, list[Action]] = {}

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

    def _deal_tiles(self) -> None:
        """docs/rules/tiantai.md#deal / docs/rules/taiwan.md#deal: four at a time, then singles, then the dealer's extra tile."""
        tiles = self.wall.tiles
        for seat, positions in enumerate(deal_positions(self.variant, self.dealer)):
            self.seats[seat].take([tiles[p] for p in positions])
        self.wall.head = self.variant.n_seats * self.variant.hand_size + 1
        self.seats[self.dealer].drawn = tiles[self.wall.head - 1]
        self.emit(
            "deal",
            {"dealer": self.dealer, "dice": list(self.dice), "open_seat": self.open_seat,
             "seat_winds": self.seat_winds, "wildcards": [str(t) for t in self.wildcards],
             "indicators": [str(t) for t in self.indicators], "wall": self.wall.remaining},
            {s: {"tiles": self.seats[s].tile_names()} for s in range(self.n)},
        )

    def _initial_bonus_replacement(self) -> None:
        """docs/rules/tiantai.md#flowers / docs/rules/taipao.md#bonus-tiles / docs/rules/taiwan.md#flowers: passes from the dealer; a replacement bonus waits a pass."""
        while self.phase is not Phase.ENDED:
            replaced = False
            for s in self.order_from(self.dealer):
                seat = self.seats[s]
                bonus = [TILES[k] for k in self.bonus_order if seat.counts[k] for _ in range(seat.counts[k])]
                for t in bonus:
                    replaced = True
                    seat.remove(t)
                    seat.flowers.append(t)
                    self.emit("flower", {"seat": s, "tile": NAMES[t], "wall": self.wall.remaining})
                    new = self.wall.draw_tail()
                    seat.add(new)
                    if s == self.dealer:
                        seat.drawn = new
                    self.emit_draw(s, new, tail=True)
                    # after the replacement, so that a 七搶一 payer still holds 16 tiles (docs/rules/taiwan.md#seven-rob-one)
                    if self._check_flower_win(s):
                        return
            if not replaced:
                return

    # -- queries -----------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (cached until the next applied action; do not mutate)."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = legal_actions(self, seat)
        return cached

    def forget_legal_actions(self) -> None:
        """Drop the cached legal actions: for a copy whose seats were changed from outside the flow (a bot's
        what-if deal of the hidden tiles); the flow itself clears the cache on every action."""
        self._legal_cache.clear()

    def default_action(self, seat: int, auto_play: bool = False) -> Action | None:
        """What a timeout does for ``seat`` now (docs/rules/timing.md#timeout); None when it is not asked to act."""
        return default_action(self.legal_actions(seat), self.seats[seat].drawn, auto_play)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The whole table as ``seat`` may see it (``engine.view.seat_view``), with its legal actions."""
        return seat_view(self, seat, self.legal_actions(seat) if seat is not None else ())

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
            self._split_answer(action)
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
            self._own_kong(a.seat, a.tile)
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
        """A locked hand (聽 / 眼牌) wins when forced, otherwise discards its draw (docs/rules/taipao.md#ting, docs/rules/taiwan.md#eye)."""
        if self.phase is not Phase.TURN:
            return False
        seat = self.seats[self.current]
        if not seat.locked or self.context.source is Source.CLAIM or seat.drawn is None:
            return False
        if self.can_win_with(self.current) and self.self_win_allowed(self.current):
            if seat.reveals_others:  # C-9: a 眼牌 declarer cannot pass a win
                self._self_win(self.current)
                return True
            return False
        if seat.drawn in self.wildcards or self.variant.can_kill_pig(self, self.current):
            return False  # the player chooses: 杀猪, or a discard other than the 財神
        self._discard(self.current, seat.drawn, None)
        return True

    def _draw_for(self, seat: int) -> None:
        """A normal draw from the head, or the end of the wall (流局 / 分牌)."""
        reserve = self.variant.reserve(self)
        remaining = self.wall.remaining
        if remaining <= reserve:
            if self.variant.wall_end is not WallEnd.SPLIT_DEAL or not start_split(self, seat):
                self._finish([], None, None, None)  # 流局, or 黄牌 when no 分牌 tile could win
            return
        s = self.seats[seat]
        if self.variant.pass_win_lock is PassLock.UNTIL_OWN_DRAW:
            s.no_win.clear()
        s.no_pong.clear()
        s.draws += 1
        t = self.wall.draw()
        self.current, self.phase = seat, Phase.TURN
        self.context = DRAWN_LAST if remaining == reserve + 1 else DRAWN
        self.emit_draw(seat, t)
        self._receive(seat, t)

    def _receive(self, seat: int, t: Tile) -> None:
        """Take a drawn tile into the hand, replacing bonus tiles from the tail (補花)."""
        s = self.seats[seat]
        while t in self.bonus_kinds:
            s.flowers.append(t)
            self.emit("flower", {"seat": seat, "tile": NAMES[t], "wall": self.wall.remaining})
            if self._check_flower_win(seat):
                return
            t = self.wall.draw_tail()
            # a flower's replacement inherits 海底: no kong on it, its discard only won on (docs/rules/tiantai.md#last-tile); and the
            # kong that began the chain, if any (D-6)
            ctx = self.context
            self.context = TurnContext(Source.FLOWER, last=ctx.last, kong_kind=ctx.kong_kind, kong_tile=ctx.kong_tile)
            self.emit_draw(seat, t, tail=True)
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
        public: dict[str, Any] = {"seat": seat, "tile": NAMES[t]}
        if declare is not None:
            s.declaration = declare
            public["declare"] = declare.value
        self.emit("discard", public)
        if declare is not None and s.reveals_others:
            self.revealers.add(seat)
            self.emit("reveal", {"seat": seat}, {seat: {"hands": {
                o: self.seats[o].tile_names() for o in range(self.n) if o != seat}}})
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
                self._complete_added_kong(w.from_seat, w.tile)
            else:
                self._draw_for((w.from_seat + 1) % self.n)
            return
        self.phase = Phase.ROB if w.kind == "rob" else Phase.CLAIMS
        if len(w.answers) == len(w.options):
            self._close_window(w)

    def _close_window(self, w: ClaimWindow) -> None:
        """Carry out the verdict of a window everyone has answered (``engine.claims.resolve_window``)."""
        verdict = resolve_window(self)
        if verdict.winners:
            kind = WinKind.ROB_KONG if w.kind == "rob" else WinKind.DISCARD
            self._finish(list(verdict.winners), kind, w.tile, w.from_seat)
        elif w.kind == "rob":
            self.window = None
            self._complete_added_kong(w.from_seat, w.tile)
        elif verdict.claim is not None:
            claim_meld(self, verdict.claim.seat, verdict.claim, w.from_seat, w.tile)
            if verdict.claim.kind is ActionKind.KONG:
                self._replacement(verdict.claim.seat, KongKind.EXPOSED, w.tile)
        else:
            self.window = None
            self._draw_for((w.from_seat + 1) % self.n)

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

    # -- kongs and 分牌 -----------------------------------------------------------------------------

    def _own_kong(self, seat: int, t: Tile) -> None:
        """暗槓 draws its replacement at once; 加槓 first opens the 搶槓 window (docs/rules/tiantai.md#robbing, docs/rules/taiwan.md#robbing)."""
        if self.seats[seat].counts[t] == 4:
            concealed_kong(self, seat, t)
            self._replacement(seat, KongKind.CONCEALED, t)
            return
        self.emit("kong_attempt", {"seat": seat, "tile": str(t)})
        self.window = open_rob_window(self, seat, t)
        self._after_answers()

    def _complete_added_kong(self, seat: int, t: Tile) -> None:
        complete_added_kong(self, seat, t)
        self._replacement(seat, KongKind.ADDED, t)

    def _replacement(self, seat: int, kind: KongKind, t: Tile) -> None:
        self._receive(seat, replacement_draw(self, seat, kind, t))

    def _split_answer(self, a: Action) -> None:
        """A 分牌 seat wins on its tile, or passes it on to the next seat's 分牌 tile (docs/rules/taipao.md#split-deal)."""
        if a.kind is ActionKind.WIN:
            self._finish([a.seat], WinKind.SPLIT_DEAL, self.seats[a.seat].set_aside.pop(), None)
        elif not next_split(self):
            self._finish([], None, None, None)

    # -- the end -----------------------------------------------------------------------------------

    def _finish(self, winners: list[int], kind: WinKind | None, tile: Tile | None, discarder: int | None,
                kong_kind: KongKind | None = None, kong_tile: Tile | None = None) -> None:
        self.phase = Phase.ENDED
        # the window is still needed by the 地胡 test (is_dealers_first_discard) while the result is built
        self.result = finish_hand(self, winners, kind, tile, discarder, kong_kind, kong_tile)
        self.window = None
        self.emit("hand_end", self.result.public_json(self))

