"""docs/operations.md states the moderation, export and collusion limits by hand: each must match its one
declaration, so changing a constant without the doc fails here."""

from __future__ import annotations

from pathlib import Path

from app.services import collusion, exports, notes

DOC = (Path(__file__).resolve().parents[3] / "docs" / "operations.md").read_text(encoding="utf-8")


def test_the_documented_limits_are_the_declared_ones():
    assert f"1–{notes.NOTE_MAX} characters, `app.services.notes.NOTE_MAX`" in DOC
    assert f"(at most {notes.NOTES_PAGE_MAX})" in DOC
    assert f"keyset pages of {exports.EXPORT_PAGE}" in DOC and f"LIMIT {exports.EXPORT_PAGE}" in DOC
    assert f"net_coins / (net_coins + {collusion.FLOW_SCALE:,})".replace(",", " ") in DOC
    assert f"{collusion.SHARED_WEIGHT} × shared_address + {collusion.SHARED_WEIGHT} × shared_device" in DOC
    assert f"{collusion.FLOW_SCALE:,} coins is `FLOW_SCALE`".replace(",", " ") in DOC
    assert all(f"`{c}`" in DOC for c in exports.LEDGER_COLUMNS + exports.AUDIT_COLUMNS)  # every column explained
