"""Reference docs generated from the code, so they cannot drift from it (docs/*.md).

    python -m app.docgen           rewrite every generated doc
    python -m app.docgen --check   exit 1 if any is stale (tests/app/docgen/test_generated_docs.py does the same)

Each page is a function returning markdown from the declarations it documents (the error table, the
option table, the settings classes, the protocol models); ``protocol`` writes docs/protocol.md and its JSON schema.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from app.core.config import PROJECT_ROOT
from app.docgen import errors, guide, metrics, options, protocol, settings, tournaments

DOCS = PROJECT_ROOT / "docs"
PAGES: dict[str, Callable[[], str]] = {
    "errors.md": errors.render,
    "metrics.md": metrics.render,
    "options.md": options.render,
    "settings.md": settings.render,
    "tournaments.md": tournaments.render,
}


def outputs() -> dict[Path, str]:
    out = {DOCS / name: render() for name, render in PAGES.items()}
    out.update(protocol.outputs())
    out[guide.GUIDE_EXAMPLES] = guide.render()  # the rules guide's worked examples (web/js)
    return out


def stale() -> list[Path]:
    return [path for path, text in outputs().items() if not path.exists() or path.read_text("utf-8") != text]


def write() -> None:
    for path, text in outputs().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")

