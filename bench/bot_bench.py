"""Decision time of each bot level (issue 12: strong p99 ≤ 2 ms on this machine).

    python bench/bot_bench.py [--hands 200] [--levels easy,normal,strong]

Every seat plays the level being measured; each policy call is timed on its own (the engine's apply is
not included).  Prints p50 / p90 / p99 / max in milliseconds per variant and level, of the thread's CPU
time (what the policy costs) and of the wall clock (what it costs on this shared machine right now).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.bots import POLICIES  # noqa: E402
from engine.state import HandState  # noqa: E402
from engine.variants import find_variant  # noqa: E402


def decision_times(variant: str, level: str, hands: int, seed: int) -> tuple[list[float], list[float]]:
    """(CPU, wall) milliseconds per decision over ``hands`` hands where every seat plays ``level``."""
    policy = POLICIES[level]
    v = find_variant(variant)
    cpu: list[float] = []
    wall: list[float] = []
    clock, thread = time.perf_counter, time.thread_time
    for i in range(hands):
        hand = HandState.deal(v, seed=f"botbench:{seed}:{i}", dealer=i % v.n_seats)
        rng = random.Random(i)
        while not hand.is_over:
            for seat in hand.awaiting():
                if hand.is_over or seat not in hand.awaiting():
                    continue
                hand.legal_actions(seat)  # the server has these already when it asks a bot
                start, start_cpu = clock(), thread()
                action = policy(hand, seat, rng)
                cpu.append((thread() - start_cpu) * 1000)
                wall.append((clock() - start) * 1000)
                hand.apply(action)
    return cpu, wall


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--levels", default="easy,normal,strong")
    args = p.parse_args()
    print(f"{'variant':<8} {'level':<7} {'clock':<5} {'decisions':>9} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7}")
    for variant in ("tiantai", "taipao", "taiwan"):
        for level in args.levels.split(","):
            decision_times(variant, level, 2, args.seed + 1)  # warm up: tables load on first use
            for name, ts in zip(("cpu", "wall"), decision_times(variant, level, args.hands, args.seed), strict=True):
                q = statistics.quantiles(ts, n=100)
                print(f"{variant:<8} {level:<7} {name:<5} {len(ts):>9} {q[49]:7.3f} {q[89]:7.3f} {q[98]:7.3f} "
                      f"{max(ts):7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
