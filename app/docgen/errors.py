"""docs/errors.md: every error code, from ``app.services.errors.ErrorCode``."""

from __future__ import annotations

from app.docgen.note import GENERATED_NOTE
from app.services.errors import HTTP, WS, ErrorCode

INTRO = """\
# Error codes

{note}

Every refusal carries a stable, snake_case `code`; clients translate by code and fill in `params`.

* **REST** (every 4xx/5xx): `{{"detail": "<English message>", "code": "<code>", "params": {{...}}}}`.
  `detail` is kept for old clients and logs; do not parse it.
* **422** from request validation (a missing field, a wrong type, a number out of range) is
  `invalid_input` with `params.field` (e.g. `limit`, `options.cap`), `params.reason` (pydantic's error type,
  e.g. `less_than_equal`), the bound that failed (`minimum` / `maximum` / `choices`) and `params.errors`, one
  such object per failed field.  Table options have their own codes (`unknown_option`,
  `option_wrong_type`, `option_out_of_range`, `options_inconsistent`) naming the option and its range.
* **429** responses also carry a `Retry-After` header (seconds).
* **Table socket** `error` messages (docs/protocol.md) carry the codes marked *ws*; nothing changed and the
  table goes on.  Close codes are listed in docs/protocol.md.
"""


def _where(code: ErrorCode) -> str:
    return " + ".join(w for w in (HTTP, WS) if w in code.channels)


def render() -> str:
    lines = [INTRO.format(note=GENERATED_NOTE.format(source="`app/services/errors.py`")),
             "| code | HTTP | where | params | meaning |", "|---|---|---|---|---|"]
    for code in ErrorCode:
        params = ", ".join(f"`{p}`" for p in code.params) or "—"
        lines.append(f"| `{code.value}` | {code.status or '—'} | {_where(code)} | {params} | {code.doc} |")
    return "\n".join(lines) + "\n"
