"""``python -m app tournament …`` mirrors the operator API, on the same database."""

from __future__ import annotations

import asyncio
import json

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
        code, error = await run("create", "--name", "bad", "--room", "beginner", "--variant", "taiwan",
                                "--starts-at", "2030-01-01T12:00:00Z", "--fee", "1", "--players", "6",
                                "--split", "100")
        assert code == 1 and error["code"] == "invalid_input" and "multiple" in error["error"]
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
