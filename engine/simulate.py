"""``python -m engine simulate``: bots play hands under full rules with every invariant checked."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from engine.bots import POLICIES, Policy
from engine.invariants import InvariantViolation, check_all
from engine.match import Match
from engine.state import HandState
from engine.variants import find_variant


@dataclass
class Tally:
    outcomes: Counter[str] = field(default_factory=Counter)
    scores: list[int] = field(default_factory=list)
    hands: int = 0
    events: int = 0


def play_hand(hand: HandState, policy: Policy, rng: random.Random, check: bool) -> None:
    """Play one hand to its end; with ``check``, verify invariants after every action."""
    if check:
        check_all(hand)
    steps = 0
    while not hand.is_over:
        seat = rng.choice(hand.awaiting())
        action = policy(hand, seat, rng)
        hand.apply(action)
        steps += 1
        if steps > 5000:
            raise InvariantViolation("hand does not end")
        if check:
            check_all(hand)
    result = hand.result
    assert result is not None
    if sum(result.score.net) != 0:
        raise InvariantViolation(f"payments do not sum to zero: {result.score.net}")


def simulate(variant_name: str, hands: int, seed: int, players: str, check: bool = True) -> Tally:
    variant = find_variant(variant_name)
    policy = POLICIES[players]
    rng = random.Random(seed)
    tally = Tally()
    match = Match(variant, first_dealer=0)
    for i in range(hands):
        if match.finished:
            match = Match(variant, first_dealer=0)
        hand = match.new_hand(f"{seed}:{i}")
        play_hand(hand, policy, rng, check)
        match.record(hand)
        result = hand.result
        assert result is not None
        tally.hands += 1
        tally.events += len(hand.events)
        tally.outcomes[result.win_kind.value if result.win_kind else "draw"] += 1
        if result.winners:
            tally.scores.append(max(result.score.net))
    return tally


def _print_report(args: argparse.Namespace, tally: Tally, seconds: float) -> None:
    print(f"variant={args.variant} players={args.players} hands={tally.hands} seed={args.seed}")
    for kind, n in sorted(tally.outcomes.items(), key=lambda kv: -kv[1]):
        print(f"  {kind:<20} {n:>7}  {100 * n / tally.hands:5.1f}%")
    if tally.scores:
        qs = statistics.quantiles(tally.scores, n=10) if len(tally.scores) > 1 else tally.scores
        print(f"  winner's net points: median {statistics.median(tally.scores)}, "
              f"max {max(tally.scores)}, deciles {[round(q) for q in qs]}")
    print(f"  {tally.hands / seconds:.0f} hands/s ({tally.events / seconds:.0f} events/s"
          f"{', invariants checked after every action' if args.check else ''})")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m engine simulate")
    p.add_argument("--variant", required=True, choices=["tiantai", "taipao", "taiwan"])
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", choices=sorted(POLICIES), default="greedy")
    p.add_argument("--no-check", dest="check", action="store_false", help="skip invariant checks")
    args = p.parse_args(argv)
    start = time.perf_counter()
    try:
        tally = simulate(args.variant, args.hands, args.seed, args.players, args.check)
    except InvariantViolation as exc:
        print(f"INVARIANT VIOLATION: {exc}", file=sys.stderr)
        return 1
    _print_report(args, tally, time.perf_counter() - start)
    return 0
