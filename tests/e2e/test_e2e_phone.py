"""Issue 13 defect 4, on phones in portrait (390×844 and 360×640): the 16-tile winning hand in the result is
not clipped (every tile's box inside the dialog and the screen, no sideways scrolling), and the hand tiles
at the table are at least 36 px tall and tappable (the tile itself is what a tap at its centre hits)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import play_step, register, unique_name

PHONES = [(390, 844), (360, 640)]

# A 台炮 winner with 16 concealed tiles and the winning tile (the widest hand there is), two melds of another
# seat and flowers, shown in the app's own result dialog.
_SHOW = """async () => {
    const m = await import('/js/render/result.js');
    const hand = ['1m','2m','3m','4m','5m','6m','7m','8m','9m','1p','2p','3p','5s','5s','5s','7z','7z'];
    const msg = {hand_no: 3, payments: [{payer: 1, payee: 0, points: 8, coins: 800, reason: 'win'}],
        result: {winners: [0], win_kind: 'self_draw', winning_tile: '7z', hands: [hand, [], [], []],
                 score: {variant: 'taipao', seats: [{seat: 0, items: [{key: 'zimo', names: {zh_hant: '自摸', zh_hans: '自摸', en: 'Self-drawn'}, value: 1, unit: 'tai'}],
                 totals: {base: 0, bonus: 1, total: 1, score: 1}}], payments: [], net: [8, -8, 0, 0]}}};
    const players = [0, 1, 2, 3].map((i) => ({seat: i, melds: [], flowers: i === 0 ? ['1f', '2f', '5f', '6f'] : [], river: []}));
    const state = {table: {seat: 0, variant: 'taipao', coins_per_point: 100, dealer: 0, options: {},
                           seats: [0, 1, 2, 3].map((i) => ({seat: i, username: 'player' + i}))},
                   view: {wildcards: ['5s', '6s'], players, dealer: 0, dealer_streak: 0}};
    const d = document.getElementById('result-dialog');
    d.replaceChildren(m.resultEl(msg, state, (s) => 'player' + s, {verified: null, gameOver: null, onNext() { d.close(); }, onLobby() {}}));
    if (!d.open) d.showModal();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
    const wh = d.querySelector('.winning-hand');
    wh.scrollIntoView({block: 'nearest'});
    return {dialog: box(d), hand: box(wh), tiles: [...wh.querySelectorAll('.tile')].map(box),
            scrollW: d.scrollWidth, clientW: d.clientWidth, vw: innerWidth, vh: innerHeight};
}"""


def _inside(inner: dict, outer: dict) -> bool:
    return (inner["x"] >= outer["x"] - 1 and inner["y"] >= outer["y"] - 1
            and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + 1
            and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + 1)


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_the_sixteen_tile_winning_hand_is_not_clipped_on_a_phone(browser: Browser, base_url: str, artifacts: Path,
                                                                 size: tuple[int, int]) -> None:
    context = browser.new_context(base_url=base_url, viewport={"width": size[0], "height": size[1]}, locale="zh-TW",
                                  has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto("/")
        m = page.evaluate(_SHOW)
        screen = {"x": 0, "y": 0, "w": m["vw"], "h": m["vh"]}
        assert _inside(m["dialog"], screen), m["dialog"]
        assert m["scrollW"] <= m["clientW"] + 1, "the result scrolls sideways"
        assert len(m["tiles"]) >= 17 + 4  # 16 concealed + the winning tile + 4 flowers
        for tile in m["tiles"]:
            assert _inside(tile, m["dialog"]) and _inside(tile, screen), f"{size}: a tile is clipped: {tile}"
            assert tile["w"] >= 12 and tile["h"] >= 16, f"{size}: a tile is too small to read: {tile}"
        page.screenshot(path=artifacts / f"result-16-tiles-{size[0]}x{size[1]}.png")
    finally:
        context.close()


# A hand that does not fit the phone's width is one row scrolled sideways (issue 33 item 3): each tile is
# scrolled into view before it is measured, as a player would swipe to it.
_TAPPABLE = """() => [...document.querySelectorAll('.my-hand .tile')].map((el) => {
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return {h: r.height, w: r.width, x: r.x, y: r.y, hit: !!hit && (hit === el || el.contains(hit))};
})"""


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_hand_tiles_are_big_enough_to_tap_in_portrait(browser: Browser, base_url: str, artifacts: Path,
                                                      size: tuple[int, int]) -> None:
    context = browser.new_context(base_url=base_url, viewport={"width": size[0], "height": size[1]}, locale="zh-TW",
                                  has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        register(page, unique_name("tap"))
        page.locator("[data-practice=taipao]").click()
        expect(page.locator(".table")).to_have_attribute("data-variant", "taipao")
        expect(page.locator(".my-hand .tile").first).to_be_visible()
        tiles = page.evaluate(_TAPPABLE)
        assert len(tiles) >= 16
        for tile in tiles:
            assert tile["h"] >= 36, f"{size}: hand tiles too small: {tile}"
            assert tile["x"] >= 0 and tile["x"] + tile["w"] <= size[0] + 1 and tile["y"] + tile["h"] <= size[1] + 1, tile
            assert tile["hit"], f"{size}: a hand tile is covered where it would be tapped: {tile}"
        # A real tap plays: tap a tile twice when it is this seat's turn (lift, then discard).
        for _ in range(400):
            if page.locator(".my-hand .tile:not([disabled])").count() and not page.locator(".actions .act").count():
                break
            play_step(page, claim=False)
            page.wait_for_timeout(20)
        before = page.evaluate("() => window.__mj.state().prompt?.v ?? -1")
        tile = page.locator(".my-hand .tile:not([disabled])").last
        tile.tap()  # the first tap lifts the tile
        expect(page.locator(".my-hand .tile.selected")).to_have_count(1)
        tile.tap()  # the second discards it: the turn's prompt is answered, and the server took it
        page.wait_for_function(f"() => (window.__mj.state().prompt?.v ?? -1) !== {before}"
                               " || !!document.querySelector('#result-dialog[open]')", timeout=10_000)
        assert page.evaluate("() => window.__mj.state().last_error") is None
        page.screenshot(path=artifacts / f"table-taipao-{size[0]}x{size[1]}-touch.png")
    finally:
        context.close()
