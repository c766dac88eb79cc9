"""``python -m engine simulate``: bots play full hands, invariants checked after every action."""

import subprocess
import sys

import pytest

from engine.invariants import InvariantViolation
from engine.simulate import main, simulate


@pytest.mark.parametrize("variant", ["tiantai", "taipao", "taiwan"])
@pytest.mark.parametrize("players", ["random", "greedy"])
def test_simulate_plays_settles_and_reports(variant: str, players: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", variant, "--hands", "12", "--seed", "3", "--players", players]) == 0
    out = capsys.readouterr().out
    assert f"variant={variant}" in out and "hands=12" in out
    assert "hands/s" in out


def test_simulate_counts_every_outcome_and_settles_winners() -> None:
    tally = simulate("taipao", 40, seed=5, players="greedy")
    assert sum(tally.outcomes.values()) == 40
    wins = sum(n for kind, n in tally.outcomes.items() if kind not in ("draw", "yellow"))
    assert wins == len(tally.scores) > 0
    assert all(s > 0 for s in tally.scores)  # a winner always nets points


def test_simulate_exits_non_zero_on_a_violation(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    def broken(state: object) -> None:
        raise InvariantViolation("tiles are not conserved")

    monkeypatch.setattr("engine.simulate.check_all", broken)
    assert main(["--variant", "tiantai", "--hands", "1"]) == 1
    assert "INVARIANT VIOLATION" in capsys.readouterr().err


def test_module_entry_point_runs() -> None:
    run = subprocess.run([sys.executable, "-m", "engine", "simulate", "--variant", "taiwan", "--hands", "3"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "hands=3" in run.stdout


def test_unknown_command_is_a_usage_error() -> None:
    run = subprocess.run([sys.executable, "-m", "engine", "frobnicate"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2 and "usage" in run.stderr


def test_a_mix_reaches_split_deal_yellow_hands_and_draws() -> None:
    """Issue 8: with players that do not claim everything, 台炮 reaches 分牌 and 黄牌 and the others 流局; the
    report names every end state and the 財神 per seat."""
    tally = simulate("taipao", 30, seed=4, players="nowin,random,nowin,random")
    assert tally.split_reached > 0 and tally.outcomes["yellow"] > 0
    for variant in ("tiantai", "taiwan"):
        assert simulate(variant, 20, seed=4, players="nowin").outcomes["draw"] == 20


def test_report_prints_end_states_split_and_caishen_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variant", "taipao", "--hands", "20", "--seed", "4", "--players", "table", "--no-check"]) == 0
    out = capsys.readouterr().out
    assert "players=normal,random,easy,random" in out and "end states:" in out
    assert "reached 分牌:" in out and "財神 after the deal, by seat from the dealer" in out and "東 " in out
    assert "D-7: every awaited seat had a legal action" in out


def test_unknown_players_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--variant", "tiantai", "--players", "easy,nosuch,easy"])
    assert exit_.value.code == 2 and "unknown bot policy 'nosuch'" in capsys.readouterr().err
