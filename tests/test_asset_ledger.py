"""Issue 13 "sound and motion": every sound the client ships is listed in the licence ledger
(web/assets/tiles/LICENSES.md) with its source and licence, so nothing unlicensed slips in."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "web" / "assets" / "tiles" / "LICENSES.md"


def test_every_sound_file_is_in_the_licence_ledger() -> None:
    sounds = sorted(p.name for p in (ROOT / "web" / "assets" / "sounds").iterdir() if p.is_file())
    assert sounds, "no sounds shipped"
    rows = [line for line in LEDGER.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    for name in sounds:
        row = next((r for r in rows if f"`{name}`" in r), None)
        assert row is not None, f"{name} is not in {LEDGER.name}"
        assert re.search(r"CC0|CC-BY|MIT|Apache|OFL", row), f"{name}: no licence named: {row}"
