"""The workspace's timeline: what a time control over the graph marks (the views as of a
time are the reads of store/graphview.py at a moment, store/moment.py)."""

from __future__ import annotations

from afterhack.model.graph import TimelineEvent
from afterhack.store.client import Graph
from afterhack.store.rows import of

_EVENT = of(TimelineEvent)

_EVENTS = (
    "MATCH (s:Source)-[:HAS_VERSION]->(v:SourceVersion) "
    "RETURN v.created_at AS at, CASE WHEN v.version = 1 THEN 'source_added' "
    "  ELSE 'source_versioned' END AS kind, s.id AS subject_id, s.title AS label",
    # A run happened when it was written, with its decision (an open one: when it began).
    "MATCH (r:AgentRun) RETURN coalesce(r.finished_at, r.created_at) AS at, 'run' AS kind, "
    "  r.id AS subject_id, r.task AS label",
    "MATCH (k:Correction) WHERE k.kind <> 'supersede' "
    "RETURN k.created_at AS at, 'correction' AS kind, k.claim_id AS subject_id, "
    "  k.statement AS label",
    "MATCH (x:Conflict) RETURN x.created_at AS at, 'conflict_raised' AS kind, "
    "  x.id AS subject_id, x.reason AS label",
    "MATCH (x:Conflict) WHERE x.resolved_at IS NOT NULL "
    "RETURN x.resolved_at AS at, CASE WHEN x.status = 'dismissed' THEN "
    "  'conflict_dismissed' ELSE 'conflict_resolved' END AS kind, x.id AS subject_id, "
    "  x.reason AS label",
)


async def timeline(g: Graph, limit: int) -> list[TimelineEvent]:
    """What happened in the workspace, the latest ``limit`` events oldest first: sources
    and their versions added, agent runs, corrections, conflicts raised and resolved or
    dismissed."""
    rows = await g.read(" UNION ALL ".join(
        f"CALL {{ {q} }} RETURN at, kind, subject_id, label ORDER BY at DESC LIMIT $limit"
        for q in _EVENTS), {"limit": limit})
    events = sorted((e for e in _EVENT.all(rows) if e["at"] is not None),
                    key=lambda e: (e["at"], e["kind"], e["subject_id"] or ""))
    return events[-limit:]
