"""Issue 34: sockets to a table with no game were accepted without limit (3,000 in 60 s, each closed 4004).
Refusals a client may retry in a loop (4004 no game, 4003 no seat) now count against the account's reconnect
throttle (TABLE_RESYNCS_PER_WINDOW per TABLE_RESYNC_WINDOW_SECONDS, as a seat's own reconnects): past it,
4029 before any lookup, until the window passes."""

from __future__ import annotations

import pytest

from tests.app.conftest import grant_role
from tests.app.support.table_harness import Closed, SeatClient, harness, is_type

LIMIT, WINDOW = 4, 10.0


async def _close_code(h, path: str, player) -> int:  # noqa: ANN001 - the harness and a registered player
    seat = SeatClient(h.app, path, token=player["token"])
    try:
        await seat.connect()
        await seat.recv_until(is_type("snapshot"))
    except Closed as closed:
        return closed.code
    raise AssertionError(f"{path} was served")


@pytest.mark.parametrize(("path", "refused"), [
    ("/ws/table/nosuchtable", 4004),   # no game at this table
    ("/ws/table/{table}", 4003),       # a game, but not this account's seat
])
async def test_refused_table_sockets_are_reconnect_throttled(settings, path, refused):
    async with harness(settings, resyncs_per_window=LIMIT, resync_window_seconds=WINDOW) as h:
        players = [await h.register(f"rr{i}") for i in range(3)]
        table_id = await h.coin_table("tiantai", players, rounds=1)
        stranger, other = await h.register("stranger"), await h.register("other")
        url = path.format(table=table_id)
        assert [await _close_code(h, url, stranger) for _ in range(LIMIT)] == [refused] * LIMIT
        assert await _close_code(h, url, stranger) == 4029
        assert await _close_code(h, f"/ws/table/{table_id}", stranger) == 4029  # any table, in the window
        assert await _close_code(h, url, other) == refused  # another account is not held back
        # the seated players, who never looped, are served
        seat = await h.connect(table_id, players[0])
        await seat.recv_until(is_type("snapshot"))
        h.clock.advance(WINDOW + 0.5)  # the window passes: refused again for what it is, not throttled
        assert await _close_code(h, url, stranger) == refused


async def test_a_spectator_on_a_table_with_no_game_is_reconnect_throttled(settings):
    async with harness(settings, resyncs_per_window=LIMIT, resync_window_seconds=WINDOW) as h:
        watcher = await h.register("watcher")
        await grant_role(h.app, watcher["id"], "operator")
        codes = [await _close_code(h, "/ws/spectate/nosuchtable", watcher) for _ in range(LIMIT + 1)]
        assert codes == [4004] * LIMIT + [4029]
