"""The graph views, the conflicts and the workspace's timeline as of an earlier time
(docs/rules.md, rule 10; store/asof.py says how a read as of a time sees nodes and edges).

The internal view as of a time shows the nodes and edges that existed then with the status
each had then (and its history up to then); its other properties are shown as stored now.
"""

from __future__ import annotations

from typing import Any, cast

from afterhack.errors import ConflictNotFound
from afterhack.model.conflicts import ConflictRecord
from afterhack.model.graph import (
    ActionNodeRow,
    ClaimNodeRow,
    ConflictEdgeRow,
    CorrectionNodeRow,
    DecisionNodeRow,
    InternalEdgeRow,
    InternalNodeRow,
    InternalRows,
    ProductRows,
    SourceNodeRow,
    TimelineEvent,
)
from afterhack.model.vocab import ConflictStatus
from afterhack.store.client import Graph
from afterhack.store.cypher import RETIRED
from afterhack.store.history import (
    HISTORY_LABELS,
    held_from_at,
    history_expr,
    index_at,
    since_expr,
    status_at,
)

_OPEN = "['open']"


async def product_rows_at(g: Graph, limit: int, as_of: int) -> ProductRows:
    """graphview.product_rows as of a time. A claim replaced another only once that one was
    retired; a decision rests on the claims it cites now (a re-confirmed decision's earlier
    premises are on the decision's own read)."""
    p = {"limit": limit, "as_of": as_of}
    return {
        "sources": cast(list[SourceNodeRow], list(await g.read(
            "MATCH (s:Source) WHERE s.created_at <= $as_of "
            "RETURN s.id AS id, s.title AS title, s.origin_type AS origin_type, "
            "size([(s)-[:HAS_VERSION]->(v:SourceVersion) WHERE v.created_at <= $as_of | v]) "
            "AS latest_version ORDER BY s.created_at, s.id LIMIT $limit", p))),
        "claims": cast(list[ClaimNodeRow], list(await g.read(
            "MATCH (c:Claim) WHERE c.created_at <= $as_of "
            f"RETURN c.id AS id, c.statement AS statement, {status_at('c')} AS status, "
            "c.confidence_kind AS confidence_kind, c.source_id AS source_id, "
            "c.revision AS revision, "
            f"[(c)-[:SUPERSEDES]->(o:Claim) WHERE {status_at('o')} IN {RETIRED} | o.id] "
            "AS replaces ORDER BY c.created_at, c.id LIMIT $limit", p))),
        "corrections": cast(list[CorrectionNodeRow], list(await g.read(
            "MATCH (k:Correction) WHERE k.created_at <= $as_of RETURN k.id AS id, "
            "k.statement AS statement, k.kind AS kind, k.reviewer AS reviewer, "
            "k.claim_id AS claim_id, [(k)-[:CORRECTS]->(c:Claim) | c.id] AS claim_ids, "
            "k.replacement_id AS replacement_id "
            "ORDER BY k.created_at, k.id LIMIT $limit", p))),
        "conflicts": cast(list[ConflictEdgeRow], list(await g.read(
            "MATCH (k:Conflict) WHERE k.created_at <= $as_of "
            f"WITH k, {status_at('k')} AS status WHERE status = 'open' "
            "RETURN k.id AS id, k.kind AS kind, k.reason AS reason, status, "
            "[(k)-[:BETWEEN]->(c:Claim) | c.id] AS claim_ids "
            "ORDER BY k.created_at, k.id LIMIT $limit", p))),
        "decisions": cast(list[DecisionNodeRow], list(await g.read(
            "MATCH (d:Decision) WHERE d.created_at <= $as_of "
            f"RETURN d.id AS id, d.title AS title, {status_at('d')} AS status, "
            "d.revision AS revision, d.created_at AS created_at, d.run_id AS run_id, "
            "[(d)-[:USED_CLAIM]->(c:Claim) | c.id] AS claim_ids, "
            "[(d)-[:DEPENDS_ON]->(x:Decision) | x.id] AS depends_on "
            "ORDER BY d.created_at, d.id LIMIT $limit", p))),
        "actions": cast(list[ActionNodeRow], list(await g.read(
            "MATCH (a:Action) WHERE a.created_at <= $as_of "
            f"RETURN a.id AS id, a.description AS description, {status_at('a')} AS status, "
            f"a.revision AS revision, {held_from_at('a')} AS held_from, "
            "[(a)-[:REQUIRES]->(d:Decision) | d.id] AS decision_ids "
            "ORDER BY a.created_at, a.id LIMIT $limit", p))),
    }


_HAS_HISTORY = " OR ".join(f"n:{label}" for label in HISTORY_LABELS)


async def internal_rows_at(g: Graph, limit: int, as_of: int) -> InternalRows:
    p = {"limit": limit, "as_of": as_of}
    nodes = await g.read(
        "MATCH (n) WHERE coalesce(n.created_at, n.at) <= $as_of "
        f"WITH n, CASE WHEN {_HAS_HISTORY} THEN {index_at('n')} END AS i "
        "RETURN n.id AS id, labels(n)[0] AS label, properties(n) AS props, "
        f"CASE WHEN i IS NULL THEN NULL ELSE {history_expr('n')}[..i + 1] END AS history, "
        f"CASE WHEN i IS NULL THEN NULL ELSE {since_expr('n')}[..i + 1] END AS since "
        "ORDER BY n.created_at, n.id LIMIT $limit", p)
    out: list[InternalNodeRow] = []
    for r in nodes:
        props = dict(r["props"])
        if r["history"] is not None:
            props.update(status=r["history"][-1], status_history=r["history"],
                         status_since=r["since"])
        out.append({"id": r["id"], "label": r["label"], "props": props})
    edges = await g.read(
        "MATCH (a)-[e]->(b) WHERE coalesce(a.created_at, a.at) <= $as_of "
        "AND coalesce(b.created_at, b.at) <= $as_of "
        f"AND (type(e) <> 'SUPERSEDES' OR {status_at('b')} IN {RETIRED}) "
        "RETURN a.id AS source, b.id AS target, type(e) AS type, "
        "properties(e) AS props ORDER BY a.id, b.id LIMIT $limit", {**p, "limit": limit * 4})
    return {"nodes": out, "edges": cast(list[InternalEdgeRow], list(edges))}


_CLAIM_AT = f"""{{id: c.id, statement: c.statement, statement_key: c.statement_key,
  status: {status_at('c')}, revision: c.revision, evidence_quote: c.evidence_quote,
  source_id: s.id, source_title: s.title, version: v.version, created_at: c.created_at,
  source_added_at: v.created_at}}"""

_WITH_CLAIMS_AT = f"""
MATCH (k)-[:BETWEEN]->(c:Claim)
OPTIONAL MATCH (c)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-(v:SourceVersion)
  <-[:HAS_VERSION]-(s:Source)
WITH k, st, c, v, s ORDER BY c.created_at, c.id
RETURN k {{.id, .key, .kind, .reason, .detected_by, .revision, .created_at, .resolved_at,
  .resolved_by, .resolution, .kept_claim_id, .correction_id}} AS k, st,
  collect({_CLAIM_AT}) AS claims"""


def _record_at(row: dict[str, Any]) -> ConflictRecord:
    record = dict(row["k"])
    record["status"] = row["st"]
    if row["st"] == "open":
        # Resolved since: then it was not yet.
        record.update(resolved_at=None, resolved_by=None, resolution=None, kept_claim_id=None,
                      correction_id=None)
    record["claims"] = [dict(c) for c in row["claims"]]
    return cast(ConflictRecord, record)


async def list_conflicts_at(g: Graph, *, status: ConflictStatus | None, limit: int,
                            offset: int, as_of: int) -> list[ConflictRecord]:
    """The conflicts raised by ``as_of``, with the status each had then; newest first."""
    rows = await g.read(
        "MATCH (k:Conflict) WHERE k.created_at <= $as_of "
        f"WITH k, {status_at('k')} AS st WHERE $status IS NULL OR st = $status "
        "WITH k, st ORDER BY k.created_at DESC, k.id SKIP $offset LIMIT $limit"
        + _WITH_CLAIMS_AT + " ORDER BY k.created_at DESC, k.id",
        {"status": status, "limit": limit, "offset": offset, "as_of": as_of})
    return [_record_at(r) for r in rows]


async def get_conflict_at(g: Graph, conflict_id: str, as_of: int) -> ConflictRecord:
    rows = await g.read(
        "MATCH (k:Node {id: $id}) WHERE k:Conflict AND k.created_at <= $as_of "
        f"WITH k, {status_at('k')} AS st" + _WITH_CLAIMS_AT,
        {"id": conflict_id, "as_of": as_of})
    row = rows.first()
    if row is None:
        raise ConflictNotFound(conflict_id, "No conflict with that id at that time.")
    return _record_at(row)


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
    events = sorted((cast(TimelineEvent, dict(r)) for r in rows if r["at"] is not None),
                    key=lambda e: (e["at"], e["kind"], e["subject_id"] or ""))
    return events[-limit:]
