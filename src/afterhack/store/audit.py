"""Audit events, written inside the same query as the change they record."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import TypedDict

from afterhack.model.audit import AuditEntry
from afterhack.model.pages import After
from afterhack.store.client import Graph
from afterhack.store.keyset import after_params
from afterhack.store.names import new_id


class AuditParams(TypedDict):
    """One event as the parameters of CREATE_AUDIT (and the change's ``$now``)."""

    audit_id: str
    audit_kind: str
    audit_actor: str
    audit_subject: str
    audit_detail: str  # JSON
    now: int


class AuditEvent(TypedDict):
    """One event of ``$audits`` for CREATE_AUDITS."""

    id: str
    kind: str
    actor: str
    subject_id: str
    detail: str  # JSON
    at: int


# Appended to a write query so the event commits (or rolls back) with the change itself.
CREATE_AUDIT = (
    "CREATE (:AuditEvent:Node {id:$audit_id, kind:$audit_kind, actor:$audit_actor, at:$now, "
    "subject_id:$audit_subject, detail:$audit_detail})"
)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def audit_params(kind: str, actor: str, subject_id: str,
                 detail: Mapping[str, object]) -> AuditParams:
    return {
        "audit_id": new_id(),
        "audit_kind": kind,
        "audit_actor": actor,
        "audit_subject": subject_id,
        "audit_detail": json.dumps(detail, ensure_ascii=False, sort_keys=True),
        "now": now_ms(),
    }


async def list_audit(g: Graph, *, limit: int, before: int | None = None,
                     after: After | None = None) -> list[AuditEntry]:
    """Events newest first (by time, then id, both descending): those before a time, or
    after a position (paging.py)."""
    rows = await g.read(
        "MATCH (e:AuditEvent) WHERE ($before IS NULL OR e.at < $before) "
        "AND ($at_after IS NULL OR e.at < $at_after "
        "OR (e.at = $at_after AND e.id < $id_after)) "
        "RETURN e.id AS id, e.kind AS kind, e.actor AS actor, e.at AS at, "
        "e.subject_id AS subject_id, e.detail AS detail "
        "ORDER BY e.at DESC, e.id DESC LIMIT $limit",
        {"limit": limit, "before": before, **after_params(after)},
    )
    return [AuditEntry(id=r["id"], kind=r["kind"], actor=r["actor"], at=r["at"],
                       subject_id=r["subject_id"],
                       detail=json.loads(r["detail"]) if r["detail"] else {})
            for r in rows]


async def count_audit(g: Graph, before: int | None = None) -> int:
    """Events in the trail (before a time): a label's count without it."""
    if before is None:
        rows = await g.read("MATCH (e:AuditEvent) RETURN count(e) AS n")
    else:
        rows = await g.read("MATCH (e:AuditEvent) WHERE e.at < $before RETURN count(e) AS n",
                            {"before": before})
    return int(rows.scalar() or 0)


# Several events in one query: $audits is a list of AuditEvent made by audit_event().
CREATE_AUDITS = (
    "FOREACH (a IN $audits | CREATE (:AuditEvent:Node {id:a.id, kind:a.kind, actor:a.actor, "
    "at:a.at, subject_id:a.subject_id, detail:a.detail}))"
)


def audit_event(kind: str, actor: str, subject_id: str, detail: Mapping[str, object],
                at: int | None = None) -> AuditEvent:
    return {
        "id": new_id(),
        "kind": kind,
        "actor": actor,
        "subject_id": subject_id,
        "detail": json.dumps(detail, ensure_ascii=False, sort_keys=True),
        "at": at if at is not None else now_ms(),
    }
