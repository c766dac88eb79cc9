"""Issue 34: names and reasons others read refuse Unicode's default-ignorable characters (U+3164, U+115F,
U+034F, the variation selectors) and text with no visible character; they showed blank in the audit log.

One validator (app.services.text.visible_text) serves every free-text field; the API tests walk the fields
a person types: an admin's reason, a tournament's name and a username."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.services.errors import InvalidInput
from app.services.text import DEFAULT_IGNORABLE, visible_text
from tests.app.tournaments.test_tournaments import spec

LATER = datetime.now(UTC) + timedelta(hours=1)

# Known members of Default_Ignorable_Code_Point (DerivedCoreProperties.txt), one from each kind of range.
KNOWN_IGNORABLE = [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x180B, 0x180F, 0x200B, 0x200D, 0x202E,
                   0x2060, 0x2065, 0x2066, 0x3164, 0xFE00, 0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0, 0x1BCA0, 0x1D173,
                   0xE0001, 0xE0020, 0xE0100, 0xE01EF, 0xE0FFF]
# Characters a reader sees (or ordinary spaces), none of them default-ignorable.
KNOWN_SHOWN = [ord(c) for c in "a麻將 ㄅ가é・!€"] + [0x3000, 0x00A0, 0x0301, 0x1161, 0xFFEF, 0xE1000]


def test_the_declared_set_is_unicodes_default_ignorable_code_points():
    # "Total code points: 4174" in DerivedCoreProperties.txt (Unicode 14.0 to 16.0).
    assert len(DEFAULT_IGNORABLE) == 4174
    assert set(KNOWN_IGNORABLE) <= DEFAULT_IGNORABLE
    assert not set(KNOWN_SHOWN) & DEFAULT_IGNORABLE


@pytest.mark.parametrize(("value", "reason"), [
    ("\u3164", "hidden_character"),           # HANGUL FILLER: a letter (Lo) that shows nothing
    ("ok\u115f", "hidden_character"),         # HANGUL CHOSEONG FILLER
    ("a\u034fb", "hidden_character"),         # COMBINING GRAPHEME JOINER (Mn)
    ("cup\ufe0f", "hidden_character"),        # VARIATION SELECTOR-16
    ("cup\U000e0100", "hidden_character"),    # VARIATION SELECTOR-17
    ("\u202eevil", "hidden_character"),       # RIGHT-TO-LEFT OVERRIDE
    ("   ", "nothing_visible"),
    ("\u3000 \u00a0", "nothing_visible"),     # ideographic and no-break spaces
    ("\u0301\u0302", "nothing_visible"),      # marks with nothing to sit on
])
def test_invisible_text_is_refused(value, reason):
    with pytest.raises(InvalidInput) as refused:
        visible_text(value, "reason")
    assert refused.value.params == {"field": "reason", "reason": reason}


@pytest.mark.parametrize("value", ["Sunday cup", "週日盃", "café", "— ! —", "🀄 cup"])
def test_visible_text_passes_in_nfc(value):
    assert visible_text(value) == value


BAD_TEXT = ["\u3164", "\u115f\u1160", "x\u034f", "cup\ufe0f", "  \u3000 "]


@pytest.mark.parametrize("text", BAD_TEXT)
async def test_an_admins_reason_must_be_visible(client, player, text):
    boss, alice = await player("boss", role="admin"), await player("alice")
    response = await client.post(f"/api/admin/users/{alice.id}/freeze", headers=boss.headers,
                                 json={"frozen": True, "reason": text})
    assert response.status_code == 422, response.text
    assert response.json()["params"]["field"] == "reason"
    assert (await client.get("/api/me", headers=alice.headers)).json()["frozen"] is False
    audit = (await client.get("/api/admin/audit", headers=boss.headers)).json()
    assert not [row for row in audit if row["action"].startswith("account.freeze")]


@pytest.mark.parametrize("text", BAD_TEXT)
async def test_a_tournaments_name_must_be_visible(client, player, text):
    op = await player("oper", role="operator")
    response = await client.post("/api/operator/tournaments", headers=op.headers,
                                 json=spec(name=text, starts_at=LATER.isoformat()))
    assert response.status_code == 422, response.text
    assert response.json()["params"]["field"] == "name"
    assert (await client.get("/api/tournaments")).json() == []


@pytest.mark.parametrize("name", ["\u3164\u3164\u3164", "abc\u115f", "abc\ufe0f", "ab\u034fc"])
async def test_a_username_must_be_visible(client, name):
    response = await client.post("/api/auth/register", json={"username": name, "password": "a long password"})
    assert response.status_code == 422 and response.json()["code"] == "invalid_username", response.text
