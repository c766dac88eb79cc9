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


def test_every_setting_is_described_with_its_bounds():
    from app.core.config import Settings
    from app.tables.settings import TableSettings

    text = (docgen.DOCS / "settings.md").read_text("utf-8")
    for cls, prefix in ((Settings, ""), (TableSettings, "TABLE_")):
        for name, field in cls.model_fields.items():
            assert field.description, f"{cls.__name__}.{name} needs a description (it is documented from it)"
            assert f"| `{(prefix + name).upper()}` |" in text
    assert "| `GET /api/me/ledger?limit=` | 1–200 entries a page |" in text


def test_every_option_is_documented_with_its_range():
    from engine.options import option_table

    text = (docgen.DOCS / "options.md").read_text("utf-8")
    for variant in ("tiantai", "taipao", "taiwan"):
        for name in option_table(variant):
            assert f"| `{name}` |" in text
    assert "| `cap` | int | `300` | 100 / 200 / 300 |" in text
