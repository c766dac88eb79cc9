"""Every generated reference doc (docs/errors.md, …) matches the code it is generated from."""

from __future__ import annotations

from app import docgen
from app.services.errors import ErrorCode


def test_generated_docs_are_current():
    assert docgen.stale() == [], "run: python -m app.docgen"


def test_every_error_code_is_documented():
    text = (docgen.DOCS / "errors.md").read_text("utf-8")
    for code in ErrorCode:
        assert f"| `{code.value}` |" in text
