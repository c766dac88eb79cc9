"""What the hand flow tells its actor (issue 31 item 4): ``HandFlow.play`` returns what an action did — its
engine events, whether the hand ended and how — and the claim hold moves the end to the tick that releases
the last event; one ``seat_went_auto`` puts a seat on 托管 whatever the reason.  No actor task, no database."""

from __future__ import annotations

import json
from typing import Any, get_args

from app import metrics
from app.bots import TableBots
from app.game.variants import VariantKey
from app.tables.play.clock import FakeClock
from app.tables.play.commands import Command, Tick
from app.tables.play.flow import HandFlow
from app.tables.play.outbox import Outbox
from app.tables.play.played import NOTHING, AutoPlayReason, Played
from app.tables.play.seats import SeatLink, SeatSlot
from app.tables.settings import TableSettings
from app.tables.table_info import TableInfo, TableStatus
from engine.actions import Action, ActionKind
from engine.phase import Phase
from tests.app.support.table_harness import first_dealer_is


def _flow(posted: list[Command], clock: FakeClock, **settings: Any) -> HandFlow:
    info = TableInfo(id="t1", room=None, variant=VariantKey.TAIWAN, options={}, seats=[7, None, None, None],
                     bots=[1, 2, 3], status=TableStatus.PLAYING, practice=True)
    slots = [SeatSlot(seat, uid, None, seat in info.bots) for seat, uid in enumerate(info.seats)]
    return HandFlow(info, TableSettings(**settings), clock, slots, Outbox(slots, clock), TableBots(seed=3),
                    post=posted.append, table_closed=lambda: False)


def _up_to_a_win_on_a_discard(flow: HandFlow) -> Action:
    """Play hands with the bots' moves until a seat may win on a discard; every other seat in that claim
    window has passed, so the win is its last answer.  Returns the win, not yet played."""
    flow.start_game()
    for _ in range(200):
        hand = flow.hand
        assert hand is not None
        while not hand.is_over:
            awaited = hand.awaiting()
            winner = next((seat for seat in awaited if hand.phase is Phase.CLAIMS
                           and any(a.kind is ActionKind.WIN for a in hand.legal_actions(seat))), None)
            if winner is None:
                played = flow.play(flow.bots.choose(hand, awaited[0]))
                assert not played.hand_ended or hand.is_over
                continue
            for seat in awaited:
                if seat != winner:
                    flow.play(Action(ActionKind.PASS, seat))
            return next(a for a in hand.legal_actions(winner) if a.kind is ActionKind.WIN)
        flow.new_hand()  # no win on a discard in this one: deal again
    raise AssertionError("no win on a discard in 200 hands")


async def test_play_returns_the_events_and_the_hand_end_on_the_winning_discard() -> None:
    flow = _flow([], FakeClock(), claim_hold_seconds=0)
    win = _up_to_a_win_on_a_discard(flow)
    hand = flow.hand
    assert hand is not None
    before = len(hand.events)
    played = flow.play(win)
    assert hand.is_over and hand.result is not None and hand.result.winners
    assert played.hand_ended and played.ended_by == "discard" and played.game_over is None
    assert played.events == tuple(hand.events[before:]) and played.events[-1].type == "hand_end"


async def test_an_action_that_does_not_end_the_hand_returns_its_events_only() -> None:
    flow = _flow([], FakeClock(), claim_hold_seconds=0)
    flow.start_game()
    hand = flow.hand
    assert hand is not None and hand.phase is Phase.TURN
    before = len(hand.events)
    played = flow.play(flow.bots.choose(hand, hand.awaiting()[0]))
    assert played.events == tuple(hand.events[before:]) and played.events[0].type == "discard"
    assert not played.hand_ended and played.ended_by is None and played.game_over is None


async def test_under_the_claim_hold_the_hand_ends_when_its_last_event_is_released() -> None:
    clock, posted = FakeClock(), list[Command]()
    flow = _flow(posted, clock, claim_hold_seconds=1.0)
    win = _up_to_a_win_on_a_discard(flow)
    played = flow.play(win)
    assert played.events[-1].type == "hand_end"
    assert not played.hand_ended  # the hand is over, but its end is still held: the actor must not settle yet
    ended: list[Played] = []
    for _ in range(1000):  # every discard of the hand is held in turn: release them all
        if not flow.pending:
            break
        clock.advance(1.0)
        while posted:
            tick = posted.pop(0)
            assert isinstance(tick, Tick)
            result = flow.on_tick(tick)
            if result.hand_ended:
                ended.append(result)
    assert [(p.hand_ended, p.ended_by) for p in ended] == [(True, "discard")]
    assert not flow.pending


async def test_a_settled_hand_is_not_reported_again() -> None:
    flow = _flow([], FakeClock(), claim_hold_seconds=0)
    flow.play(_up_to_a_win_on_a_discard(flow))
    flow.settled_hand = flow.hand  # what HandEnd.finish_hand marks
    assert flow.pump() == NOTHING


def _table_events(link: SeatLink) -> list[dict[str, Any]]:
    texts = []
    while not link.queue.empty():
        text = link.queue.get_nowait()
        assert text is not None
        texts.append(json.loads(text))
    return [m["event"] for m in texts if m.get("type") == "event" and "seq" not in m["event"]]


async def test_every_way_onto_auto_play_plays_the_open_prompt_and_only_leaving_is_told_by_presence(
        monkeypatch) -> None:  # noqa: ANN001
    first_dealer_is(monkeypatch, 0)  # seat 0, the human, has the first prompt
    reasons: tuple[AutoPlayReason, ...] = ("timeouts", "chosen", "frozen", "disconnected")
    for reason in reasons:
        flow = _flow([], FakeClock())
        flow.slots[0].link = SeatLink(256)  # seat 0 is at the table: its prompt waits for the player
        watcher = SeatLink(256)
        watcher.synced = True
        flow.out.watchers.append(watcher)
        flow.start_game()
        prompt = flow.prompts[0]
        assert prompt.act_timer is None
        _table_events(watcher)
        if reason == "disconnected":
            flow.slots[0].link = None
        flow.seat_went_auto(0, reason)
        assert prompt.act_timer is not None, reason  # the server plays the open prompt after the delay
        told = _table_events(watcher)
        if reason == "disconnected":
            assert told == [] and not flow.slots[0].auto  # its presence event says it; back on reconnect
        else:
            assert told == [{"type": "auto_play", "seat": 0, "on": True, "reason": reason}]
            assert flow.slots[0].auto


def test_the_auto_play_reasons_are_the_metrics_labels() -> None:
    """``AutoPlayReason`` and the ``AUTO_PLAY_BY`` labels name the same four reasons (a new one needs both)."""
    assert get_args(AutoPlayReason) == metrics.AUTO_PLAY_REASONS
