"""``python -m app tournament …`` mirrors the operator API, on the same database."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.__main__ import main as cli_main
from app.core.config import get_settings


async def test_the_tournament_command_line(client, player, settings, monkeypatch, capsys, no_env_settings):
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    get_settings.cache_clear()

    async def run(*argv: str) -> tuple[int, object]:
        code = await asyncio.to_thread(cli_main, ["tournament", *argv])
        return code, json.loads(capsys.readouterr().out)

    try:
        code, created = await run("create", "--name", "CLI cup", "--room", "beginner", "--variant", "taiwan",
                                  "--starts-at", "2030-01-01T12:00:00+00:00", "--fee", "500", "--players", "8",
                                  "--rounds", "2", "--hands", "4", "--split", "60,40", "--option", "rounds=1")
        assert code == 0 and created["state"] == "registering" and created["player_limit"] == 8
        tid = str(created["id"])
        alice = await player("alice")
        assert (await client.post(f"/api/tournaments/{tid}/register", headers=alice.headers)).status_code == 200
        code, listing = await run("list")
        assert code == 0 and [t["name"] for t in listing] == ["CLI cup"]
        code, shown = await run("show", tid)
        assert [s["username"] for s in shown["standings"]] == ["alice"] and shown["pool"] == 500
        code, cancelled = await run("cancel", tid, "--reason", "test")
        assert cancelled["state"] == "cancelled"
        code, report = await run("report", tid)
        assert (report["fees_in"], report["refunds_out"], report["balanced"]) == (500, 500, True)
        code = await asyncio.to_thread(cli_main, ["tournament", "create", "--name", "bad", "--room", "beginner",
                                                  "--variant", "taiwan", "--starts-at", "2030-01-01T12:00:00Z",
                                                  "--fee", "1", "--players", "6", "--split", "100"])
        err = capsys.readouterr().err
        assert code == 2 and "--players: player_limit must be a multiple of the table size 4" in err
        code, error = await run("show", "999")
        assert code == 1 and error["code"] == "tournament_not_found"
    finally:
        get_settings.cache_clear()
    assert (await client.get("/api/me", headers=alice.headers)).json()["coins"] == 50_000
    # Acts from the command line are audited, with no actor (docs/tournaments.md).
    boss = await player("boss", role="admin")
    trail = (await client.get("/api/admin/audit", headers=boss.headers,
                              params={"target_type": "tournament", "target_id": tid})).json()
    assert [(e["action"], e["actor_id"]) for e in trail] == [("tournament.cancel", None), ("tournament.create", None)]
    assert trail[0]["reason"] == "test" and trail[0]["after"]["refunded"] == 1


CREATE = ["tournament", "create", "--name", "cup", "--room", "beginner", "--variant", "taiwan",
          "--starts-at", "2030-01-01T12:00:00+00:00", "--fee", "500", "--players", "8", "--split", "60,40"]


def _replace(argv: list[str], option: str, value: str) -> list[str]:
    i = argv.index(option)
    return [*argv[:i + 1], value, *argv[i + 2:]]


@pytest.mark.parametrize(("argv", "says"), [
    # (argparse's own checks: they happen before anything touches the database)
    (_replace(CREATE, "--split", "50,abc,50"), ["--split", "'abc' is not a whole percentage", "e.g. 50,30,20"]),
    (_replace(CREATE, "--room", "moon"), ["--room", "invalid choice: 'moon'", "beginner", "intermediate",
                                          "advanced"]),
    (_replace(CREATE, "--variant", "riichi"), ["--variant", "tiantai", "taipao", "taiwan"]),
    (_replace(CREATE, "--starts-at", "tomorrow"), ["--starts-at", "not an ISO time"]),
    ([*CREATE, "--option", "di"], ["--option", "not NAME=VALUE"]),
    (["tournament", "list", "--state", "paused"], ["--state", "registering", "finished"]),
])
def test_bad_arguments_name_the_option_and_what_it_allows(argv, says, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli_main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    for text in says:
        assert text in err, (text, err)


@pytest.mark.parametrize(("extra", "says"), [
    (["--option", "di=abc"], "--option: di=abc: the value must be JSON; di takes int from"),
    (["--option", "moon=1"], "--option: unknown option 'moon' for taiwan; options: "),
    (["--option", "cap=7"], "--option: "),
    (["--fee", "-5"], "--fee: entry_fee must be an integer from 0 to"),
    (["--split", "60,30"], "--split: prize_split must be positive whole percentages summing to 100"),
])
async def test_bad_values_are_usage_errors_not_tracebacks(extra, says, settings, monkeypatch, capsys,
                                                          no_env_settings):
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    get_settings.cache_clear()
    try:
        argv = CREATE.copy()
        for option, value in zip(extra[::2], extra[1::2], strict=True):
            argv = _replace(argv, option, value) if option in argv else [*argv, option, value]
        code = await asyncio.to_thread(cli_main, argv)
    finally:
        get_settings.cache_clear()
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("python -m app tournament create: error: ") and says in err, err
