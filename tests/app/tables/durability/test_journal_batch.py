"""Group commit of the table journal (issue 10, cost of durability): many tables' writes share one commit, each
writer returns only once its own rows are durable, and one table's refused write never fails another's."""

from __future__ import annotations

import asyncio
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.tables.durability.journal import Fenced, MatchState, TableJournal
from app.tables.fairness import new_wall_seed
from app.tables.registry import TableInfo
from tests.app.conftest import TEST_DATABASE_URL

MATCH = MatchState(dealer=0, dealer_streak=0, round_wind=0, hands_played=0, voided=0, points=[0] * 3,
                   coins=[0] * 3)
TABLES = [f"t{i}" for i in range(12)]


def _info(table_id: str) -> TableInfo:
    return TableInfo(id=table_id, room=RoomKey.BEGINNER, variant=VariantKey.TIANTAI, options={"rounds": 1},
                     seats=[1, 2, 3], seat_names=["a", "b", "c"])


async def _open(journal: TableJournal) -> None:
    for table_id in TABLES:
        await journal.open_game(_info(table_id), "g1", 1, MATCH)
        await journal.hand_started(table_id, 1, 1, new_wall_seed(), v=1)


def _spy_statements(journal: TableJournal) -> list[object]:
    """What each batch's one-statement attempt returned, in order (None: the batch took the transaction)."""
    batches: list[object] = []
    statement = journal._statement

    async def spy(units):  # noqa: ANN001, ANN202
        batches.append(await statement(units))
        return batches[-1]

    journal._statement = spy  # type: ignore[method-assign]
    return batches


def _discard(seat: int, n: int) -> dict:
    return {"kind": "discard", "seat": seat % 3, "tile": f"{n % 9 + 1}m"}


@pytest.mark.parametrize("held", [False, True], ids=["pooled", "held"])  # held: connections kept between commits
@pytest.mark.parametrize("writers", [1, 2])  # 2: two batches in flight at once (Postgres' default)
async def test_writes_that_arrive_together_share_a_commit_and_all_land(engine, writers: int, held: bool) -> None:
    journal = TableJournal(engine, serial=writers == 1, writers=writers, hold_connections=held)
    await _open(journal)
    commits, writes = journal.commits, journal.writes

    async def table(i: int, table_id: str) -> None:
        for n in range(5):  # one table's actions one after another, each awaited, as an actor does
            await journal.append(table_id, 1, "g1", 1, n, [_discard(i + n, n)], v=2 + n)

    await asyncio.gather(*(table(i, t) for i, t in enumerate(TABLES)))
    assert journal.writes - writes == 5 * len(TABLES)
    assert journal.commits - commits < 5 * len(TABLES) / 2  # tables queued behind a commit share the next
    for i, table_id in enumerate(TABLES):
        game = await journal.load(table_id)
        assert game is not None and game.actions == [_discard(i + n, n) for n in range(5)] and game.v == 6
    await journal.close()


@pytest.mark.skipif(TEST_DATABASE_URL is None, reason="held connections are the Postgres runtime's (CI sets "
                    "TEST_DATABASE_URL); SQLite's writes take the pool's")
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_held_connection_the_server_dropped_is_replaced_without_failing_a_write(engine) -> None:
    """Held connections (the runtime's choice on Postgres) skip the pool's pre-ping, so a connection the
    server closed while it sat idle (a restart, an idle timeout) must not fail the next table's write."""
    journal = TableJournal(engine, hold_connections=True, writers=2)  # as the runtime on Postgres
    await _open(journal)
    async with engine.connect() as admin:  # the server drops every other connection of this database
        await admin.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                 "datname = current_database() AND pid <> pg_backend_pid()"))
    await journal.append("t0", 1, "g1", 1, 0, [_discard(0, 1)], v=2)
    game = await journal.load("t0")
    assert game is not None and game.actions == [_discard(0, 1)] and game.v == 2
    await journal.close()


@pytest.mark.parametrize("held", [False, True], ids=["pooled", "held"])  # held on Postgres: asyncpg's own writes
async def test_a_fenced_unit_fails_alone_and_leaves_nothing(engine, held: bool) -> None:
    journal = TableJournal(engine, serial=True, hold_connections=held)
    await _open(journal)
    assert await journal.claim("t3") == 2  # another owner took t3 over
    wall = new_wall_seed()
    results = await asyncio.gather(
        *(journal.append(t, 1, "g1", 1, 0, [_discard(0, 1)], v=2) for t in TABLES if t != "t3"),
        # a unit of two steps whose second is refused: neither is written
        journal.write([journal.hand_started_step("t3", 2, 2, wall, v=9),
                       journal.append_step("t3", 1, "g1", 2, 0, [_discard(0, 1)], v=10)]),
        return_exceptions=True)
    assert all(r is None for r in results[:-1]) and isinstance(results[-1], Fenced)
    for table_id in TABLES:
        game = await journal.load(table_id)
        assert game is not None
        if table_id == "t3":
            assert (game.hand_no, game.v, game.actions, game.wall) != (2, 9, [], wall)
            assert game.hand_no == 1 and game.actions == []
        else:
            assert game.actions == [_discard(0, 1)]
    await journal.close()


@pytest.mark.skipif(TEST_DATABASE_URL is None, reason="synchronous_commit is a Postgres setting (CI sets "
                    "TEST_DATABASE_URL)")
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_asynchronous_commit_stays_on_the_journals_own_connections(engine) -> None:
    """TABLE_JOURNAL_SYNCHRONOUS_COMMIT=false: the journal's commits skip the WAL flush wait, and no other user
    of the engine (settlements, the API) ever gets a connection with that setting."""
    journal = TableJournal(engine, hold_connections=True, writers=2, synchronous_commit=False)
    await _open(journal)
    await asyncio.gather(*(journal.append(t, 1, "g1", 1, 0, [_discard(0, 1)], v=2) for t in TABLES))
    async with journal.connections.driver() as driver:
        assert await driver.fetchval("SHOW synchronous_commit") == "off"
    game = await journal.load("t5")
    assert game is not None and game.actions == [_discard(0, 1)] and game.v == 2
    await journal.close()

    async def setting() -> str:
        async with engine.connect() as conn:
            await asyncio.sleep(0.01)  # hold it, so the checks below use different pooled connections
            return str((await conn.exec_driver_sql("SHOW synchronous_commit")).scalar())

    assert set(await asyncio.gather(*(setting() for _ in range(5)))) == {"on"}


@pytest.mark.skipif(TEST_DATABASE_URL is None, reason="the one-statement batch is the Postgres runtime's (CI sets "
                    "TEST_DATABASE_URL); SQLite's batches take the transaction")
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_new_hands_and_appends_are_one_statement_and_a_refused_unit_writes_nothing(engine) -> None:
    """The steady traffic (app.tables.durability.journal_statement): every batch of new hands and appends is one
    statement, which commits by itself; a unit whose fence is no longer current writes nothing and fails
    alone, and a new hand logged with its first actions lands whole."""
    journal = TableJournal(engine, serial=True, hold_connections=True)
    await _open(journal)
    assert await journal.claim("t3") == 2  # another owner took t3 over
    batches = _spy_statements(journal)
    walls = {t: new_wall_seed() for t in TABLES[6:]}
    results = await asyncio.gather(
        *(journal.append(t, 1, "g1", 1, 0, [_discard(0, 1), _discard(1, 2)], v=2) for t in TABLES[:6]),
        *(journal.write([journal.hand_started_step(t, 1, 2, walls[t], v=5),
                         journal.append_step(t, 1, "g1", 2, 0, [_discard(2, 3)], v=5)]) for t in TABLES[6:]),
        return_exceptions=True)
    assert batches and all(b is not None for b in batches)  # every batch was the one statement
    for table_id, result in zip(TABLES, results, strict=True):
        game = await journal.load(table_id)
        assert game is not None
        if table_id == "t3":  # refused, and nothing of it written
            assert isinstance(result, Fenced) and (game.hand_no, game.actions, game.v) == (1, [], 1)
        elif table_id in walls:
            assert result is None and (game.hand_no, game.wall, game.v, game.hand_closed) == (2, walls[table_id], 5,
                                                                                          False)
            assert game.actions == [_discard(2, 3)]
        else:
            assert result is None and game.actions == [_discard(0, 1), _discard(1, 2)] and game.v == 2
    await journal.append("t7", 1, "g1", 2, 1, [_discard(0, 4)], v=6)  # the log goes on from its length
    game = await journal.load("t7")
    assert game is not None and game.actions == [_discard(2, 3), _discard(0, 4)]
    await journal.close()


@pytest.mark.parametrize("group_commit", [True, False])
async def test_a_caller_returns_only_once_its_rows_are_committed(engine, group_commit: bool) -> None:
    journal = TableJournal(engine, serial=True, group_commit=group_commit)
    await _open(journal)
    other = TableJournal(engine)  # another connection: sees only what is committed
    await journal.append("t0", 1, "g1", 1, 0, [_discard(0, 2)], v=2)
    game = await other.load("t0")  # returned: committed, as another connection sees it
    assert game is not None and game.actions == [_discard(0, 2)]
    assert journal.commits == journal.writes == 2 * len(TABLES) + 1  # alone, each write is its own commit


async def test_new_games_and_new_hands_of_many_tables_are_written_together(engine) -> None:
    journal = TableJournal(engine, serial=True)
    await asyncio.gather(*(journal.open_game(_info(t), "g1", 1, MATCH) for t in TABLES))
    assert journal.commits < len(TABLES) / 2
    assert await journal.claim("t5") == 2  # another owner took t5 over
    walls = {t: new_wall_seed() for t in TABLES}
    results = await asyncio.gather(*(journal.hand_started(t, 1, 1, walls[t], v=3) for t in TABLES),
                                   return_exceptions=True)
    for table_id, result in zip(TABLES, results, strict=True):
        game = await journal.load(table_id)
        assert game is not None
        if table_id == "t5":  # refused, and nothing of it written
            assert isinstance(result, Fenced) and (game.hand_no, game.wall, game.hand_closed) == (0, None, True)
        else:
            assert result is None and (game.hand_no, game.wall, game.v, game.hand_closed) == (1, walls[table_id],
                                                                                          3, False)


@pytest.mark.parametrize("held", [False, True], ids=["pooled", "held"])  # held on Postgres: one statement
async def test_hands_of_many_tables_close_together_and_a_fenced_one_stays_open(engine, held: bool) -> None:
    journal = TableJournal(engine, serial=True, hold_connections=held)
    await _open(journal)
    await asyncio.gather(*(journal.append(t, 1, "g1", 1, 0, [_discard(0, 1)], v=2) for t in TABLES))
    assert await journal.claim("t7") == 2  # another owner took t7 over
    batches = _spy_statements(journal)
    closed = MatchState(dealer=1, dealer_streak=0, round_wind=0, hands_played=1, voided=0, points=[8, -8, 0],
                        coins=[800, -800, 0])
    shown = {"type": "hand_result", "hand_no": 1, "winners": [0]}  # settled hands keep their result; t0 voided
    results = await asyncio.gather(*(journal.hand_closed(t, 1, "g1", 1, closed, v=9,
                                                         result=None if t == "t0" else shown) for t in TABLES),
                                   return_exceptions=True)
    one_statement = held and engine.dialect.driver == "asyncpg"  # app.tables.durability.journal_statement
    assert batches and all((b is not None) == one_statement for b in batches)
    for table_id, result in zip(TABLES, results, strict=True):
        game = await journal.load(table_id)
        assert game is not None
        if table_id == "t7":  # refused: still open, its log and match as they were
            assert isinstance(result, Fenced) and not game.hand_closed and game.actions == [_discard(0, 1)]
            assert game.match == MATCH
        else:
            assert result is None and game.hand_closed and game.match == closed and game.v == 9
            assert game.last_result == (None if table_id == "t0" else shown)
    async with engine.connect() as conn:  # the closed hands' logs are gone, the refused table's stays
        left = (await conn.execute(text("SELECT table_id, hand_no FROM table_actions"))).all()
    assert [tuple(row) for row in left] == [("t7", 1)]
    await journal.close()


@pytest.mark.parametrize("tick", [0.0, 0.1], ids=["no-grid", "grid"])
@pytest.mark.parametrize("writers", [1, 2])
async def test_writes_that_trickle_in_within_the_gathering_wait_share_one_commit(engine, writers: int,
                                                                                 tick: float) -> None:
    """TableSettings.journal_gather_ms (issue 36): timers' writes (bots' moves) of tables acting a few ms apart,
    which an idle writer would commit one by one, share one commit; each caller still returns only once its
    row is committed."""
    journal = TableJournal(engine, serial=writers == 1, writers=writers, gather_seconds=0.3, tick_seconds=tick)
    await _open(journal)
    commits = journal.commits

    async def table(i: int, table_id: str) -> None:
        await asyncio.sleep(i * 0.005)  # one after another, none queued behind a commit in flight
        await journal.write([journal.append_step(table_id, 1, "g1", 1, 0, [_discard(i, 0)], v=2)], urgent=False)

    await asyncio.gather(*(table(i, t) for i, t in enumerate(TABLES)))
    assert journal.commits - commits == 1
    for i, table_id in enumerate(TABLES):
        game = await journal.load(table_id)
        assert game is not None and game.actions == [_discard(i, 0)]
    await journal.close()


@pytest.mark.parametrize(("now", "gather", "tick", "deadline"), [
    (1.003, 0.020, 0.010, 1.020),  # the window ends at 1.023: the last tick inside it
    (1.017, 0.020, 0.010, 1.030),  # ends at 1.037
    (1.0005, 0.020, 0.0, 1.0205),  # no grid (timer slack 0): the window's own end
    (1.001, 0.005, 0.010, 1.006),  # no tick inside a window shorter than the grid: the window's own end
    (2.0012, 0.100, 0.025, 2.100),  # a window of several ticks ends on the last
    (1.9, 0.004, 0.005, 1.904),  # now on a tick (the loop's time is whole ms): that tick is now, not ahead
    (1.9, 0.020, 0.010, 1.920),  # ... so a window from a tick ends a whole window later, on the tick there
])
def test_a_gathering_wait_ends_on_the_last_tick_of_the_timers_grid_inside_its_window(
        now: float, gather: float, tick: float, deadline: float) -> None:
    """TableSettings.journal_gather_ms and timer_slack_ms (issue 36, twelfth round): the wait ends on a turn of
    the loop the tables' timers wake the process for anyway, never after the window."""
    journal = TableJournal.__new__(TableJournal)
    journal.gather_seconds, journal.tick_seconds = gather, tick
    assert journal.gather_deadline(now) == pytest.approx(deadline)


@given(now=st.floats(0, 1e6), gather=st.floats(0.001, 0.1), tick=st.sampled_from([0.005, 0.01, 0.025, 0.05]))
def test_a_gathering_waits_end_is_inside_its_window_and_on_the_grid_the_table_clock_uses(
        now: float, gather: float, tick: float) -> None:
    """The deadline is never before ``now`` nor after the window, and when the window holds a tick it is one of
    ``RealClock``'s ticks (a far timer's due time there is a whole number of slacks)."""
    journal = TableJournal.__new__(TableJournal)
    journal.gather_seconds, journal.tick_seconds = gather, tick
    deadline = journal.gather_deadline(now)
    assert now < deadline <= now + gather + 1e-9
    first_tick_after_now = (math.floor(now / tick + 1e-6) + 1) * tick  # a time within 1e-6 ticks of one is on it
    if first_tick_after_now <= now + gather - 1e-9:  # the window holds a tick: the deadline is one, the last
        assert deadline / tick == pytest.approx(round(deadline / tick), abs=1e-6)
        assert deadline + tick > now + gather - 1e-9
    else:
        assert deadline == pytest.approx(now + gather, abs=1e-9)


@pytest.mark.parametrize("writers", [1, 2])
async def test_a_players_write_does_not_wait_for_the_gathering_and_takes_the_gathered_along(engine,
                                                                                          writers: int) -> None:
    """A player's own action (an urgent write) commits at once, even while a writer gathers timers' writes for
    far longer than any test waits; the gathered writes go in the same commit."""
    journal = TableJournal(engine, serial=writers == 1, writers=writers, gather_seconds=60)
    await _open(journal)
    commits = journal.commits
    bot = asyncio.create_task(journal.write([journal.append_step("t0", 1, "g1", 1, 0, [_discard(0, 0)], v=2)],
                                            urgent=False))
    await asyncio.sleep(0.01)
    assert not bot.done()  # gathering
    await asyncio.wait_for(journal.write([journal.append_step("t1", 1, "g1", 1, 0, [_discard(1, 0)], v=2)]), 10)
    await asyncio.wait_for(bot, 10)
    assert journal.commits - commits == 1
    for i, table_id in enumerate(TABLES[:2]):
        game = await journal.load(table_id)
        assert game is not None and game.actions == [_discard(i, 0)]
    await journal.close()


async def test_hurry_commits_a_gathering_write_at_once_and_is_a_no_op_with_nothing_queued(engine) -> None:
    """A player's message reaching a table whose bot move is gathering (TableActor.offer) hurries the journal;
    with nothing queued, hurrying leaves the next timer's write free to gather."""
    journal = TableJournal(engine, gather_seconds=60)
    await _open(journal)
    journal.hurry()  # nothing queued: nothing to hurry, and the next write still gathers
    bot = asyncio.create_task(journal.write([journal.append_step("t0", 1, "g1", 1, 0, [_discard(0, 0)], v=2)],
                                            urgent=False))
    await asyncio.sleep(0.01)
    assert not bot.done()
    journal.hurry()
    await asyncio.wait_for(bot, 10)
    game = await journal.load("t0")
    assert game is not None and game.actions == [_discard(0, 0)]
    await journal.close()


@pytest.mark.parametrize("value", [
    {"kind": "discard", "seat": 2, "tile": "5m", "tiles": [], "declare": None},
    {"v": 7, "names": ["東風", "莊家"], "points": [12, -4, -4, -4], "nested": {"ok": True, "x": 0.5}},
    {1: "seat keys of an int", 2: [1, 2]},  # json.dumps made these strings; the column must not refuse them
])
def test_a_json_columns_text_reads_back_as_the_standard_encoders_did(value) -> None:
    """The batched statement encodes JSON values with orjson (compact, UTF-8) where it used ``json.dumps``:
    whoever reads the column parses it, so the text must parse to what the old text parsed to."""
    import json

    from app.tables.durability.journal_statement import json_text

    assert json.loads(json_text(value)) == json.loads(json.dumps(value))
