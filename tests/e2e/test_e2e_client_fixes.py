"""Issue 13 defects 5, 6 and 11 (one browser): the sign-up rules shown before sending, 財神 marked in the
winning hand, finished tables out of the lobby and a lone creator told why the table waits."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import register, token, unique_name


def test_finished_tables_are_not_listed(page: Page) -> None:
    page.goto("/")
    listed = page.evaluate("""async () => {
        const m = await import('/js/render/lobby.js');
        const seat = (id) => ({seat: 0, user_id: id, username: id ? 'x' : null, bot: false});
        const tables = [
            {id: 'w', status: 'waiting', seats: [seat(null)]},
            {id: 'p', status: 'playing', seats: [seat(9)]},
            {id: 'f', status: 'finished', seats: [seat(9)]},
            {id: 'mine', status: 'finished', seats: [seat(7)]},
        ];
        return [m.listedTables(tables, 7).map((t) => t.id), m.listedTables(tables, null).map((t) => t.id)];
    }""")
    assert listed == [["w", "p", "mine"], ["w", "p"]]


def test_a_lone_creator_is_told_why_the_table_waits(page: Page) -> None:
    register(page, unique_name("lone"))
    room = page.locator(".room[data-room=beginner]")
    room.locator("select").select_option("taiwan")
    room.locator("button[type=submit]").click()
    hint = room.locator(".lobby-table.mine .waiting-hint")
    expect(hint).to_contain_text("4")
    expect(hint).to_contain_text("3")
    room.locator(".lobby-table.mine button.stand").click()
    expect(room.locator(".lobby-table.mine")).to_have_count(0)


def test_the_sign_up_form_shows_its_rules_before_sending(page: Page) -> None:
    # Defect 5: the rules come from the server's declarations (GET /api/auth/rules) and show before submitting;
    # a name that breaks them is not sent.
    page.goto("/")
    page.locator("#auth-switch").click()
    rules = page.locator("#auth-rules")
    expect(rules).to_be_visible()
    expect(rules).to_contain_text("3–20")
    expect(rules).to_contain_text("8")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/api/auth/register") else None)
    page.locator("#auth-username").fill("a!")
    page.locator("#auth-password").fill("short")
    page.locator("#auth-submit").click()
    # The rules show once (above the button, now marked); the error says which fields break them.
    expect(page.locator("#auth-error")).to_have_text("帳號和密碼都不符合上面的規則")
    expect(page.locator("#auth-error")).not_to_contain_text("3–20")
    expect(rules).to_have_class(re.compile(r"\bbroken\b"))
    assert sent == []
    page.locator("#auth-switch").click()  # signing in: no rules shown
    expect(rules).to_be_hidden()


def test_the_result_marks_the_wildcards_in_the_winning_hand(page: Page) -> None:
    # Defect 6: the 財神 in a 台炮 winning hand carry the same 財 mark as at the table.
    page.goto("/")
    marked = page.evaluate("""async () => {
        const m = await import('/js/render/result.js');
        const msg = {hand_no: 1, result: {winners: [0], hands: [['1m','2m','3m','5z','5z','7p','8p','9p','2s','2s','2s','4s','4s','4s','6s','6s']],
                     winning_tile: '6s', score: {seats: [], payments: [], net: [0, 0, 0, 0]}}};
        const state = {table: {seat: 0, seats: [0,1,2,3].map((i) => ({seat: i, username: 'p' + i}))},
                       view: {wildcards: ['5z', '6s'], players: [{melds: [], flowers: [], river: []}]}};
        const el = m.resultEl(msg, state, (s) => 'p' + s, {verified: null, gameOver: null, onNext() {}, onLobby() {}});
        return [...el.querySelectorAll('.winning-hand .tile.wild')].map((t) => t.getAttribute('aria-label'));
    }""")
    assert len(marked) == 4, marked  # 中 中 and a 6s in the hand, and the winning 6s


def test_every_action_button_says_what_it_does(page: Page) -> None:
    # Defect 8: 殺豬 / 咪幾 in the Chinese UI (no 杀猪 or Latin "Miji" in 繁體), and each button explains itself
    # (tooltip and aria-description; a long press shows the same words).
    page.goto("/")
    buttons = page.evaluate("""async () => {
        const m = await import('/js/render/actions.js');
        const s = await import('/js/state.js');
        const prompt = {kind: 'turn', v: 1, actions: [
            {kind: 'kill_pig'}, {kind: 'discard', tile: '1m', declare: 'miji'}, {kind: 'discard', tile: '1m', declare: 'eye'},
            {kind: 'pong', tile: '2m'}, {kind: 'win'}, {kind: 'pass'}]};
        const bar = m.actionBarEl({offer: s.groupActions(prompt), mode: null, promptKind: 'turn', autoPlay: false,
                                   myTurnHint: false}, {onButton() {}, onChoice() {}, onCancel() {}, onBack() {}});
        return [...bar.querySelectorAll('button.act')].map((b) => ({id: b.dataset.action, text: b.querySelector('.zh').textContent,
            title: b.title, help: b.getAttribute('aria-description')}));
    }""")
    by_id = {b["id"]: b for b in buttons}
    assert {"kill_pig", "miji", "eye", "pong", "win", "pass"} <= set(by_id), by_id
    assert by_id["kill_pig"]["text"] == "殺豬" and by_id["miji"]["text"] == "咪幾"
    for b in buttons:
        assert b["help"] and len(b["help"]) > 4 and b["help"] in b["title"], b


def test_the_result_says_how_items_become_points_and_coins(page: Page) -> None:
    # Defect 7 (in part): every result states the variant's rule from items to points and the room's rate
    # from points to coins (a 0-台 台灣 win still pays the 底).
    page.goto("/")
    out = page.evaluate("""async () => {
        const m = await import('/js/render/result.js');
        const build = (variant, unit, perPoint) => {
            const msg = {hand_no: 1, payments: [{payer: 1, payee: 0, points: 60, coins: 60 * (perPoint ?? 0), reason: 'discard'}],
                result: {winners: [0], hands: [[]], score: {variant, seats: [{seat: 0, items: [{key: 'base', name: 'x', value: 10, unit}], totals: {}}],
                payments: [], net: [60, -60, 0]}}};
            const state = {table: {seat: 0, variant, coins_per_point: perPoint, seats: [0, 1, 2].map((i) => ({seat: i, username: 'p' + i}))},
                           view: {wildcards: [], players: []}};
            const el = m.resultEl(msg, state, (s) => 'p' + s, {verified: null, gameOver: null, onNext() {}, onLobby() {}});
            return {heading: el.querySelector('.scores h3').textContent, rule: el.querySelector('.pay-rule')?.textContent};
        };
        return [build('tiantai', 'hu', 100), build('taiwan', 'tai', 10000), build('taipao', 'tai', null)];
    }""")
    tiantai, taiwan, taipao = out
    assert "1.5 × S" in tiantai["rule"] and "5 胡 = 1 點" in tiantai["rule"]
    assert "1 點 = 100 金幣" in tiantai["rule"]
    assert "底 5 點" in taiwan["rule"] and "10,000" in taiwan["rule"]
    assert "1 台 = 1 點" in taipao["rule"] and "金幣" in taipao["rule"]  # practice: no coins move


def test_the_rules_page_lists_every_scoring_item_from_the_server(page: Page) -> None:
    # Feature "rules and help": a page per variant generated from GET /api/variants (items, 台 / 胡, options).
    register(page, unique_name("rules"))
    variants = {v["key"]: v for v in page.request.get("/api/variants").json()}
    for key in ("taiwan", "tiantai", "taipao"):
        page.goto(f"/#/rules/{key}")
        rows = page.locator(f".rules[data-variant={key}] .rules-items tbody tr")
        expect(rows).to_have_count(len(variants[key]["items"]))
        first = variants[key]["items"][0]
        expect(rows.first).to_have_attribute("data-key", first["key"])
        expect(rows.first.locator("th")).to_contain_text(first["names"]["zh_hant"])
    page.goto("/#/rules/taiwan")  # 台灣's self-draw is worth 1 台 by default
    expect(page.locator(".rules-items tr[data-key=self_draw] td.num")).to_have_text("1 台")
    # Every item has its one-line explanation (issue 13 "rules and help", defect 8).
    explains = page.locator(".rules-items tbody td.explain").all_inner_texts()
    assert len(explains) == len(variants["taiwan"]["items"]) and all(x.strip() for x in explains)
    expect(page.locator(".rules-options tr[data-option=rounds]")).to_have_count(1)


def test_the_rules_link_of_a_table_shows_that_tables_own_values(page: Page) -> None:
    # "Rules and help ... the room's option values, linked from the table and the result": a table opened
    # with its own values (底 3, 自摸 2 台) links a rules page that shows those, not the defaults.
    register(page, unique_name("opts"))
    response = page.request.post("/api/practice", headers={"Authorization": f"Bearer {token(page)}"},
                                 data={"variant": "taiwan", "options": {"di": 3, "self_draw": 2}})
    assert response.ok, response.text()
    table_id = response.json()["id"]
    page.goto(f"/#/table/{table_id}")
    expect(page.locator(".table")).to_have_attribute("data-variant", "taiwan")
    link = page.locator("#rules-link")
    expect(link).to_have_attribute("href", f"#/rules/taiwan/{table_id}")
    page.goto(f"/#/rules/taiwan/{table_id}")
    expect(page.locator(".rules-items tr[data-key=self_draw] td.num")).to_have_text("2 台")
    expect(page.locator(".rules-options tr[data-option=di] td").first).to_have_text("3")
    expect(page.locator(".rules h3.options-title")).to_have_text("這桌的設定")
    page.goto("/#/rules/taiwan")  # without the table: the defaults
    expect(page.locator(".rules-items tr[data-key=self_draw] td.num")).to_have_text("1 台")
    expect(page.locator(".rules-options tr[data-option=di] td").first).to_have_text("5")
