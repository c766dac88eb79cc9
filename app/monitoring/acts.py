"""Every operator, admin and director act, once committed: one structured log event and its metrics.

``app.services.audit.record`` is where every act is written (in the transaction of the change it records);
it hands the entry here as well, and the entry is logged only once that transaction commits — a rolled-back
act is never logged.  The event's fields are the ids an on-call engineer searches by (``actor_id``,
``user_id``, ``tournament_id``, ``table_id``, ``hand_id``) and the ``reason``.  Tournament acts also count
``mahjong_tournament_transitions_total`` and, when a tournament finishes, the prize coins it paid.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from app import metrics

log = logging.getLogger("app.acts")
PENDING = "acts_pending"  # session.info key: acts of the open transaction
TARGET_FIELD = {"user": "user_id", "tournament": "tournament_id", "table": "table_id", "hand": "hand_id"}


def pending(session: Any, act: dict[str, Any]) -> None:
    """Remember ``act`` (the audit entry's fields) until its session commits."""
    session.info.setdefault(PENDING, []).append(act)


def fields(act: dict[str, Any]) -> dict[str, Any]:
    """The log event's fields: who, what, on what (its id under its own name), why, the new state."""
    out: dict[str, Any] = {"action": act["action"], "actor_id": act["actor_id"], "reason": act.get("reason")}
    target = TARGET_FIELD.get(act["target_type"])
    if target is not None:
        out[target] = int(act["target_id"]) if target != "table_id" and str(act["target_id"]).isdigit() \
            else act["target_id"]
    state = (act.get("after") or {}).get("state")
    if state is not None:
        out["state"] = state
    return out


def committed(acts: list[dict[str, Any]]) -> None:
    for act in acts:
        log.info(act["action"], extra=fields(act))
        if act["target_type"] != "tournament":
            continue
        after = act.get("after") or {}
        state = after.get("state")
        if state in metrics.TRANSITIONS_BY and (act.get("before") or {}).get("state") != state:
            metrics.TRANSITIONS_BY[state].inc()
        if act["action"] == "tournament.finish":
            metrics.PRIZES_PAID.inc(sum((after.get("prizes") or {}).values()))


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    acts = session.info.pop(PENDING, None)
    if acts:
        committed(acts)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(PENDING, None)
