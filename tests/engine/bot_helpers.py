"""Shared by the bot and hint tests: states along a game, and the same state with hidden tiles re-dealt."""

from __future__ import annotations

import random

from engine.bots import POLICIES
from engine.state import HandState
from engine.tiles import N_KINDS, TILES
from engine.variants import find_variant


def states_along(variant: str, seed: str, every: int = 7) -> list[HandState]:
    """Copies of a hand every few actions of a normal-vs-strong game."""
    v = find_variant(variant)
    hand = HandState.deal(v, seed=seed)
    rng = random.Random(seed)
    names = ["normal", "strong"] * 2
    out = []
    steps = 0
    while not hand.is_over:
        seat = hand.awaiting()[0]
        if steps % every == 0:
            out.append(copy_of(hand))
        hand.apply(POLICIES[names[seat]](hand, seat, rng))
        steps += 1
    return out


def copy_of(hand: HandState) -> HandState:
    """An independent copy of a hand dealt from its seed: the replay of the seed and the actions so far, which
    rebuilds it bit for bit (tests/engine/test_flow_properties.py).  ``copy.deepcopy`` would do for the
    pure-Python engine but not for the compiled one (tools/compile_engine.py): mypyc's classes do not copy."""
    return HandState.replay(hand.variant, hand.actions, seed=hand.seed, dealer=hand.dealer,
                            round_wind=hand.round_wind, dealer_streak=hand.dealer_streak, options=hand.options)


def shuffle_hidden(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A copy where the other seats' concealed tiles and the undrawn wall are dealt again at random.

    Everything ``seat`` can see stays as it was: its own hand, every meld, river and flower, the counts.
    """
    other = copy_of(state)
    wall = other.wall
    pool = list(wall.tiles[wall.head:wall.tail])
    others = [s for s in range(other.n) if s != seat]
    sizes = {s: other.seats[s].tiles() for s in others}
    for s in others:
        pool.extend(sizes[s])
    rng.shuffle(pool)
    for s in others:
        st = other.seats[s]
        n = len(sizes[s])
        mine, pool = pool[:n], pool[n:]
        st.counts = [0] * N_KINDS
        st.take([TILES[t] for t in mine])
        st.wait_cache = None
        if st.drawn is not None:
            st.drawn = TILES[mine[0]]
    wall.tiles[wall.head:wall.tail] = [TILES[t] for t in pool]
    other.forget_legal_actions()
    return other
