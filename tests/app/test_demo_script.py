"""The newcomer's path (issue: "registers three or four accounts with a script, and they play coin hands"):
``python -m app.demo`` against a real server on loopback plays a coin game to its end, coins conserved."""

import asyncio
import tempfile
from pathlib import Path

import pytest

from app import demo


def test_choose_prefers_a_win_then_claims_then_the_loneliest_discard() -> None:
    prompt = {"actions": [{"kind": "pass"}, {"kind": "pong", "tile": "5m"}, {"kind": "win"}]}
    assert demo.choose(prompt, [])["kind"] == "win"
    prompt = {"actions": [{"kind": "pass"}, {"kind": "pong", "tile": "5m"}]}
    assert demo.choose(prompt, [])["kind"] == "pong"
    discards = {"actions": [{"kind": "discard", "tile": t} for t in ("1m", "2m", "3m", "7z")]}
    assert demo.choose(discards, ["1m", "2m", "3m", "7z"])["tile"] == "7z"  # the lone honour goes


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["tiantai", "taiwan"])
async def test_demo_plays_a_coin_game_over_real_sockets(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    from bench.server_bench import parse_args, start_server

    with tempfile.TemporaryDirectory() as tmp:
        args = parse_args(["--bot-delay", "0.01", "--hold", "0.01", "--hand-pause", "0.05",
                           "--time-scale", "0.2"])
        server, app, task, port = await start_server(args, f"sqlite+aiosqlite:///{Path(tmp) / 'd.sqlite3'}")
        try:
            code = await asyncio.to_thread(
                demo.main, ["--url", f"http://127.0.0.1:{port}", "--variant", variant, "--hands", "2"])
        finally:
            server.should_exit = True
            await asyncio.wait_for(task, 30)
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count("hand ") >= 2 and "total" in out
    before, after = out.split("total ")[1].split(" → ")
    assert before.replace(",", "") == after.strip().replace(",", "")  # no coin created or lost
