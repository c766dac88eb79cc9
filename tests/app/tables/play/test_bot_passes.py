"""A bot offered a claim passes at once; a bot that claims still takes its thinking time (``HandFlow._bot_claim``).

Nobody sees a pass (docs/server.md "Pace"): before, a bot's pass waited 0.5-1.5× ``bot_delay_seconds`` like any
move, so the pause after a discard grew whenever a bot could have claimed (what the claim hold is there to hide),
and each pass cost a timer, an actor turn and a journal write (issue 36).  The flow here plays whole hands with
bots in every seat but a 托管 one, on a fake clock, and records when each decision was taken and when each action
was played.
"""

from __future__ import annotations

import pytest

from app.bots import TableBots
from app.game.variants import VariantKey
from app.tables.play.clock import FakeClock
from app.tables.play.commands import Command, Tick
from app.tables.play.flow import SILENT_PASS_KINDS, HandFlow
from app.tables.play.outbox import Outbox
from app.tables.play.seats import SeatSlot
from app.tables.settings import TableSettings
from app.tables.table_info import TableInfo, TableStatus
from engine.actions import Action, ActionKind
from engine.phase import Phase
from engine.state import HandState

CLAIM_PHASES = {Phase.CLAIMS, Phase.ROB}


class TimedBots(TableBots):
    """Records each decision: (clock time, phase, seat, action, taken on an ``act`` timer)."""

    def __init__(self, clock: FakeClock, seed: int) -> None:
        super().__init__(seed=seed)
        self.clock = clock
        self.on_timer: int | None = None  # the seat whose ``act`` tick the test's loop is handing the flow
        self.log: list[tuple[float, Phase, int, Action, bool]] = []

    @property
    def first_decisions(self) -> list[tuple[float, Phase, int, Action]]:
        """The decisions taken as a prompt opened (not on the seat's own act timer)."""
        return [(t, phase, seat, a) for t, phase, seat, a, on_timer in self.log if not on_timer]

    def choose(self, hand: HandState, seat: int, level: str = "normal") -> Action:
        action = super().choose(hand, seat, level)
        self.log.append((self.clock.now(), hand.phase, seat, action, self.on_timer == seat))
        return action


def _flow(variant: VariantKey, seats: int, seed: int) -> tuple[HandFlow, FakeClock, list[Command], TimedBots]:
    info = TableInfo(id="t1", room=None, variant=variant, options={}, seats=[7] + [None] * (seats - 1),
                     bots=list(range(1, seats)), status=TableStatus.PLAYING, practice=True)
    slots = [SeatSlot(seat, uid, None, seat in info.bots) for seat, uid in enumerate(info.seats)]
    clock = FakeClock()
    posted: list[Command] = []
    bots = TimedBots(clock, seed)
    flow = HandFlow(info, TableSettings(_env_file=None), clock, slots, Outbox(slots, clock), bots,  # type: ignore[call-arg]
                    post=posted.append, table_closed=lambda: False)
    return flow, clock, posted, bots


def _play_a_hand(variant: VariantKey, seats: int,
                 seed: int) -> tuple[list[tuple[float, Action]], TimedBots, list[tuple[Phase, int]]]:
    """One hand to its end: (when each action was played, the bots' decisions, the phase and seat of every
    ``act`` tick handed to the flow)."""
    flow, clock, posted, bots = _flow(variant, seats, seed)
    played_at: list[tuple[float, Action]] = []

    def stamp() -> None:
        """The actions the hand took since the last look, at the clock's time (a call to the flow does not move
        the clock, so this is when ``flow.play`` played them)."""
        if flow.hand is not None:
            played_at.extend((clock.now(), a) for a in flow.hand.actions[len(played_at):])

    acts: list[tuple[Phase, int]] = []
    flow.start_game()
    stamp()
    for _ in range(20_000):
        hand = flow.hand
        if hand is not None and hand.is_over:
            break
        clock.advance(0.05)
        while posted:
            tick = posted.pop(0)
            assert isinstance(tick, Tick)
            hand = flow.hand
            if tick.kind == "act" and hand is not None and tick.seat in flow.prompts:
                acts.append((hand.phase, tick.seat))
            bots.on_timer = tick.seat if tick.kind == "act" else None
            flow.on_tick(tick)
            stamp()
            bots.on_timer = None
    assert flow.hand is not None and flow.hand.is_over
    return played_at, bots, acts


@pytest.mark.parametrize(("variant", "seats"), [(VariantKey.TIANTAI, 3), (VariantKey.TAIPAO, 4), (VariantKey.TAIWAN, 4)])
def test_a_bot_passes_a_claim_at_once_and_claims_after_its_thinking_time(variant: VariantKey, seats: int) -> None:
    settings = TableSettings(_env_file=None)  # type: ignore[call-arg]
    least_thought = 0.5 * settings.bot_delay_seconds  # a bot thinks 0.5-1.5× the setting (normal pace)
    passes = claims = 0
    for seed in range(30):
        played_at, bots, _acts = _play_a_hand(variant, seats, seed)
        for decided_at, phase, seat, action in bots.first_decisions:
            if phase not in CLAIM_PHASES or seat == 0:
                continue
            later = [(t, a) for t, a in played_at if a.seat == seat and t >= decided_at]
            assert later, f"seed {seed}: seat {seat}'s decision {action} was never played"
            when, what = later[0]
            if action.kind is ActionKind.PASS:
                passes += 1
                assert (when, what) == (decided_at, action), f"seed {seed}: a bot's pass waited"
            elif what == action:  # decided again at its act timer: the same claim, after the thinking time
                claims += 1
                assert when - decided_at >= least_thought, f"seed {seed}: a bot claimed {action} without thinking"
    assert passes > 0 and claims > 0, (passes, claims)  # both happened, in every variant


def test_a_bots_pass_has_no_act_timer_and_each_claim_has_one() -> None:
    """The timer a pass used to wait on is gone: a bot gets an ``act`` tick in a claim phase exactly when its first
    decision (taken as the prompt opened) was to claim."""
    passes = 0
    for seed in range(10):
        _played_at, bots, acts = _play_a_hand(VariantKey.TAIWAN, 4, seed)
        first = [a for _t, phase, seat, a, on_timer in bots.log
                 if phase in CLAIM_PHASES and seat != 0 and not on_timer]
        timers = [seat for phase, seat in acts if phase in CLAIM_PHASES and seat != 0]
        assert len(timers) == sum(1 for a in first if a.kind is not ActionKind.PASS), f"seed {seed}"
        passes += sum(1 for a in first if a.kind is ActionKind.PASS)
    assert passes > 0
    assert {"claim", "rob"} == SILENT_PASS_KINDS


def test_a_tuogan_seat_decides_on_its_timer_not_as_the_prompt_opens() -> None:
    """托管 plays a human's seat (seat 0 here, away): the player may come back inside the window and claim, so its
    claims are decided on its act timer as before (only bots pass at once)."""
    seen = 0
    for seed in range(6):
        _played_at, bots, _acts = _play_a_hand(VariantKey.TAIWAN, 4, seed)
        for _t, phase, seat, _a, on_timer in bots.log:
            if phase in CLAIM_PHASES and seat == 0:
                assert on_timer
                seen += 1
    assert seen > 0
