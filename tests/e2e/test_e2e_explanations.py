"""Issue 13 defect 8: every action button and every scoring item (and total) of the result explains itself in
the chosen language: a tooltip, the same words for screen readers, and a long press on a touch screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

LANGS = ["zh-Hans", "zh-Hant", "en"]
_CJK = re.compile(r"[\u4e00-\u9fff]")

_BUTTONS = """async (language) => {
    const i18n = await import('/js/i18n.js');
    const m = await import('/js/render/actions.js');
    const s = await import('/js/state.js');
    i18n.setLang(language, {remember: false});
    const prompt = {kind: 'claim', v: 1, actions: [
        {kind: 'chow', tiles: '1m2m3m'}, {kind: 'pong', tile: '2m'}, {kind: 'kong', tile: '2m'},
        {kind: 'discard', tile: '1m', declare: 'ready'}, {kind: 'discard', tile: '1m', declare: 'eye'},
        {kind: 'discard', tile: '1m', declare: 'miji'}, {kind: 'kill_pig'}, {kind: 'win'}, {kind: 'pass'}]};
    const bar = m.actionBarEl({offer: s.groupActions(prompt), mode: null, promptKind: 'claim', autoPlay: false,
                               myTurnHint: false}, {onButton() {}, onChoice() {}, onCancel() {}, onBack() {}});
    return {ids: m.BUTTONS.map((b) => b.id), buttons: [...bar.querySelectorAll('button.act')].map((b) => ({
        id: b.dataset.action, title: b.title, help: b.getAttribute('aria-description')}))};
}"""

# Every item of the variant (from GET /api/variants, the server's own list) in one winner's result, with the
# variant's totals, rendered by the client's result dialog.
_RESULT = """async ([language, variant, items, totals]) => {
    const i18n = await import('/js/i18n.js');
    const m = await import('/js/render/result.js');
    i18n.setLang(language, {remember: false});
    const msg = {hand_no: 1, result: {winners: [0], hands: [[]], score: {variant,
        seats: [{seat: 0, items: items.map((i) => ({key: i.key, names: i.names, value: 1, unit: i.unit})),
                 totals: Object.fromEntries(totals.map((k) => [k, 1]))}], payments: [], net: [0, 0, 0]}}, payments: [{payer: 1, payee: 0, points: 1, coins: 0, reason: 'self_draw'}]};
    const state = {table: {seat: 0, variant, seats: [0, 1, 2].map((i) => ({seat: i, username: 'p' + i}))},
                   view: {wildcards: [], players: []}};
    const el = m.resultEl(msg, state, (s) => 'p' + s, {verified: null, gameOver: null, onNext() {}, onLobby() {}});
    document.body.append(el);
    const rows = [...el.querySelectorAll('.items tr[data-key]')].map((r) => ({key: r.dataset.key,
        name: r.querySelector('th').textContent, title: r.title, help: r.getAttribute('aria-description')}));
    // A long press (the context menu on a touch screen) shows the same words in a bubble.
    const first = el.querySelector('.items tbody tr');
    first.dispatchEvent(new MouseEvent('contextmenu', {bubbles: true, cancelable: true}));
    const bubble = document.querySelector('.help-bubble')?.textContent ?? null;
    const rules = el.querySelector('a.rules-link')?.getAttribute('href') ?? null;
    el.remove();
    return {rows, bubble, rules};
}"""

TOTALS = {"tiantai": ["hu", "tai", "raw", "score"], "taipao": ["base", "bonus", "total", "score"],
          "taiwan": ["tai", "dealer_tai"]}


def _in_language(text: str, language: str) -> bool:
    # The English words may quote a Chinese term (台, 胡, 財神) but are Latin words; the Chinese ones are
    # Chinese with no English word in them.
    words = re.findall(r"[A-Za-z]{3,}", text)
    return len(words) >= 2 if language == "en" else bool(_CJK.search(text)) and not words


def test_every_action_button_explains_itself_in_each_language(page: Page) -> None:
    page.goto("/")
    seen: dict[str, dict[str, str]] = {}
    for language in LANGS:
        out = page.evaluate(_BUTTONS, language)
        by_id = {b["id"]: b for b in out["buttons"]}
        assert set(by_id) == set(out["ids"]), f"{language}: not every action got a button: {sorted(by_id)}"
        for b in out["buttons"]:
            assert b["help"] and len(b["help"]) >= 4 and b["help"] in b["title"], (language, b)
            assert _in_language(b["help"], language), (language, b)
            seen.setdefault(b["id"], {})[language] = b["help"]
    for help_by_language in seen.values():  # really said in each language (简体 / 繁體: tests/test_i18n_tables.py)
        assert help_by_language["en"] != help_by_language["zh-Hant"], help_by_language


@pytest.mark.parametrize("variant", ["tiantai", "taipao", "taiwan"])
def test_every_scoring_item_and_total_of_the_result_explains_itself(page: Page, variant: str) -> None:
    page.goto("/")
    items = next(v for v in page.request.get("/api/variants").json() if v["key"] == variant)["items"]
    by_language = {}
    for language in LANGS:
        out = page.evaluate(_RESULT, [language, variant, items, TOTALS[variant]])
        rows = out["rows"]
        assert [r["key"] for r in rows] == [i["key"] for i in items] + TOTALS[variant]
        for r in rows:
            assert r["help"] and r["help"] == r["title"], (language, r)
            assert _in_language(r["help"], language), (language, r)
        assert out["bubble"] == rows[0]["help"]
        # Defect 6: no two items share a name (台炮 had three items all called 財神).
        names = [r["name"] for r in rows[: len(items)]]
        assert len(set(names)) == len(names), names
        assert out["rules"] == f"#/rules/{variant}"  # the result links the variant's rules page
        by_language[language] = {r["key"]: r["help"] for r in rows}
    for key in by_language["en"]:
        assert by_language["en"][key] != by_language["zh-Hant"][key], key


def test_a_long_press_explains_a_button_without_pressing_it(page: Page) -> None:
    # On a touch screen a tooltip never shows: holding a button shows its explanation, and letting go does
    # not press it; a short tap still presses it.
    page.goto("/")
    out = page.evaluate("""async () => {
        const i18n = await import('/js/i18n.js');
        const m = await import('/js/render/actions.js');
        const s = await import('/js/state.js');
        i18n.setLang('zh-Hant', {remember: false});
        const pressed = [];
        const bar = m.actionBarEl({offer: s.groupActions({kind: 'claim', v: 1, actions: [{kind: 'pong', tile: '2m'}, {kind: 'pass'}]}),
            mode: null, promptKind: 'claim', autoPlay: false, myTurnHint: false},
            {onButton: (id) => pressed.push(id), onChoice() {}, onCancel() {}, onBack() {}});
        document.body.append(bar);
        const pong = bar.querySelector('.act-pong');
        const touch = (type) => pong.dispatchEvent(new PointerEvent(type, {pointerType: 'touch', bubbles: true}));
        const wait = (ms) => new Promise((r) => setTimeout(r, ms));
        touch('pointerdown'); await wait(800); touch('pointerup'); pong.click();  // held: explained, not pressed
        const bubble = document.querySelector('.help-bubble')?.textContent ?? null;
        const afterHold = [...pressed];
        touch('pointerdown'); await wait(50); touch('pointerup'); pong.click();   // a tap: pressed
        bar.remove();
        return {bubble, afterHold, afterTap: pressed, help: i18n.t('act.pong.help')};
    }""")
    assert out["bubble"] == out["help"] and "碰" in out["bubble"]
    assert out["afterHold"] == []
    assert out["afterTap"] == ["pong"]
