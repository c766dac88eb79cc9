"""简体中文, 繁體中文 and English in the browser (issue 14).

A player whose browser asks for a language gets it on the first visit, plays a practice hand of every variant to
its result, and reads every screen in that language: no visible Chinese text in the other script (each visible
CJK string is checked against the characters only the other column of the tables uses) and no English sentence
in a Chinese UI.  The choice is remembered per browser and per account.  One browser context per language, one
page each, reused across the variants (the machine is small).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.helpers import (
    PASSWORD,
    close_result,
    play_step,
    play_until_result,
    register,
    token,
    unique_name,
)
from tests.test_i18n_tables import load_strings, server_names

VARIANT_NAMES = ["tiantai", "taipao", "taiwan"]
# Playwright's locale sets both navigator.languages and the Accept-Language header.
LOCALES = {"zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "en": "en-US"}
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# Two or more English words in a row (a single token such as a player's name or "sha256" is not a sentence).
_ENGLISH = re.compile(r"\b[A-Za-z]{2,}\b(?:[ ,;:'’-]+\b[A-Za-z]{2,}\b)+")

# Every text node the player can see (and the values of visible inputs), with where it is.
_VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (el.closest('.sr-only, [aria-hidden="true"]')) continue;
    out.push([el.className || el.tagName, text]);
  }
  return out;
}"""


# Do the scoring items of the last result carry their names in the three languages?
_ITEMS_NAMED = """() => (window.__mj.state().result?.result?.score?.seats ?? [])
    .flatMap((s) => s.items ?? []).every((it) => it.names && it.names.zh_hans && it.names.zh_hant && it.names.en)"""


def script_only_characters() -> dict[str, set[str]]:
    """For each Chinese script, the characters that only its column uses (e.g. 將 萬 槓 for 繁體), over the
    client's strings and every name the server sends (rooms, titles, scoring items)."""
    hans: set[str] = set()
    hant: set[str] = set()
    for row in load_strings().values():
        hans |= set(_CJK.findall(row["zh-Hans"]))
        hant |= set(_CJK.findall(row["zh-Hant"]))
    for names in server_names().values():
        hans |= set(_CJK.findall(names.zh_hans))
        hant |= set(_CJK.findall(names.zh_hant))
    return {"zh-Hans": hans - hant, "zh-Hant": hant - hans}


OTHER_SCRIPT = {"zh-Hans": "zh-Hant", "zh-Hant": "zh-Hans"}


def check_script(page: Page, language: str, where: str) -> None:
    """No visible text in the other Chinese script; in a Chinese UI, no English sentence."""
    if language == "en":
        return
    foreign = script_only_characters()[OTHER_SCRIPT[language]]
    problems = []
    for element, text in page.evaluate(_VISIBLE_TEXT):
        wrong = sorted(set(text) & foreign)
        if wrong:
            problems.append((element, text, f"{OTHER_SCRIPT[language]} characters {''.join(wrong)}"))
        english = _ENGLISH.search(text)
        if english:
            problems.append((element, text, f"English {english.group(0)!r}"))
    assert not problems, f"{where} in {language}: {problems}"


@pytest.fixture(scope="module")
def contexts(browser: Browser, base_url: str) -> Iterator[dict[str, BrowserContext]]:
    made = {lang: browser.new_context(base_url=base_url, locale=locale, viewport={"width": 1280, "height": 720})
            for lang, locale in LOCALES.items()}
    yield made
    for context in made.values():
        context.close()


def signed_out_page(context: BrowserContext) -> Page:
    """A new page of a shared context, signed out (an earlier test of the module may have signed in)."""
    context.clear_cookies()  # the login is the session cookie, shared by the context's pages
    page = context.new_page()
    page.goto("/")
    page.evaluate("() => localStorage.removeItem('mj.table')")
    return page


def test_the_script_check_knows_both_scripts() -> None:
    only = script_only_characters()
    assert {"萬", "將", "槓", "過"} <= only["zh-Hant"] and {"万", "将", "杠", "过"} <= only["zh-Hans"]


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_practice_hand_of_every_variant_in_each_language(
    contexts: dict[str, BrowserContext], language: str, artifacts: Path
) -> None:
    page = signed_out_page(contexts[language])
    # The first visit picks the language from the browser's (Accept-Language / navigator.languages).
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(f"#lang-switch [data-lang={language}]")).to_have_attribute("aria-pressed", "true")
    check_script(page, language, "sign-in")
    register(page, unique_name("lg"))
    check_script(page, language, "lobby")
    for variant in VARIANT_NAMES:
        page.locator(f"[data-practice={variant}]").click()
        expect(page.locator(".table")).to_have_attribute("data-variant", variant)
        expect(page.locator("#conn-status")).to_have_attribute("data-status", "open")
        expect(page.locator(".my-hand .tile").first).to_be_visible()
        # The table as dealt, checked and kept in case a bot wins before the rivers fill.
        check_script(page, language, f"{variant} table")
        page.screenshot(path=artifacts / f"i18n-table-{variant}-{language}.png")
        for _ in range(400):  # a few turns, so the rivers have tiles
            if page.locator("#result-dialog[open]").count() or page.locator(".river .tile").count() >= 6:
                break
            play_step(page, claim=False)
            page.wait_for_timeout(20)
        if not page.locator("#result-dialog[open]").count():
            check_script(page, language, f"{variant} table")
            page.screenshot(path=artifacts / f"i18n-table-{variant}-{language}.png")
        play_until_result([page], claim=True)
        expect(page.locator("#result-dialog h2")).to_contain_text(load_strings()["result.title"][language])
        # Scoring-item names come from the engine's one table (item.names), in the player's language.
        assert page.evaluate(_ITEMS_NAMED), "a scoring item without names in three languages"
        check_script(page, language, f"{variant} result")
        page.screenshot(path=artifacts / f"i18n-result-{variant}-{language}.png")
        close_result(page)
        page.locator("#leave-table").click()
        expect(page.locator("#lobby-view")).to_be_visible()
    page.close()


def test_errors_are_said_in_the_players_language(contexts: dict[str, BrowserContext]) -> None:
    page = signed_out_page(contexts["zh-Hans"])
    register(page, unique_name("er"))
    # A REST refusal (a room you cannot afford) and a refused table message, each rendered from its code.
    page.evaluate("""async () => {
        const { api } = await import('/js/api.js');
        const { showError } = await import('/js/app.js');
        await api.createTable('advanced', 'taiwan').catch(showError);
    }""")
    # insufficient_coins with its params, numbers formatted: never the server's English detail.
    expect(page.locator(".toast.error").last).to_have_text("错误: 金币不足：入场需 120,000，你有 50,000")
    check_script(page, "zh-Hans", "REST error toast")
    page.locator("[data-practice=taiwan]").click()
    expect(page.locator("#conn-status")).to_have_attribute("data-status", "open")
    page.evaluate("() => window.__mj.send({type: 'action', v: 0, action: {kind: 'pass'}})")
    expect(page.locator(".toast.error").last).to_contain_text("错误")
    check_script(page, "zh-Hans", "table error toast")
    page.locator("#leave-table").click()
    expect(page.locator("#lobby-view")).to_be_visible()
    # A wrong password, on the sign-in form.
    page.locator("#logout").click()
    expect(page.locator("#auth-view")).to_be_visible()
    page.locator("#auth-switch").click()  # the form still says 注册 (we registered): switch to 登录
    expect(page.locator("#auth-submit")).to_have_text("登录")
    page.locator("#auth-username").fill("nobody_here")
    page.locator("#auth-password").fill("wrong password")
    page.locator("#auth-submit").click()
    expect(page.locator("#auth-error")).to_have_text("账号或密码错误")
    page.close()


def test_the_choice_is_remembered_per_browser_and_per_account(browser: Browser, base_url: str) -> None:
    first = browser.new_context(base_url=base_url, locale="zh-CN")
    second = browser.new_context(base_url=base_url, locale="en-US")
    try:
        page = first.new_page()
        name = unique_name("rm")
        register(page, name)
        expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
        page.locator("#lang-switch [data-lang=zh-Hant]").click()
        expect(page.locator(".practice h3")).to_contain_text("練習")
        page.reload()  # this browser remembers
        expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
        expect(page.locator("#lang-switch [data-lang=zh-Hant]")).to_have_attribute("aria-pressed", "true")
        # Another browser, set to English, signs in to the account and gets the account's choice.
        other = second.new_page()
        other.goto("/")
        expect(other.locator("html")).to_have_attribute("lang", "en")
        other.locator("#auth-username").fill(name)
        other.locator("#auth-password").fill(PASSWORD)
        other.locator("#auth-submit").click()
        expect(other.locator("#lobby-view")).to_be_visible()
        expect(other.locator("html")).to_have_attribute("lang", "zh-Hant")
        # Switching there is saved on the account too.
        other.locator("#lang-switch [data-lang=zh-Hans]").click()
        expect(other.locator(".practice h3")).to_contain_text("练习")
        def account_language() -> str | None:
            return other.request.get("/api/me", headers={"Authorization": f"Bearer {token(other)}"}).json()["language"]

        for _ in range(50):  # the PATCH is on its way
            if account_language() == "zh-Hans":
                break
            other.wait_for_timeout(100)
        assert account_language() == "zh-Hans"
    finally:
        first.close()
        second.close()


def test_the_language_detected_from_the_browsers_list(page: Page) -> None:
    page.goto("/")
    cases = {
        "zh-CN": "zh-Hans", "zh-SG": "zh-Hans", "zh-Hans": "zh-Hans", "zh-Hans-HK": "zh-Hans",
        "zh-TW": "zh-Hant", "zh-HK": "zh-Hant", "zh-Hant": "zh-Hant", "zh-Hant-CN": "zh-Hant",
        "en-GB": "en", "fr-FR": "en", "ja": "en",
    }
    got = page.evaluate(
        "async (cases) => { const m = await import('/js/i18n.js');"
        " return Object.fromEntries(Object.keys(cases).map((tag) => [tag, m.detectLanguage([tag])])); }",
        cases,
    )
    assert got == cases
    # The first language the client knows wins: a French reader who also reads 繁體 gets 繁體.
    assert page.evaluate("async () => (await import('/js/i18n.js')).detectLanguage(['fr', 'zh-TW', 'en'])") == "zh-Hant"
