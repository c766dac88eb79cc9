"""What a wake-up costs on this machine: the same small unit of Python work, done in bursts of different sizes.

    python bench/wake_cost.py                  # the default grid, three rounds
    python bench/wake_cost.py --rounds 5 --seconds 3

A table server does a few tens of µs of work per message and sleeps in the event loop between bursts; how
many messages each wake-up carries falls with its load.  This bench asks what that alone costs, with no server:
a unit (a few hundred random reads of a list and a dict, ~12 µs) is done ``units`` times per wake-up, ``wakes``
times a second, sleeping between bursts, and the process's CPU per unit is reported beside the same unit done
back to back (one wake-up a second).  The difference per wake-up is the machine's toll on going to sleep and
waking: on the bench's 2-core VM 0.06-0.2 ms of CPU per wake-up, and slower units after it
(bench/results/cluster.md, twelfth round), which is why a process's CPU per table-second falls as its tables
rise.  Rounds alternate the cells; medians are printed.  Bounded: at most 10 rounds of 10 s a cell.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

GRID = [(1, 400), (4, 400), (16, 400), (1, 100), (16, 100), (64, 100), (4000, 1)]  # (units a wake-up, wakes/s)


class Unit:
    """A fixed piece of interpreted work over a working set of a few MB, as a server's handler touches its heap."""

    def __init__(self, seed: int = 1) -> None:
        rng = random.Random(seed)
        self.values = [rng.random() for _ in range(300_000)]
        self.names = {i: str(i) for i in range(50_000)}
        self.reads = [rng.randrange(len(self.values)) for _ in range(200)]
        self.keys = [rng.randrange(len(self.names)) for _ in range(50)]

    def __call__(self) -> float:
        total = 0.0
        for i in self.reads:
            total += self.values[i]
        for k in self.keys:
            total += len(self.names[k])
        return total


def cpu_per_unit(unit: Unit, units: int, wakes: int, seconds: float) -> float:
    """µs of this process's CPU per unit, doing ``units`` units per wake-up ``wakes`` times a second."""
    period, done = 1.0 / wakes, 0
    cpu0 = time.process_time()
    start = next_wake = time.monotonic()
    while time.monotonic() - start < seconds:
        for _ in range(units):
            unit()
        done += units
        next_wake += period
        pause = next_wake - time.monotonic()
        if pause > 0:
            time.sleep(pause)
    return (time.process_time() - cpu0) / done * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="per cell and round")
    args = parser.parse_args()
    rounds, seconds = max(1, min(args.rounds, 10)), max(0.5, min(args.seconds, 10.0))
    unit = Unit()
    samples: dict[tuple[int, int], list[float]] = {cell: [] for cell in GRID}
    for r in range(rounds):
        for cell in GRID if r % 2 == 0 else list(reversed(GRID)):
            samples[cell].append(cpu_per_unit(unit, *cell, seconds))
    back_to_back = statistics.median(samples[GRID[-1]])
    print(f"{'units/wake-up':>13} {'wake-ups/s':>10} {'CPU µs/unit':>12} {'× back to back':>15} {'µs/wake-up':>11}")
    for units, wakes in GRID:
        per_unit = statistics.median(samples[(units, wakes)])
        toll = (per_unit - back_to_back) * units
        print(f"{units:>13} {wakes:>10} {per_unit:>12.1f} {per_unit / back_to_back:>15.2f} {toll:>11.0f}")
    print(f"(medians of {rounds} rounds of {seconds:g} s a cell; load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
