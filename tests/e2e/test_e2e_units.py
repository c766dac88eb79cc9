"""The client's pure modules (seats.js, tiles.js, state.js), unit-tested inside the browser by import()."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page


@pytest.fixture
def js(page: Page):  # noqa: ANN201 - returns the helper below
    """``js("seats", "m.relativeSeat(2, 1, 4)")`` evaluates an expression with module ``m`` imported."""
    page.goto("/")

    def run(module: str, expression: str, arg: Any = None) -> Any:
        return page.evaluate(
            f"async (arg) => {{ const m = await import('/js/{module}.js'); return ({expression}); }}", arg
        )

    return run


def test_relative_seats_put_you_at_the_bottom(js) -> None:
    assert js("seats", "[0,1,2,3].map((s) => m.sideOf(s, 2, 4))") == ["top", "left", "bottom", "right"]
    assert js("seats", "[0,1,2].map((s) => m.sideOf(s, 0, 3))") == ["bottom", "right", "left"]
    assert js("seats", "[0,1,2].map((s) => m.sideOf(s, 1, 3))") == ["left", "bottom", "right"]
    assert js("seats", "m.relativeSeat(0, 3, 4)") == 1  # seat 0 is the 下家 of seat 3
    assert js("seats", "m.seatsFrom(2, 4)") == [2, 3, 0, 1]


def test_claimed_tiles_turn_toward_the_player_they_came_from(js) -> None:
    # From the 上家 (left): the left tile turns; from 對家: the middle; from the 下家 (right): the right one.
    assert js("seats", "m.claimDirection(1, 0, 4)") == "left"
    assert js("seats", "m.claimDirection(1, 3, 4)") == "across"
    assert js("seats", "m.claimDirection(1, 2, 4)") == "right"
    assert js("seats", "m.claimDirection(0, 2, 3)") == "left"  # 3 players: no one across
    assert js("seats", "m.arrangeMeld(['3m','4m','5m'], '4m', 'left')") == {"tiles": ["4m", "3m", "5m"], "sideways": 0}
    assert js("seats", "m.arrangeMeld(['7z','7z','7z'], '7z', 'right')")["sideways"] == 2
    assert js("seats", "m.arrangeMeld(['2p','2p','2p','2p'], '2p', 'across')")["sideways"] == 1


def test_tile_names_labels_art_and_order(js) -> None:
    assert js("tiles", "m.tileLabel('5m')") == "五萬"  # a name, never the engine code (issue 26 item 4)
    assert js("tiles", "['3p','9s','1z','5z','7z','1f','8f'].map(m.tileNameZh)") == ["三筒", "九條", "東", "中", "白", "春", "竹"]
    assert js("tiles", "m.tileNameEn('6z')") == "Green"
    assert js("tiles", "m.parseTiles('123m 5z')") == ["1m", "2m", "3m", "5z"]
    assert js("tiles", "m.sortTiles(['1f','5z','9s','1m','3p'])") == ["1m", "3p", "9s", "5z", "1f"]
    assert js("tiles", "m.tileAsset('3f').endsWith('/assets/tiles/3f.svg')")
    assert js("tiles", "m.tileUnicode('1z')") == "\U0001f000"
    assert js("tiles", "m.tileUnicode('5z')") == "\U0001f004\ufe0e"
    assert js("tiles", "m.tileUnicode('5f')") == "\U0001f022"
    assert js("tiles", "m.allTiles().length") == 42
    assert js("tiles", "(() => { try { m.parseTiles('0m'); return 'no'; } catch (e) { return 'threw'; } })()") == "threw"


def test_every_tile_asset_is_served(page: Page) -> None:
    page.goto("/")
    missing = page.evaluate(
        """async () => {
            const m = await import('/js/tiles.js');
            const urls = [...m.allTiles().map(m.tileAsset), m.tileAsset(null), m.FRONT_ASSET];
            const bad = [];
            for (const u of urls) { const r = await fetch(u); if (!r.ok || !(await r.text()).includes('<svg')) bad.push(u); }
            return bad;
        }"""
    )
    assert missing == []


SNAPSHOT = {
    "type": "snapshot", "v": 5, "commitment": "ab" * 32, "prompt": None, "server_ms": 0,
    "table": {"id": "t1", "variant": "taiwan", "practice": True, "room": None, "coins_per_point": None,
              "options": {}, "seat": 1, "hand_no": 1, "hands_played": 0, "dealer": 0, "round_wind": 0,
              "dealer_streak": 0,
              "seats": [{"seat": i, "username": f"p{i}", "bot": i != 1, "connected": True, "auto_play": False}
                        for i in range(4)]},
    "view": None,
}
DEAL = {"type": "event", "v": 6, "hand_no": 1, "event": {
    "seq": 1, "type": "deal", "dealer": 0, "dice": [1, 2, 3], "open_seat": 2, "seat_winds": [2, 3, 0, 1],
    "wildcards": [], "indicators": [], "wall": 80,
    "tiles": ["1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "1z", "1z", "5z"]}}


def test_state_builds_the_view_from_events(js) -> None:
    out = js("state", """(() => {
        const [snap, deal] = arg;
        let s = m.reduceMessage(m.initialState(), snap, 0).state;
        s = m.reduceMessage(s, deal, 0).state;
        const step = (v, ev) => { const r = m.reduceMessage(s, {type: 'event', v, hand_no: 1, event: ev}, 0); s = r.state; return r.resync; };
        step(7, {type: 'discard', seat: 0, tile: '1z'});
        const prompt = {type: 'prompt', v: 7, hand_no: 1, kind: 'claim', deadline_ms: 0, expires_in_ms: 3000, auto_play: false,
                        actions: [{kind: 'pong', seat: 1, tile: '1z'}, {kind: 'pass', seat: 1}]};
        s = m.reduceMessage(s, prompt, 1000).state;
        step(8, {type: 'presence', seat: 2, connected: false});  // a table notice: the prompt stays open
        const offered = m.groupActions(s.prompt);
        const before = {pongs: offered.pongs.length, pass: !!offered.pass, left: m.secondsLeft(s.prompt, 2000)};
        step(9, {type: 'pong', seat: 1, from: 0, tile: '1z', tiles: ['1z', '1z', '1z']});
        const afterPong = structuredClone(s);
        step(10, {type: 'discard', seat: 1, tile: '5z'});
        step(11, {type: 'draw', seat: 2, tail: false, wall: 79});
        const gap = step(13, {type: 'draw', seat: 3, tail: false, wall: 78});
        return {before, afterPong, s, gap};
    })()""", [SNAPSHOT, DEAL])
    before, after_pong, s = out["before"], out["afterPong"], out["s"]
    assert before == {"pongs": 1, "pass": True, "left": 2.0}
    assert after_pong["prompt"] is None  # the table moved on: the prompt is stale
    me = after_pong["view"]["players"][1]
    assert me["melds"] == [{"kind": "pong", "added": False, "tiles": ["1z", "1z", "1z"], "claimed": "1z", "from": 0}]
    assert me["concealed_count"] == 14 and "1z" not in me["concealed"]
    assert after_pong["view"]["players"][0]["river"] == []  # the claimed tile left the river
    assert after_pong["view"]["current"] == 1
    view = s["view"]
    assert view["players"][1]["river"] == ["5z"] and view["last_discard"] == {"seat": 1, "tile": "5z"}
    assert view["players"][2]["concealed_count"] == 17 and view["wall_remaining"] == 79
    assert view["players"][0]["concealed_count"] == 16  # dealer: 17 dealt, one discarded
    assert out["gap"] is True and s["synced"] is False  # v 12 was skipped: ask for a snapshot
    assert s["table"]["seats"][2]["connected"] is False


def test_state_handles_own_draws_kongs_and_the_hand_end(js) -> None:
    out = js("state", """(() => {
        const [snap, deal] = arg;
        let s = m.reduceMessage(m.initialState(), snap, 0).state;
        s = m.reduceMessage(s, deal, 0).state;
        let v = 6;
        const step = (ev) => { s = m.reduceMessage(s, {type: 'event', v: ++v, hand_no: 1, event: ev}, 0).state; };
        step({type: 'discard', seat: 0, tile: '9s'});
        step({type: 'draw', seat: 1, tail: false, wall: 79, tile: '1z'});
        const drawn = m.handForDisplay(s.view.players[1]);
        step({type: 'kong', seat: 1, kind: 'akong', tile: '1z'});
        const afterKong = structuredClone(s.view.players[1]);
        step({type: 'draw', seat: 1, tail: true, wall: 78, tile: '1f'});
        step({type: 'flower', seat: 1, tile: '1f', wall: 78});
        step({type: 'hand_end', winners: [1], win_kind: 'self_draw', winning_tile: '5z', discarder: null,
              hands: [['1m'], ['5z', '5z'], ['2p'], ['3p']], score: {seats: [], payments: [], net: [0, 0, 0, 0]}});
        return {drawn, afterKong, view: s.view};
    })()""", [SNAPSHOT, {**DEAL, "event": {**DEAL["event"], "tiles": [*DEAL["event"]["tiles"][:-1], "1z"]}}])
    assert out["drawn"]["drawn"] == "1z" and len(out["drawn"]["tiles"]) == 16
    kong = out["afterKong"]
    assert kong["melds"][0]["kind"] == "akong" and kong["concealed_count"] == 13 and kong["drawn"] is None
    view = out["view"]
    assert view["phase"] == "ended" and view["players"][1]["flowers"] == ["1f"]
    assert view["players"][0]["concealed"] == ["1m"]  # revealed at the end
    assert view["result"]["winners"] == [1]
