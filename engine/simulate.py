"""``python -m engine simulate``: bots play hands under full rules with every invariant checked.

``--players`` is one registered policy name for every seat (``greedy``), one name per seat separated by commas
(``normal,normal,easy,random``), or a named mix from ``MIXES`` (``table``).  The report gives how often each
end state occurs (every win kind, 流局 / 黄牌, how many hands reached 分牌), the mean 財神 each seat held
right after the deal (by seat from the dealer, docs/rules/taipao.md#caishen D-1), and confirms that every awaited seat always
had a move (D-7): that check runs after every action even with ``--no-check``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.bots import POLICIES, Policy, get_policy
from engine.invariants import InvariantViolation, check_all, check_awaited_can_act
from engine.match import Match
from engine.state import HandState
from engine.variants import WallEnd, find_variant

MIXES: dict[str, str] = {
    # a practice table: decent and weak players beside uniform random ones, so some hands run to 流局 / 分牌 / 黄牌
    "table": "normal,random,easy,random",
    "stress": "claimer,nowin,declarer,konger",
}
"""Named policy mixes for ``--players``, in seat order from seat 0; a 3-seat variant takes the first three."""

SEAT_NAMES = "東南西北"


@dataclass
class Tally:
    outcomes: Counter[str] = field(default_factory=Counter)
    scores: list[int] = field(default_factory=list)
    hands: int = 0
    events: int = 0
    actions: int = 0
    split_reached: int = 0  # 台炮 hands that reached 分牌 (won on a 分牌 tile or ended 黄牌)
    wildcards: list[list[int]] = field(default_factory=list)  # 財神 held after the deal, by seat from the dealer


def parse_players(players: str, n_seats: int) -> list[str]:
    """Policy names per seat from ``--players``: a mix name, one policy name, or one name per seat.

    Raises ``ValueError`` naming the known policies and mixes for an unknown name or a wrong count.
    """
    names = [p.strip() for p in MIXES.get(players, players).split(",") if p.strip()]
    if players in MIXES:
        names = names[:n_seats]
    if len(names) == 1:
        names *= n_seats
    if len(names) != n_seats:
        raise ValueError(f"--players needs 1 or {n_seats} policy names, got {len(names)}: {players!r}")
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise ValueError(f"unknown bot policy {unknown[0]!r}; known: {', '.join(sorted(POLICIES))}; "
                         f"mixes: {', '.join(sorted(MIXES))}")
    return names


def wildcards_by_seat_from_dealer(hand: HandState) -> list[int]:
    """財神 held by each seat, listed from the dealer counterclockwise (東 南 西 北), as dealt (D-1)."""
    return [hand.seats[(hand.dealer + k) % hand.n].jokers for k in range(hand.n)]


def end_state(hand: HandState) -> str:
    """The hand's end state: the win kind, or ``draw`` (流局) / ``yellow`` (黄牌, after 分牌)."""
    result = hand.result
    assert result is not None
    if result.win_kind is not None:
        return result.win_kind.value
    return "yellow" if hand.variant.wall_end is WallEnd.SPLIT_DEAL else "draw"


def play_hand(hand: HandState, policies: Policy | Sequence[Policy], rng: random.Random, check: bool) -> int:
    """Play one hand to its end and return the number of actions; the D-7 check runs after every action,
    with ``check`` every invariant too."""
    seat_policies = [policies] * hand.n if callable(policies) else list(policies)
    (check_all if check else check_awaited_can_act)(hand)
    steps = 0
    while not hand.is_over:
        seat = rng.choice(hand.awaiting())
        hand.apply(seat_policies[seat](hand, seat, rng))
        steps += 1
        if steps > 5000:
            raise InvariantViolation("hand does not end")
        if check:
            check_all(hand)
        else:
            check_awaited_can_act(hand)
    result = hand.result
    assert result is not None
    if sum(result.score.net) != 0:
        raise InvariantViolation(f"payments do not sum to zero: {result.score.net}")
    return steps


def simulate(variant_name: str, hands: int, seed: int, players: str, check: bool = True) -> Tally:
    """Play ``hands`` hands (new games as needed) with the ``players`` policies; see ``parse_players``."""
    variant = find_variant(variant_name)
    policies = [get_policy(name) for name in parse_players(players, variant.n_seats)]
    rng = random.Random(seed)
    tally = Tally()
    match = Match(variant, first_dealer=0)
    for i in range(hands):
        if match.finished:
            match = Match(variant, first_dealer=0)
        hand = match.new_hand(f"{seed}:{i}")
        tally.wildcards.append(wildcards_by_seat_from_dealer(hand))
        tally.actions += play_hand(hand, policies, rng, check)
        match.record(hand)
        result = hand.result
        assert result is not None
        tally.hands += 1
        tally.events += len(hand.events)
        tally.outcomes[end_state(hand)] += 1
        tally.split_reached += any(e.type == "split_deal" for e in hand.events)
        if result.winners:
            tally.scores.append(max(result.score.net))
    return tally


def _mean_and_error(values: Sequence[int]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, error


def _print_report(args: argparse.Namespace, tally: Tally, seconds: float) -> None:
    players = ",".join(parse_players(args.players, len(tally.wildcards[0]))) if tally.wildcards else args.players
    print(f"variant={args.variant} players={players} hands={tally.hands} seed={args.seed}")
    print("  end states:")
    for kind, n in sorted(tally.outcomes.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"    {kind:<20} {n:>7}  {100 * n / tally.hands:5.1f}%")
    if find_variant(args.variant).wall_end is WallEnd.SPLIT_DEAL:
        print(f"  reached 分牌: {tally.split_reached} ({100 * tally.split_reached / tally.hands:.1f}%)")
    if tally.wildcards and any(any(row) for row in tally.wildcards):
        per_seat = [_mean_and_error([row[k] for row in tally.wildcards]) for k in range(len(tally.wildcards[0]))]
        shown = "  ".join(f"{SEAT_NAMES[k]} {m:.3f}±{e:.3f}" for k, (m, e) in enumerate(per_seat))
        print(f"  財神 after the deal, by seat from the dealer (mean ± s.e.): {shown}")
    if tally.scores:
        qs = statistics.quantiles(tally.scores, n=10) if len(tally.scores) > 1 else tally.scores
        print(f"  winner's net points: median {statistics.median(tally.scores)}, "
              f"max {max(tally.scores)}, deciles {[round(q) for q in qs]}")
    print(f"  D-7: every awaited seat had a legal action and a timeout action, after all {tally.actions} actions")
    print(f"  {tally.hands / seconds:.0f} hands/s ({tally.events / seconds:.0f} events/s"
          f"{', invariants checked after every action' if args.check else ''})")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m engine simulate")
    p.add_argument("--variant", required=True, choices=["tiantai", "taipao", "taiwan"])
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", default="greedy",
                   help=f"a policy ({', '.join(sorted(POLICIES))}), one per seat separated by commas, "
                        f"or a mix ({', '.join(f'{k}={v}' for k, v in sorted(MIXES.items()))})")
    p.add_argument("--no-check", dest="check", action="store_false",
                   help="skip the invariant checks except D-7 (every awaited seat can act)")
    args = p.parse_args(argv)
    try:
        parse_players(args.players, find_variant(args.variant).n_seats)
    except ValueError as exc:
        p.error(str(exc))
    start = time.perf_counter()
    try:
        tally = simulate(args.variant, args.hands, args.seed, args.players, args.check)
    except InvariantViolation as exc:
        print(f"INVARIANT VIOLATION: {exc}", file=sys.stderr)
        return 1
    _print_report(args, tally, time.perf_counter() - start)
    return 0
