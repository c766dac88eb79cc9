"""Property tests of the hand flow, all three variants (docs/rules/common.md#wall, docs/rules/tiantai.md, docs/rules/taipao.md, docs/rules/taiwan.md, docs/rules/timing.md#timeout).

* Random legal play (random seeds, a random awaited seat, a random legal action) never breaks an invariant
  (``engine.invariants.check_all`` after every apply), and always ends.
* A hand replays bit for bit from its seed and its action list (also after a JSON round trip).
* An illegal action is refused with a typed reason and leaves the state exactly as it was.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, ActionKind, Declare, IllegalAction, Refusal
from engine.bots import greedy_policy
from engine.invariants import check_all
from engine.state import HandState
from engine.tiles import TILES
from engine.variants import WallEnd
from tests.engine.flow_helpers import ALL_VARIANTS, TAIPAO, TIANTAI, K, Phase, snapshot

VARIANT = st.sampled_from(ALL_VARIANTS)
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _choose(state: HandState, rng: random.Random, greedy: bool = False) -> Action:
    seat = rng.choice(state.awaiting())
    if greedy:  # a bot that claims and keeps its hand ready: reaches wins, kongs and robs more often
        return greedy_policy(state, seat, rng)
    legal = state.legal_actions(seat)
    wins = [a for a in legal if a.kind in (K.WIN, K.KILL_PIG)]
    if wins and rng.random() < 0.5:
        return rng.choice(wins)
    claims = [a for a in legal if a.kind in (K.PONG, K.KONG, K.CHOW)]
    if claims and rng.random() < 0.5:
        return rng.choice(claims)
    plain = [a for a in legal if a.declare is None]
    if plain and rng.random() < 0.9:  # declarations now and then (眼牌 / 聽 lock the hand)
        return rng.choice(plain)
    return rng.choice(legal)


def _check_step(state: HandState, before_remaining: int) -> None:
    """Per-step rules that hold in every reachable state."""
    v = state.variant
    assert state.wall.remaining <= before_remaining  # the wall only shrinks
    awaited = set(state.awaiting())
    for seat in range(v.n_seats):
        legal = state.legal_actions(seat)
        assert bool(legal) == (seat in awaited)
        for a in legal:
            assert a.seat == seat
            if a.kind is K.CHOW:
                assert v.has_chow  # 天台 never chows (docs/rules/tiantai.md#claims)
            if a.kind is K.DISCARD:
                assert a.tile not in state.wildcards  # docs/rules/taipao.md#caishen-use
            if a.kind is K.KILL_PIG:
                assert v is TAIPAO
            if a.declare is not None:
                assert (a.declare is Declare.READY) == (v is TAIPAO)
                assert v is not TIANTAI
    for s in state.seats:
        assert not any(x in state.wildcards for x in s.river)


def _play(variant, seed: int, policy_seed: int, check: bool = True, greedy: bool = False) -> HandState:
    state = HandState.deal(variant, seed=seed, dealer=seed % variant.n_seats)
    rng = random.Random(policy_seed)
    if check:
        check_all(state)
    for _ in range(3000):
        if state.is_over:
            break
        remaining = state.wall.remaining
        state.apply(_choose(state, rng, greedy))
        if check:
            check_all(state)
            _check_step(state, remaining)
    assert state.is_over, "the hand did not end"
    return state


@SETTINGS
@given(variant=VARIANT, seed=st.integers(0, 2**32 - 1), policy_seed=st.integers(0, 2**32 - 1),
       greedy=st.booleans())
def test_random_legal_play_keeps_every_invariant(variant, seed, policy_seed, greedy):
    """Tiles conserved, hand sizes right, no leak to any seat, after every action; the hand ends; a drawn
    hand leaves at most the reserve (docs/rules/common.md#wall) and pays nothing; payments sum to zero."""
    state = _play(variant, seed, policy_seed, greedy=greedy)
    r = state.result
    assert state.events[-1].type == "hand_end"
    assert sum(r.score.net) == 0
    if r.is_draw:
        assert r.score.payments == ()
        if variant.wall_end is WallEnd.SPLIT_DEAL:
            assert [len(s.set_aside) for s in state.seats] == [1] * 4  # 黄牌 after all four 分牌 tiles
        else:
            assert state.wall.remaining <= variant.reserve_tiles
    else:
        assert r.win_kind is not None and r.winners
        if len(r.winners) > 1:
            assert variant.multiple_winners and r.win_kind.value == "discard"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=VARIANT, seed=st.integers(0, 2**32 - 1), policy_seed=st.integers(0, 2**32 - 1),
       greedy=st.booleans())
def test_a_hand_replays_bit_for_bit_from_seed_and_actions(variant, seed, policy_seed, greedy):
    """The seed plus the action log (also through its JSON form) rebuild the same events and result."""
    state = _play(variant, seed, policy_seed, check=False, greedy=greedy)

    def dump(s: HandState):
        return [(e.seq, e.type, dict(e.public), {k: dict(v) for k, v in e.private.items()}) for e in s.events]

    actions = [Action.from_json(a.to_json()) for a in state.actions]
    assert actions == state.actions
    again = HandState.replay(variant, actions, seed=seed, dealer=seed % variant.n_seats)
    assert dump(again) == dump(state)
    assert repr(again.result) == repr(state.result)
    fresh = HandState.deal(variant, seed=seed, dealer=seed % variant.n_seats)
    for a in state.actions:
        fresh.apply(a)
    assert dump(fresh) == dump(state)


def _random_action(rng: random.Random, n: int) -> Action:
    kind = rng.choice(list(ActionKind))
    seat = rng.randrange(-1, n + 1)
    tile = rng.choice([None, *TILES])
    tiles: tuple = ()
    if kind is ActionKind.CHOW and rng.random() < 0.7:
        start = rng.randrange(0, 27)
        tiles = tuple(TILES[start + i] for i in range(3) if start + i < 42)
    declare = rng.choice([None, None, *Declare])
    return Action(kind, seat, tile, tiles, declare)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=VARIANT, seed=st.integers(0, 2**32 - 1), policy_seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_never_change_the_state(variant, seed, policy_seed):
    """At random points of random hands, random actions that are not legal are refused with a Refusal and
    leave views, events, wall and seats exactly as they were."""
    state = HandState.deal(variant, seed=seed, dealer=seed % variant.n_seats)
    rng = random.Random(policy_seed)
    refused = 0
    for step in range(3000):
        if step % 15 == 0 or state.is_over:
            before = snapshot(state)
            for _ in range(6):
                a = _random_action(rng, variant.n_seats)
                if 0 <= a.seat < variant.n_seats and a in state.legal_actions(a.seat):
                    continue
                try:
                    state.apply(a)
                except IllegalAction as exc:
                    assert isinstance(exc.reason, Refusal)
                    refused += 1
                else:
                    raise AssertionError(f"illegal {a} was accepted")
            assert snapshot(state) == before
        if state.is_over:
            break
        state.apply(_choose(state, rng))
    assert refused > 0
    assert state.phase is Phase.ENDED
