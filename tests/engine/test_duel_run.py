"""bench/duel_run.py (issue 12's long duels): chunks played in worker processes and merged, or earlier runs
pooled from their printed per-wall figures, must give exactly what one run over all the walls gives."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from engine.duel import duel, mean_ci

_PATH = Path(__file__).resolve().parents[2] / "bench" / "duel_run.py"
_spec = importlib.util.spec_from_file_location("duel_run", _PATH)
assert _spec and _spec.loader
duel_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(duel_run)


@pytest.mark.parametrize("variant", ["tiantai", "taiwan"])
def test_merged_chunks_equal_one_run(variant: str) -> None:
    whole = duel(variant, "easy", "random", 4, seed=5)
    parts = [duel(variant, "easy", "random", 1, seed=5, start=0), duel(variant, "easy", "random", 3, seed=5, start=1)]
    merged = duel_run.merge(parts)
    assert merged.diffs == whole.diffs and merged.plays == whole.plays and merged.draws == whole.draws
    for who in "AB":
        assert merged.tallies[who] == whole.tallies[who]


def test_pooled_figures_equal_one_run() -> None:
    xs = [0.5, -1.25, 3.0, 0.0, 2.5, -0.75, 1.0]
    m, h = mean_ci(xs)

    def figures(chunk: list[float]) -> tuple[int, float, float]:
        cm, ch = mean_ci(chunk)
        return len(chunk), cm, ch / 1.96 * math.sqrt(len(chunk))

    pm, ph = duel_run.pooled([figures(xs[:3]), figures(xs[3:])])
    assert pm == pytest.approx(m) and ph == pytest.approx(h)
