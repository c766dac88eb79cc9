"""Text a person typed that others will read (a tournament's name, an operator's reason): one rule for all.

Stored in NFC, and refused (not cleaned) when it holds a character that changes how the rest is shown or is
not there to see, or when nothing of it would be seen at all:
- controls, bidi overrides and isolates, zero-width characters (Unicode categories Cc, Cf, Cs, Co, Cn, Zl,
  Zp).  "evil" written with a right-to-left override reads as "live" in the lobby; refusing it is the only
  honest answer;
- Unicode's Default_Ignorable_Code_Point set (``DEFAULT_IGNORABLE``): the Hangul fillers (U+3164, U+115F),
  the combining grapheme joiner (U+034F) and the variation selectors are letters or marks by category, yet a
  font draws nothing for them, so a reason of only U+3164 showed blank in the audit log;
- text with no visible character: only spaces and marks (``reason: "   "``).
"""

from __future__ import annotations

import unicodedata

from app.services.errors import InvalidInput

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

# Default_Ignorable_Code_Point (默認可忽略字元), as published in the Unicode Character Database's
# DerivedCoreProperties.txt (https://www.unicode.org/Public/15.1.0/ucd/DerivedCoreProperties.txt; the set is
# unchanged from 14.0 to 16.0).  Python's unicodedata has no such property, so the ranges are copied here,
# inclusive, first to last; tests/app/services/test_visible_text.py checks known members and the published size.
DEFAULT_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),    # SOFT HYPHEN
    (0x034F, 0x034F),    # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),    # ARABIC LETTER MARK
    (0x115F, 0x1160),    # HANGUL CHOSEONG FILLER..HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),    # KHMER VOWEL INHERENT AQ..AA
    (0x180B, 0x180F),    # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),    # ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),    # LEFT-TO-RIGHT EMBEDDING..RIGHT-TO-LEFT OVERRIDE
    (0x2060, 0x206F),    # WORD JOINER..NOMINAL DIGIT SHAPES (isolates included)
    (0x3164, 0x3164),    # HANGUL FILLER
    (0xFE00, 0xFE0F),    # VARIATION SELECTOR-1..16
    (0xFEFF, 0xFEFF),    # ZERO WIDTH NO-BREAK SPACE
    (0xFFA0, 0xFFA0),    # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),    # reserved
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT LETTER OVERLAP..UP STEP
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM..END PHRASE
    (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17..256, reserved
)

DEFAULT_IGNORABLE: frozenset[int] = frozenset(
    code for first, last in DEFAULT_IGNORABLE_RANGES for code in range(first, last + 1))

# What a reader sees: a letter, number, punctuation or symbol (spaces and marks alone show nothing).
SEEN_CATEGORY_CLASSES = frozenset("LNPS")


def visible_text(value: str, field: str = "text") -> str:
    """``value`` in NFC; InvalidInput (``invalid_input``) if a character of it is hidden or reorders the
    others (reason ``hidden_character``), or if no character of it is seen (reason ``nothing_visible``)."""
    text = unicodedata.normalize("NFC", value)
    for ch in text:
        if ord(ch) in DEFAULT_IGNORABLE or unicodedata.category(ch) in HIDDEN_CATEGORIES:
            raise InvalidInput(f"{field} holds an invisible, control or bidi character (U+{ord(ch):04X})",
                               field=field, reason="hidden_character")
    if text and not any(unicodedata.category(ch)[0] in SEEN_CATEGORY_CLASSES for ch in text):
        raise InvalidInput(f"{field} has no visible character", field=field, reason="nothing_visible")
    return text


def reason_text(value: str, field: str = "reason") -> str:
    """An act's reason as the audit log keeps it: visible text, stripped, never blank (else InvalidInput)."""
    text = visible_text(value, field).strip()
    if not text:
        raise InvalidInput(f"{field} is required", field=field, reason="missing")
    return text
