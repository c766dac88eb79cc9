"""Issue 33 item 5, the smaller things, in the browser at 390×844, 360×740, 844×390 and 1280×720 in each language:

* the visible strings of every screen are in the chosen language's own script: no Chinese in English, no
  simplified characters in 繁體 and no traditional ones in 简体 (tile faces and player names left out);
* 隨開門 says where the door opens this hand and the seat winds it gives;
* the keyboard help lists only the variant's own actions;
* the result gives way when the next hand starts; the history groups hands under their game with a replay
  of the whole game;
* opponents' flowers are upright and readable; discards and draws move in real play, and nothing moves under
  reduced motion;
* a call banner stands beside the plate of the seat that called;
* a two-character Chinese name (阿明) registers, and a one-character one is refused naming the rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import opencc
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import PASSWORD, play_step, register, unique_name
from tests.e2e.test_e2e_game import open_short_practice
from tests.e2e.test_e2e_phone_table import LANGS, SIZES, _gap, _resize, set_language
from tests.test_i18n_tables import TRADITIONAL_AS_WRITTEN

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_tw2s, _s2tw = opencc.OpenCC("tw2s"), opencc.OpenCC("s2tw")

# Visible text of the page, leaving out tile faces, player names, the language switch (each language is named
# in its own script there) and what was said at a moment in that moment's language (toasts, the screen reader's
# announcements, a call banner of a second).
_TEXTS = """() => {
  const skip = '.tile, .name, .who, #me-name, #lang-switch, .lang-switch, .me-name, .standing .who, .seat,'
    + ' .plate .name, code, .commitment, #toasts, #announcer, #call-layer';
  const seen = (el) => el.checkVisibility() || !!el.closest('.sr-only, .keys-help');
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!text || !el || el.closest(skip) || el.closest('script, style, template') || !seen(el)) continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title]')) {
    if (el.closest(skip) || !seen(el)) continue;
    for (const a of ['aria-label', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out;
}"""


def foreign_script(texts: list[str], lang: str, names: set[str]) -> list[str]:
    """The strings that are written in another language's script."""
    bad = []
    for text in texts:
        for name in names:  # a player's name is theirs, in whatever script
            text = text.replace(name, "")
        simplified = {c for c in _CJK.findall(text) if _s2tw.convert(c) != c} - TRADITIONAL_AS_WRITTEN
        wrong = {"en": bool(_CJK.search(text)), "zh-Hans": _tw2s.convert(text) != text, "zh-Hant": bool(simplified)}
        if wrong[lang]:
            bad.append(text)
    return bad


def _scan(page: Page, screen: str, names: set[str]) -> list[str]:
    found = []
    for size in SIZES:
        _resize(page, size)
        for lang in LANGS:
            set_language(page, lang)
            page.wait_for_function("() => !document.querySelector('.view:not([hidden]) .loading')")
            found += [f"{screen} {size} {lang}: {t!r}" for t in foreign_script(page.evaluate(_TEXTS), lang, names)]
    _resize(page, (1280, 720))
    set_language(page, "zh-Hant")
    return found


def _play_until_result(page: Page) -> None:
    for _ in range(3000):
        if page.locator("#result-dialog[open]").count():
            return
        if not play_step(page, claim=False):
            page.wait_for_timeout(15)
    raise AssertionError("no result")


def test_each_screen_speaks_one_script_and_the_small_things_hold(page: Page, artifacts: Path) -> None:
    name = unique_name("small")
    register(page, name)
    names = {name, "bot", "Bot"}
    found = _scan(page, "lobby", names)
    page.goto("/#/rules/taiwan")
    expect(page.locator("#rules-view h1")).to_be_visible()
    found += _scan(page, "rules", names)
    page.goto("/#/lobby")

    open_short_practice(page, "taiwan", hands=2)
    # 隨開門: where the door opens this hand and the winds it gives (the centre box on a desktop).
    for lang, words in {"en": "the door opens at", "zh-Hant": "本局門開在", "zh-Hans": "本局门开在"}.items():
        set_language(page, lang)
        expect(page.locator(".core .dice-line .open-line")).to_contain_text(words)
    # The keyboard help: 台灣 has 眼牌 and Miji, no 聽 and no 殺豬.
    set_language(page, "en")
    help_text = page.locator("#table-view .keys-help").text_content() or ""
    assert "E Eye" in help_text and "M Miji" in help_text and "R " not in help_text and "X " not in help_text, help_text
    set_language(page, "zh-Hant")
    found += _scan(page, "table", names)
    # Opponents' flowers are upright on their plates, at least 18 px wide.
    for box in page.evaluate("() => [...document.querySelectorAll('.plate .plate-flowers .tile')]"
                             ".map((t) => t.getBoundingClientRect().width)"):
        assert box >= 18, f"an opponent's flower is {box} px wide"

    # The result gives way when the next hand starts.
    _play_until_result(page)
    found += _scan(page, "result", names)
    expect(page.locator("#result-dialog")).to_be_hidden(timeout=20_000)
    expect(page.locator(".table")).to_have_attribute("data-variant", "taiwan")
    page.evaluate("() => window.__mj.send({type: 'auto_play'})")  # the server finishes the game
    expect(page.locator("#result-dialog[open] button.to-standings")).to_be_visible(timeout=120_000)
    page.locator("#result-dialog button.to-standings").click()
    page.locator("#result-dialog button.lobby").click()
    expect(page.locator("#lobby-view")).to_be_visible()
    expect(page.locator("#result-dialog")).to_be_hidden()

    # History: the game's hands grouped under it, and a replay of the whole game.
    page.goto("/#/hands")
    group = page.locator(".game-group").first
    expect(group.locator(".hands-list tbody tr")).to_have_count(2)
    found += _scan(page, "hands", names)
    page.screenshot(path=artifacts / "history-grouped-1280x720.png")
    group.locator("a.replay-game").click()
    expect(page.locator(".game-bar .game-hand")).to_have_attribute("data-hand-index", "0")
    page.locator(".game-bar .next-hand").click()
    expect(page.locator(".game-bar .game-hand")).to_have_attribute("data-hand-index", "1")
    expect(page.locator(".game-bar .next-hand")).to_be_disabled()
    found += _scan(page, "replay", names)
    assert found == [], "\n".join(found)


_DRAW_MOTION = """() => {
  const t = document.createElement('span'); t.className = 'tile fresh-draw';
  document.body.append(t); const name = getComputedStyle(t).animationName; t.remove(); return name;
}"""


# Every animation and transition running in the page, sampled at each change of the table or its banners (a
# discard's drop and a draw's slide last about 0.2 s): their names, and how many fresh tiles were drawn (the
# ones that move, whatever their animation).
_WATCH_MOTION = """() => { window.__motion = {names: [], fresh: 0};
  new MutationObserver(() => {
    window.__motion.fresh += document.querySelectorAll('#table-root .tile.fresh, #table-root .tile.fresh-draw').length;
    for (const a of document.getAnimations()) {
      if (a.playState === 'running') window.__motion.names.push(a.animationName ?? `transition ${a.transitionProperty}`);
    }
  }).observe(document.getElementById('table-view'), {childList: true, subtree: true}); }"""


def _play_discards(page: Page, count: int, wanted: frozenset[str] = frozenset()) -> dict:
    """Play (passing claims) until ``count`` more discards have landed and the ``wanted`` animations have run
    (the bots play in milliseconds, so a discard is at times drawn in the same frame as your next draw, which
    is the one that moves then); returns what the motion watcher saw."""
    page.evaluate(_WATCH_MOTION)
    look = """() => ({hand: window.__mj.state().hand_no, names: [...new Set(window.__motion.names)],
                      river: window.__mj.state().view?.players.reduce((n, p) => n + p.river.length, 0) ?? 0})"""
    first = page.evaluate(look)
    hand, start, river, landed = first["hand"], first["river"], first["river"], 0
    for _ in range(4000):
        now = page.evaluate(look)
        if now["hand"] != hand:  # a new hand: its rivers start empty
            landed, hand, start = landed + river - start, now["hand"], 0
        river = now["river"]
        if landed + river - start >= count and wanted <= set(now["names"]):
            break
        if page.locator("#result-dialog[open]").count():
            page.keyboard.press("Escape")
        if not play_step(page, claim=False):
            page.wait_for_timeout(15)
    return page.evaluate("() => window.__motion")


def test_discards_and_draws_move_unless_motion_is_reduced(browser: Browser, base_url: str) -> None:
    """Issue 33 item 5, "a short discard, draw and call animation, off under reduced motion", in real play: with
    motion allowed a discard drops onto the river and your draw slides in (running CSS animations); under
    prefers-reduced-motion the same play runs no animation on the table at all."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
    try:
        page = context.new_page()
        register(page, unique_name("move"))
        assert page.evaluate(_DRAW_MOTION) == "mj-draw"
        open_short_practice(page, "taipao", hands=8)
        expect(page.locator(".my-hand .tile").first).to_be_visible()
        moving = _play_discards(page, 8, frozenset({"mj-drop", "mj-draw"}))
        assert moving["fresh"] > 0 and {"mj-drop", "mj-draw"} <= set(moving["names"]), moving

        page.emulate_media(reduced_motion="reduce")
        assert page.evaluate(_DRAW_MOTION) == "none"
        still = _play_discards(page, 8)
        assert still["fresh"] > 0, "no fresh tile was drawn: nothing was measured"
        assert still["names"] == [], f"animations under reduced motion: {still}"
    finally:
        context.close()


def test_a_two_character_chinese_name_registers(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, locale="zh-TW")
    try:
        page = context.new_page()
        page.goto("/")
        page.locator("#auth-switch").click()
        page.locator("#auth-username").fill("明")
        page.locator("#auth-password").fill(PASSWORD)
        page.locator("#auth-submit").click()
        expect(page.locator("#auth-error")).to_contain_text("至少 2 個字")  # the rule it broke, for this name
        page.locator("#auth-username").fill("阿明")
        page.locator("#auth-submit").click()
        expect(page.locator("#lobby-view")).to_be_visible()
        expect(page.locator("#me-name")).to_have_text("阿明")
    finally:
        context.close()


# Each call banner as it appears (render/calls.js), with the caller read from the table's state at that moment
# (a claim makes the caller the seat to play; a declaration is on the caller's discard; a win names its winners)
# and the boxes of the banner and of every plate.  The banner's box is its layout box (offsets ignore its
# entrance scale and its centring translate, both transforms).
_WATCH_CALLERS = """() => { window.__calls = [];
  const box = (r) => ({x: r.x, y: r.y, w: r.width, h: r.height});
  new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes) {
    if (!n.classList?.contains('call-banner')) continue;
    const v = window.__mj.state().view, call = n.dataset.call;
    const callers = ['chow', 'pong', 'kong'].includes(call) ? [v.current]
        : ['win', 'zimo'].includes(call) ? (v.result?.winners ?? []) : [v.last_discard?.seat];
    const layer = n.offsetParent.getBoundingClientRect();
    window.__calls.push({call, callers, seatPos: n.dataset.seatPos, vw: innerWidth, vh: innerHeight,
      banner: {x: layer.x + n.offsetLeft - n.offsetWidth / 2, y: layer.y + n.offsetTop - n.offsetHeight / 2,
               w: n.offsetWidth, h: n.offsetHeight},
      core: box(document.querySelector('#table-root .core').getBoundingClientRect()),
      plates: [...document.querySelectorAll('#table-root .plate[data-seat-pos]')].map((p) => ({
        seat: Number(p.dataset.seat), pos: p.dataset.seatPos, box: box(p.getBoundingClientRect())}))});
  } }).observe(document.getElementById('call-layer'), {childList: true}); }"""


def _centre_distance(a: dict, b: dict) -> float:
    return float(((a["x"] + a["w"] / 2 - b["x"] - b["w"] / 2) ** 2 + (a["y"] + a["h"] / 2 - b["y"] - b["h"] / 2) ** 2) ** 0.5)


# Every call's banner shown by the client's own showCall beside every plate, measured, then taken away.
_EVERY_BANNER = """async () => {
  const { showCall } = await import('./js/render/calls.js');
  const box = (r) => ({x: r.x, y: r.y, w: r.width, h: r.height});
  const layer = document.getElementById('call-layer'), out = [];
  const plates = [...document.querySelectorAll('#table-root .plate[data-seat-pos]')];
  const boxes = plates.map((p) => ({seat: Number(p.dataset.seat), pos: p.dataset.seatPos, box: box(p.getBoundingClientRect())}));
  const core = box(document.querySelector('#table-root .core').getBoundingClientRect());
  for (const plate of plates) for (const call of ['chow', 'pong', 'kong', 'ready', 'eye', 'miji', 'win', 'zimo']) {
    const n = showCall(layer, 'probe', call, plate), l = n.offsetParent.getBoundingClientRect();
    out.push({call, seat: Number(plate.dataset.seat), seatPos: n.dataset.seatPos, plates: boxes, core,
      banner: {x: l.x + n.offsetLeft - n.offsetWidth / 2, y: l.y + n.offsetTop - n.offsetHeight / 2,
               w: n.offsetWidth, h: n.offsetHeight}});
    n.remove();
  }
  return out; }"""

# Two winners on one discard: each pair of seats' 胡 banners up at once, the layout boxes of both.
_TWO_WINNERS = """async () => {
  const { showCall } = await import('./js/render/calls.js');
  const layer = document.getElementById('call-layer'), out = [];
  const plates = [...document.querySelectorAll('#table-root .plate[data-seat-pos]')];
  const box = (n) => ({x: n.offsetLeft - n.offsetWidth / 2, y: n.offsetTop - n.offsetHeight / 2, w: n.offsetWidth, h: n.offsetHeight});
  for (const a of plates) for (const b of plates) if (a !== b) {
    const first = showCall(layer, 'one', 'win', a), second = showCall(layer, 'two', 'win', b);
    out.push({seats: [a.dataset.seatPos, b.dataset.seatPos], boxes: [box(first), box(second)]});
    first.remove(); second.remove();
  }
  return out; }"""


def _overlap(a: dict, b: dict) -> float:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return w * h if w > 0 and h > 0 else 0.0


def test_every_call_banner_stands_clear_beside_its_plate(browser: Browser, base_url: str) -> None:
    """Issue 33 item 5, for every call word in every language at every size, with no luck involved: the banner
    stands beside its caller's plate (≤ 12 px), covers no other seat's plate, and is nearer its own plate than
    any other plate and the table's centre; two winners' banners up at once do not cross.  At 360×740 the plates
    stand in two columns 96 px apart, narrower than 自摸's banner: beside the bottom-right plate it used to sit
    over yours (CI, 2026-12-05)."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
    try:
        page = context.new_page()
        register(page, unique_name("band"))
        open_short_practice(page, "taipao", hands=8)
        expect(page.locator("#table-root .plate[data-seat-pos]")).to_have_count(4)
        for lang in LANGS:
            set_language(page, lang)
            for size in SIZES:
                _resize(page, size)
                shown = page.evaluate(_EVERY_BANNER)
                assert len(shown) == 4 * 8, shown
                for c in shown:
                    plates = {p["seat"]: p for p in c["plates"]}
                    mine, where = plates[c["seat"]], f"{lang} {size}: {c['call']} of the {plates[c['seat']]['pos']} seat"
                    assert c["seatPos"] == mine["pos"], where
                    assert _gap(c["banner"], mine["box"]) <= 12, f"{where}: {c['banner']} not beside {mine}"
                    near = _centre_distance(c["banner"], mine["box"])
                    assert near < _centre_distance(c["banner"], c["core"]), f"{where}: nearer the centre"
                    for other in c["plates"]:
                        if other["seat"] != c["seat"]:
                            assert _overlap(c["banner"], other["box"]) == 0, f"{where}: {c['banner']} covers {other}"
                            assert near < _centre_distance(c["banner"], other["box"]), f"{where}: nearer {other}"
                for pair in page.evaluate(_TWO_WINNERS):
                    assert _overlap(*pair["boxes"]) == 0, f"{lang} {size}: two winners' banners cross: {pair}"
    finally:
        context.close()


def test_a_call_banner_stands_beside_the_callers_plate(browser: Browser, base_url: str) -> None:
    """Issue 33 item 5: the bots' 碰 / 槓 / 吃 (and any 胡) banner shows beside the plate of the seat that called,
    not in the middle of the table, at 390×844, 360×740, 844×390 and 1280×720 (the page's seat is on 托管)."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, locale="zh-TW")
    try:
        page = context.new_page()
        register(page, unique_name("call"))
        page.evaluate(_WATCH_CALLERS)
        open_short_practice(page, "taipao", hands=16)
        page.evaluate("() => window.__mj.send({type: 'auto_play'})")  # 托管: the server plays the page's seat
        by_size: dict[tuple[int, int], list[dict]] = {}
        for size in SIZES:
            _resize(page, size)
            page.wait_for_function("([w, h]) => window.__calls.some((c) => c.vw === w && c.vh === h"
                                   " && c.seatPos !== 'self')", arg=list(size), timeout=30_000)
            by_size[size] = [c for c in page.evaluate("() => window.__calls") if (c["vw"], c["vh"]) == size]
        for size, calls in by_size.items():
            assert any(c["seatPos"] != "self" for c in calls), f"{size}: no bot called: {calls}"
            for c in calls:
                plates = {p["seat"]: p for p in c["plates"]}
                assert c["callers"] and all(s in plates for s in c["callers"]), c
                # Beside (or over) its caller's plate, and nearer to it than to any other plate or the centre.
                near = min(c["callers"], key=lambda s: _gap(c["banner"], plates[s]["box"]))
                plate = plates[near]
                assert c["seatPos"] == plate["pos"], f"{size}: {c['call']} by the {plate['pos']} seat says {c['seatPos']}"
                assert _gap(c["banner"], plate["box"]) <= 12, f"{size}: {c['call']} banner {c['banner']} not beside {plate}"
                mine = _centre_distance(c["banner"], plate["box"])
                for other in c["plates"]:
                    if other["seat"] not in c["callers"]:
                        assert mine < _centre_distance(c["banner"], other["box"]), f"{size}: {c['call']} nearer {other}"
                assert mine < _centre_distance(c["banner"], c["core"]), f"{size}: {c['call']} banner nearer the centre"
    finally:
        context.close()
