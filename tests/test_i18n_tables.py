"""The client's three languages (issue 14): every string in 简体, 繁體 and English, one table, and the 简体 and
繁體 columns correspond.

OpenCC (a dev dependency) is used here only, to check the hand-written tables; nothing translates at run time.
Where the two Chinese columns differ by more than script, the difference is a regional term chosen by hand and
listed in REGIONAL_TERMS with its reason.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import opencc
import pytest

from app.game.names import LANGUAGES, Names
from app.game.rooms import ROOMS
from app.game.titles import TITLES
from app.services.errors import ErrorCode
from app.tables.protocol.messages import GameOverMessage
from engine.scoring.names import ITEM_NAMES
from engine.scoring.situation import WinKind

ROOT = Path(__file__).resolve().parents[1]
STRINGS = ROOT / "web" / "js" / "strings.json"
WEB_JS = ROOT / "web" / "js"

# (繁體 as Taiwan writes it, 简体 as the mainland writes it): the same meaning, a different word, so OpenCC's
# character conversion cannot get from one to the other.  Each pair is chosen by hand.
REGIONAL_TERMS: tuple[tuple[str, str], ...] = (
    ("登入", "登录"),  # log in
    ("登出", "退出"),  # log out
    ("帳號", "账号"),  # account: the mainland writes 账 (ledger), Taiwan 帳
    ("即時", "实时"),  # live
    ("連線", "连接"),  # (network) connection
    ("伺服器", "服务器"),  # server
    ("訊息", "消息"),  # message
    ("視窗", "窗口"),  # window
    ("開啟", "打开"),  # open (a window)
    ("空白鍵", "空格键"),  # the space bar
    ("目前", "当前"),  # current (state)
    ("支援", "支持"),  # (does not) support
    ("底線", "下划线"),  # the underscore
    ("營運", "运营"),  # operations (the operator role)
    ("身分", "身份"),  # role / status
    ("無法使用", "不可用"),  # unavailable
    ("放槍", "放炮"),  # dealing in: Taiwan's table talk says 放槍, the 浙江 tables 放炮
    ("加槓", "补杠"),  # adding to an exposed pung (docs/rules/taipao.md#own-turn writes 补杠, docs/rules/taiwan.md#robbing 加槓)
    ("連結", "链接"),  # a (web) link: the invite link
    ("剪貼簿", "剪贴板"),  # the clipboard
)
# Characters that look simplified to OpenCC's s2tw but are standard in Taiwan's own writing.
TRADITIONAL_AS_WRITTEN = {
    "台",  # 台灣, 台數: Taiwan writes 台 (OpenCC's s2tw prefers 臺)
    "么",  # 么九 (terminals), as Taiwan's mahjong tables write it (斷么九); here it means 幺, not 麼
}

_tw2s = opencc.OpenCC("tw2s")
_s2tw = opencc.OpenCC("s2tw")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load_strings() -> dict[str, dict[str, str]]:
    """The client's table: key → {"zh-Hans", "zh-Hant", "en"}."""
    return json.loads(STRINGS.read_text(encoding="utf-8"))


def server_names() -> dict[str, Names]:
    """Every name the server sends, keyed for messages: rooms, rank titles and each variant's scoring items
    (engine.scoring.names, the one table of item names)."""
    out = {f"room.{key.value}": room.names for key, room in ROOMS.items()}
    out |= {f"title.{threshold}": names for threshold, names in TITLES}
    for variant, items in ITEM_NAMES.items():
        out |= {f"item.{variant}.{key}": n for key, n in items.items()}
    return out


# The language switch names each language in its own script in every language (issue 33 item 5: the 繁體 menu
# wrote 簡體 for 简体), as language menus do; these two are not translated between the columns.
ENDONYMS = {"lang.zh-Hans": "简体", "lang.zh-Hant": "繁體"}


def test_the_languages_are_named_in_their_own_script() -> None:
    strings = load_strings()
    for key, name in ENDONYMS.items():
        assert set(strings[key].values()) == {name}, (key, strings[key])


def chinese_pairs() -> list[tuple[str, str, str]]:
    """(where, 简体, 繁體) for every string of both tables (the languages' own names apart)."""
    pairs = [(key, row["zh-Hans"], row["zh-Hant"]) for key, row in load_strings().items() if key not in ENDONYMS]
    pairs += [(where, names.zh_hans, names.zh_hant) for where, names in server_names().items()]
    return pairs


def expected_simplified(traditional: str) -> str:
    """What the 简体 column should say: the regional terms swapped, then OpenCC's Taiwan → simplified."""
    for hant, hans in REGIONAL_TERMS:
        traditional = traditional.replace(hant, hans)
    return _tw2s.convert(traditional)


def test_every_string_exists_in_all_three_languages_with_the_same_placeholders() -> None:
    strings = load_strings()
    assert len(strings) > 150
    for key, row in strings.items():
        assert tuple(row) == LANGUAGES, key  # exactly the three, in one order: no language left out
        assert all(text.strip() for text in row.values()), key
        placeholders = {lang: sorted(_PLACEHOLDER.findall(text)) for lang, text in row.items()}
        assert len({tuple(p) for p in placeholders.values()}) == 1, (key, placeholders)


@pytest.mark.parametrize(("where", "hans", "hant"), chinese_pairs(), ids=lambda x: x if "." in str(x) else "")
def test_the_simplified_and_traditional_columns_correspond(where: str, hans: str, hant: str) -> None:
    assert expected_simplified(hant) == hans, f"{where}: 繁體 {hant!r} → {expected_simplified(hant)!r}, 简体 {hans!r}"
    assert _tw2s.convert(hans) == hans, f"{where}: the 简体 column has traditional characters: {hans!r}"
    simplified_here = {c for c in _CJK.findall(hant) if _s2tw.convert(c) != c} - TRADITIONAL_AS_WRITTEN
    assert not simplified_here, f"{where}: the 繁體 column has simplified characters {simplified_here}: {hant!r}"


def test_every_regional_term_is_used() -> None:
    # A pair no string uses any more is noise that hides the real differences.
    traditional = " ".join(hant for _, _, hant in chinese_pairs())
    assert [hant for hant, _ in REGIONAL_TERMS if hant not in traditional] == []


def test_every_server_error_code_is_said_in_three_languages() -> None:
    # The client renders REST and socket errors from their code (app.services.errors.ErrorCode), never from
    # the server's English detail.
    missing = [code.value for code in ErrorCode if f"error.code.{code.value}" not in load_strings()]
    assert missing == []


def test_every_win_kind_and_game_end_is_said_in_three_languages() -> None:
    # The client builds these keys from protocol values (`win.${kind}`, `reason.${reason}` for 台灣's payments,
    # `table.game_over.${reason}`): a value without a row would show as a raw ASCII key.
    strings = load_strings()
    keys = [f"win.{kind.value}" for kind in WinKind] + [f"reason.{kind.value}" for kind in WinKind]
    keys += [f"table.game_over.{reason}" for reason in get_args(GameOverMessage.model_fields["reason"].annotation)]
    assert [key for key in keys if key not in strings] == []


def _keys_used_in_the_client() -> set[str]:
    literal = re.compile(r"""\bt\(\s*["']([\w.\-]+)["']""")
    attribute = re.compile(r"""data-i18n="([\w.\-]+)\"""")
    attribute_pairs = re.compile(r"""data-i18n-attr="([^"]+)\"""")
    used: set[str] = set()
    # i18n.js itself is skipped: its comments show the syntax with a made-up key.
    for path in [*(p for p in WEB_JS.rglob("*.js") if p.name != "i18n.js"), ROOT / "web" / "index.html"]:
        text = path.read_text(encoding="utf-8")
        used |= set(literal.findall(text)) | set(attribute.findall(text))
        for pairs in attribute_pairs.findall(text):
            used |= {pair.split(":", 1)[1].strip() for pair in pairs.split(",")}
    return used


def test_every_key_the_client_names_is_in_the_table() -> None:
    used = _keys_used_in_the_client()
    assert {"app.title", "result.title", "auth.login"} <= used  # the scan finds both kinds of use
    assert sorted(used - set(load_strings())) == []


def test_every_scoring_item_and_total_is_explained_in_three_languages() -> None:
    # Issue 13 defect 8: each result item (and the rules page row) carries a one-line explanation, in the
    # chosen language, for every item of every variant (engine.scoring.names is the one list of items).
    strings = load_strings()
    keys = [f"itemhelp.{variant}.{key}" for variant, items in ITEM_NAMES.items() for key in items]
    keys += [f"total.{k}.help" for k in ("tai", "hu", "dealer_tai", "base", "bonus", "total", "score", "raw")]
    missing = [k for k in keys if k not in strings or not all(strings[k].get(lang, "").strip() for lang in LANGUAGES)]
    assert missing == []
