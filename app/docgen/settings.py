"""docs/settings.md: every setting (Settings, TableSettings) and the fixed limits of the API, from code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from annotated_types import Ge, Gt, Le, Lt
from pydantic_settings import BaseSettings

from app.api.routes.health import READY_CHECK_SECONDS
from app.api.routes.me import LEDGER_PAGE_MAX
from app.core.config import PROJECT_ROOT, SECRET_KEY_MIN, Settings
from app.docgen.note import GENERATED_NOTE
from app.quickplay.matcher import JITTER, SEATING_AT_ONCE
from app.quickplay.matching import WIDEST_SPREAD
from app.quickplay.store import MATCHED_TTL_SECONDS
from app.schemas import Credentials
from app.services import accounts
from app.services.ledger import ADJUSTMENT_MAX
from app.tables.cluster.cluster import RENEWALS_PER_LEASE, TAKEOVER_GRACE_ROUNDS
from app.tables.settings import TableSettings

INTRO = """\
# Settings and limits

{note}

Every setting is an environment variable (or a line of `.env`), case-insensitive.  Server settings are
`app/core/config.py`'s `Settings`; the table actor's are `app/tables/settings.py`'s `TableSettings`, whose
variables start with `TABLE_`.  Throttles and caps count per server process.
"""


def _bounds(field: Any) -> str:
    if get_origin(field.annotation) is Literal:
        return " / ".join(f"`{v}`" for v in get_args(field.annotation))
    parts = []
    for item in field.metadata:
        for kind, attr, sign in ((Ge, "ge", "≥"), (Gt, "gt", ">"), (Le, "le", "≤"), (Lt, "lt", "<")):
            if isinstance(item, kind):
                parts.append(f"{sign} {getattr(item, attr)}")
    return ", ".join(parts) or "—"


def _default(field: Any) -> str:
    value = field.get_default(call_default_factory=True)
    if isinstance(value, Path):
        try:
            return f"`<project>/{value.relative_to(PROJECT_ROOT)}`"
        except ValueError:
            return f"`{value}`"
    if isinstance(value, str) and "sqlite" in value:
        return "SQLite in `<project>/var`"
    return f"`{json.dumps(getattr(value, 'value', value), ensure_ascii=False)}`"


def _table(cls: type[BaseSettings]) -> list[str]:
    prefix = str(cls.model_config.get("env_prefix", ""))
    lines = ["| variable | type | default | allowed | meaning |", "|---|---|---|---|---|"]
    for name, field in cls.model_fields.items():
        kind = "str" if get_origin(field.annotation) is Literal else getattr(
            field.annotation, "__name__", str(field.annotation)).replace("|", "or")
        lines.append(f"| `{(prefix + name).upper()}` | {kind} | {_default(field)} | {_bounds(field)} | "
                     f"{(field.description or '').replace('|', '/')} |")
    return lines


def _limits() -> list[str]:
    password_in = Credentials.model_fields["password"].metadata
    login_max = next(m.max_length for m in password_in if hasattr(m, "max_length"))
    rows = [
        ("username", f"{accounts.USERNAME_MIN}–{accounts.USERNAME_MAX} characters after NFKC "
                     f"({accounts.USERNAME_MIN_CJK}–{accounts.USERNAME_MAX} when it holds a CJK character): ASCII "
                     "letters, digits, `_` and CJK; unique ignoring case"),
        ("password at registration", f"{accounts.PASSWORD_MIN}–{accounts.PASSWORD_MAX} characters"),
        ("password at login", f"at most {login_max} characters (longer is a 422, never hashed)"),
        ("`SECRET_KEY`", f"at least {SECRET_KEY_MIN} characters outside development"),
        ("session lifetime", f"`SESSION_ABSOLUTE_SECONDS` {_bounds(Settings.model_fields['session_absolute_seconds'])}"
                             f", idle `SESSION_IDLE_SECONDS` {_bounds(Settings.model_fields['session_idle_seconds'])}"),
        ("socket ticket", f"single use, `WS_TICKET_SECONDS` {_bounds(Settings.model_fields['ws_ticket_seconds'])}"),
        ("`GET /api/me/ledger?limit=`", f"1–{LEDGER_PAGE_MAX} entries a page"),
        ("admin adjustment `delta`", f"a JSON integer, non-zero, at most {ADJUSTMENT_MAX:,} either way"),
        ("table options", "each option's type and range: [options.md](options.md)"),
        ("table socket messages", "see `TABLE_RATE_LIMIT_*`, `TABLE_MAX_MESSAGE_BYTES`, `TABLE_RESYNC*` above"),
        ("quick play's rank spread", f"0–{WIDEST_SPREAD} titles: starts at "
                                     "`QUICKPLAY_RANK_SPREAD`, one more per `QUICKPLAY_SPREAD_WIDEN_SECONDS` waited"),
        ("quick play's waves", f"every `QUICKPLAY_WAVE_SECONDS` ± {JITTER:.0%}; at most {SEATING_AT_ONCE} tables "
                               "seated at once"),
        ("`GET /readyz`", f"each dependency (database, Redis) answers within {READY_CHECK_SECONDS:g} s or counts as "
                          "unreachable"),
        ("take-over grace", f"a table lease is renewed {RENEWALS_PER_LEASE} times per `LEASE_SECONDS`; a free one is "
                            f"taken over only after {TAKEOVER_GRACE_ROUNDS} renewal rounds, `LEASE_SECONDS` more "
                            "while the process last named its owner still beats"),
        ("`GET /api/me/queue`'s `table_id`", f"kept {MATCHED_TTL_SECONDS // 60} minutes after the match"),
    ]
    return ["| what | limit |", "|---|---|", *[f"| {a} | {b} |" for a, b in rows]]


def render() -> str:
    out = [INTRO.format(note=GENERATED_NOTE.format(source="`Settings`, `TableSettings` and the API's limits")),
           "## Server (`Settings`)", "", *_table(Settings), "", "## Tables (`TableSettings`, `TABLE_*`)", "",
           *_table(TableSettings), "", "## Fixed limits", "", *_limits()]
    return "\n".join(out) + "\n"
