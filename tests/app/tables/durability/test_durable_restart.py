"""Issue 10: a real server killed (kill -9) or drained (SIGTERM) mid-hand loses no hand and moves no coin twice.

One ``python -m app`` process (uvicorn, the journal) holds a coin table and a practice table of each variant.
Scripted players leave chosen prompts open, so at the stop the 天台 and 台灣 coin tables wait in a claim window
and the 台炮 coin table in 分牌 (its players pass every win and keep their hands ready, so the hand reaches the
end of the wall and a 分牌 tile can win), while the practice tables play on at full speed and are stopped
wherever they happen to be.  A new process on the same database and port resumes every table: the held
prompts come back the same, with their full time; every interrupted hand keeps its wall commitment and plays
on to a settlement whose seed and salt match it.  The same again under SIGTERM.  At the end every hand of
every table is settled exactly once, the coins add up, and everything each seat was sent, across both
restarts, is the settled hands' replay (``restart_checks``): nothing a seat saw was lost or changed.

A held prompt is only trusted while it is current (no event of its hand came after it), so a prompt that
timed out can never be mistaken for the one the table waits on.
"""

from __future__ import annotations

import asyncio
import hashlib
import signal
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from app.core.db import make_engine
from app.models import Hand, LiveTable, User
from tests.app.support.live_server import Seat, ServerProcess, open_table, register, same_prompt
from tests.app.support.restart_checks import check_seat

SEATS = {"tiantai": 3, "taipao": 4, "taiwan": 4}
HOLD = {"tiantai": "claim", "taiwan": "claim", "taipao": "split"}  # what each coin table is stopped in
# The longest rule timers (engine options, high=120): a held prompt must outlast the wait for the others.
OPTIONS = {"claim_seconds": 120, "discard_seconds": 120}
FULL_MS = 120_000
GRANT = 50_000
WAIT = 240  # seconds for any one condition: generous, for a loaded 2-core machine


async def _until(predicate, what: str, server: ServerProcess, state=None) -> None:  # noqa: ANN001
    deadline = asyncio.get_running_loop().time() + WAIT
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            seen = state() if state else ""
            raise AssertionError(f"timed out waiting for {what} {seen}; server log:\n{server.tail()}")
        await asyncio.sleep(0.05)


async def _tables(base: str) -> tuple[dict[str, list[Seat]], list[dict]]:
    """A coin table of each variant (every seat a scripted player) and a practice table of each variant."""
    tables: dict[str, list[Seat]] = {}
    coin_players = []
    for variant, n in SEATS.items():
        players = [await register(base, f"r{variant[:4]}{i}") for i in range(n)]
        coin_players += players
        table_id = await open_table(base, players, variant, **OPTIONS)
        split = variant == "taipao"
        tables[f"{variant}-coin"] = [Seat([base], table_id, p["token"], never_win=split, smart=split)
                                     for p in players]
        solo = await register(base, f"r{variant[:4]}p")
        practice_id = await open_table(base, [solo], variant, practice=True, **OPTIONS)
        # a steady pace, so the game (4 圈) outlasts both stops
        tables[f"{variant}-practice"] = [Seat([base], practice_id, solo["token"], think=0.1)]
    return tables, coin_players


def _arm(tables: dict[str, list[Seat]]) -> None:
    """Coin tables: hold the next claim prompt (天台, 台灣) or 分牌 prompt (台炮, passing every win).  A table
    already armed keeps what it holds."""
    for name, group in tables.items():
        if name.endswith("coin"):
            for s in group:
                if s.hold:
                    continue
                s.held, s.hold = None, {HOLD[name.split("-")[0]]}
                s.never_win = name.startswith("taipao")


def _state(tables: dict[str, list[Seat]]) -> dict[str, list[tuple]]:
    return {n: [(s.hand_no, s.hold_is_current(), sorted(s.results)[-3:], s.game_over is not None) for s in g]
            for n, g in tables.items()}


def _ready(tables: dict[str, list[Seat]]) -> bool:
    """Every coin table waits on a current held prompt; every practice table is in the middle of a hand."""
    for name, group in tables.items():
        assert not (name.endswith("coin") and any(s.game_over for s in group)), (
            f"{name}: the game ended before the stop", _state(tables))
        if name.endswith("coin") and not any(s.hold_is_current() for s in group):
            return False
        if name.endswith("practice") and not all(s.game_over or (s.hand_no and s.hand_no not in s.results)
                                                 for s in group):
            return False  # (a practice game that ended has nothing left to interrupt)
    return True


async def _stop_and_resume(tables: dict[str, list[Seat]], old: ServerProcess, new: ServerProcess,
                           sig: int) -> None:
    seats = [s for group in tables.values() for s in group]
    _arm(tables)
    await _until(lambda: _ready(tables), "every coin table to wait on a held prompt", old, lambda: _state(tables))
    old.signal(sig)
    code = await old.wait(30)
    # What every table was doing when the server stopped (nothing moves at a held table; a practice table's
    # last hand is whatever its player saw last).
    held = {name: [(s, s.held) for s in group if s.hold_is_current()] for name, group in tables.items()}
    interrupted = {name: group[0].hand_no for name, group in tables.items()
                   if not any(group[0].hand_no in s.results for s in group)}
    for name in tables:
        if name.endswith("coin"):  # a held table cannot move: it is stopped in its held prompt
            assert held[name] and name in interrupted, (name, _state(tables))
    # A practice table plays on until the server stops (a drain lets it finish its command): usually it is
    # stopped mid-hand; between two hands nothing of a hand is in play, and there is nothing to resume.
    assert sum(name.endswith("practice") for name in interrupted) >= 1, _state(tables)
    commitments = {name: tables[name][0].commitments[hand_no] for name, hand_no in interrupted.items()}
    if sig == signal.SIGTERM:  # drained: every seat still at a game was told, then closed with 1001 (not 1012)
        assert code in (0, -signal.SIGTERM), old.tail()
        live = [s for s in seats if s.game_over is None]  # (a finished game has no socket left to close)
        await _until(lambda: all(1001 in s.closes for s in live), "1001 closes", old,
                     lambda: {n: [(s.closes, s.connects, s.game_over is not None) for s in g] for n, g in tables.items()})
        assert all(s.notices and s.notices[-1]["pause_seconds"] == 1 for s in live), [
            (s.table_id, s.notices, s.closes) for s in live]
        assert all(1012 not in s.closes for s in live)
    for s in seats:  # play on normally after the restart
        s.hold, s.never_win = set(), False
        s.prompts_after_reconnect.clear()
    new.port = old.port  # the players reconnect to the same address
    await new.start()

    for name, hand_no in interrupted.items():
        group = tables[name]
        await _until(lambda g=group, h=hand_no: any(h in s.results for s in g),
                     f"{name}: hand {hand_no} to be settled after the restart", new, lambda: _state(tables))
        for s, prompt in held[name]:  # the held prompt came back: the same point of the hand, with its full time
            assert s.prompts_after_reconnect, (name, prompt)
            again = s.prompts_after_reconnect[0]
            assert same_prompt(prompt, again), (name, prompt, again)
            assert again["expires_in_ms"] > 0.9 * FULL_MS
        for s in group:
            resumed = [snap for snap in s.snapshots if snap["table"]["hand_no"] == hand_no][-1]
            assert resumed["commitment"] == commitments[name]
        result = next(s.results[hand_no] for s in group if hand_no in s.results)
        assert result["commitment"] == commitments[name] and not result["void"]
        assert hashlib.sha256((result["seed"] + result["salt"]).encode()).hexdigest() == commitments[name]
        # Armed for the next stop at once: at full speed a coin game (天台: a dozen hands) could otherwise
        # end while the practice tables settle their interrupted hands, and leave nothing to stop.
        _arm({name: group})


async def _check_ledger_and_traces(database_url: str, coin_players: list[dict],
                                   tables: dict[str, list[Seat]]) -> None:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            coins = dict((await conn.execute(select(User.id, User.coins))).all())
            hands = [SimpleNamespace(**row) for row in (await conn.execute(select(Hand.__table__))).mappings()]
            live = (await conn.scalars(select(LiveTable.id))).all()
    finally:
        await engine.dispose()
    assert sum(coins.values()) == GRANT * len(coins)  # no coin created or lost
    for name, seats in tables.items():
        table_hands = {h.result["hand_no"]: h for h in hands if h.table_id == seats[0].table_id}
        assert sorted(table_hands) == list(range(1, len(table_hands) + 1)), name  # each hand settled once
        assert seats[0].table_id in live or any(s.game_over for s in seats)  # still live unless the game ended
        for s in seats:  # what every seat was sent is the settled hands, across both restarts
            checked = check_seat(s.trace, table_hands)
            assert len(checked) >= 2, (name, checked)
    for player in coin_players:  # every coin moved is in exactly one settled hand
        moved = sum(h.settlement["coin_deltas"][h.seats.index(player["id"])] for h in hands
                    if player["id"] in h.seats)
        assert coins[player["id"]] == GRANT + moved


@pytest.mark.timeout(900)  # three server starts on a machine shared with other test runs
async def test_every_hand_resumes_after_kill_9_and_after_sigterm(database_url: str, tmp_path: Path) -> None:
    servers = [ServerProcess(database_url, tmp_path / f"server{i}.log") for i in range(3)]
    await servers[0].start()
    tables, coin_players = await _tables(servers[0].url)
    seats = [s for group in tables.values() for s in group]
    tasks = [asyncio.create_task(s.run()) for s in seats]
    try:
        await _stop_and_resume(tables, servers[0], servers[1], signal.SIGKILL)
        await _stop_and_resume(tables, servers[1], servers[2], signal.SIGTERM)
        servers[2].signal(signal.SIGTERM)  # drained while the seats still read: a game that ends first is seen
        await servers[2].wait(30)
        for s in seats:
            s.done = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await _check_ledger_and_traces(database_url, coin_players, tables)
    finally:
        for task in tasks:
            task.cancel()
        for server in servers:
            server.stop()
