"""Audit events, written inside the same query as the change they record (the domain makes
them: records/audit.py), and the trail read back."""

from __future__ import annotations

import json

from afterhack.model.audit import AuditEntry
from afterhack.model.pages import After
from afterhack.store.client import Graph
from afterhack.store.keyset import after_params

# Appended to a write query so the event commits (or rolls back) with the change itself.
CREATE_AUDIT = (
    "CREATE (:AuditEvent:Node {id:$audit_id, kind:$audit_kind, actor:$audit_actor, at:$now, "
    "subject_id:$audit_subject, detail:$audit_detail})"
)


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


# Several events in one query: $audits is a list of model.writes.AuditEvent.
CREATE_AUDITS = (
    "FOREACH (a IN $audits | CREATE (:AuditEvent:Node {id:a.id, kind:a.kind, actor:a.actor, "
    "at:a.at, subject_id:a.subject_id, detail:a.detail}))"
)

