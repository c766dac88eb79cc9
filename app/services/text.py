"""Text a person typed that others will read (a tournament's name, an operator's reason): one rule for all.

Stored in NFC, and refused (not cleaned) when it holds a character that changes how the rest is shown or is
not there to see: controls, bidi overrides and isolates, zero-width characters (Unicode categories Cc, Cf,
Cs, Co, Cn, Zl, Zp).  "evil" written with a right-to-left override reads as "live" in the lobby; refusing it
is the only honest answer.
"""

from __future__ import annotations

import unicodedata

from app.services.errors import InvalidInput

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def visible_text(value: str, field: str = "text") -> str:
    """``value`` in NFC; InvalidInput (``invalid_input``, reason ``hidden_character``) if a character of it is
    hidden or reorders the others."""
    text = unicodedata.normalize("NFC", value)
    for ch in text:
        if unicodedata.category(ch) in HIDDEN_CATEGORIES:
            raise InvalidInput(f"{field} holds a control, bidi or zero-width character (U+{ord(ch):04X})",
                               field=field, reason="hidden_character")
    return text


def reason_text(value: str, field: str = "reason") -> str:
    """An act's reason as the audit log keeps it: visible text, stripped, never blank (else InvalidInput)."""
    text = visible_text(value, field).strip()
    if not text:
        raise InvalidInput(f"{field} is required", field=field, reason="missing")
    return text
