"""Corrections: the one guarded query that applies a correction and repairs its dependents."""

from __future__ import annotations

import json
from typing import Any

from afterhack.errors import CorrectionNotFound
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph
from afterhack.store.repair import FLAG_AND_HOLD, GUARD

# The corrected claim must still be exactly as previewed: same revision, still current, and
# used by the same number of decisions (a new user would have joined the impact set).
_SUPERSEDE = """
MATCH (old:Claim {id: $claim_id})
WITH old, size([(old)<-[u:USED_CLAIM]-(:Decision) | u]) AS n_users
WHERE old.revision = $claim_revision AND old.status IN ['proposed', 'accepted']
  AND n_users = $n_users
SET old.status = $old_status, old.revision = old.revision + 1
CREATE (k:Correction {id: $correction.id, claim_id: $claim_id, key: $key,
    statement: $correction.statement, reason: $correction.reason,
    reviewer: $correction.reviewer, kind: $correction.kind,
    replacement_id: $correction.replacement_id, outcome: $correction.outcome,
    created_at: $now})-[:CORRECTS]->(old)
CREATE (k)-[:HAS_FRAGMENT]->(f:SourceFragment {id: $fragment.id, text: $fragment.text,
    start: 0, end: size($fragment.text), seq: 0, origin_type: 'human_correction',
    origin_name: $fragment.origin_name, source_id: $correction.id, extraction: 'none',
    created_at: $now})
"""

# A replacement cites the reviewer's own fragment only, never the superseded source.
_REPLACEMENT = """
CREATE (rep:Claim {id: $replacement.id, statement: $replacement.statement,
    statement_key: $replacement.key, evidence_quote: $replacement.statement,
    quote_start: 0, quote_end: size($replacement.statement), status: 'accepted',
    confidence: 0.0, confidence_kind: 'human_correction', revision: 1,
    source_id: $correction.id, version_id: null, fragment_id: $fragment.id,
    extracted_by: 'reviewer', created_at: $now})
CREATE (rep)-[:SUPPORTED_BY {role: 'reviewer_correction'}]->(f)
CREATE (rep)-[:SUPERSEDES {reason: 'correction'}]->(old)
"""


async def apply(g: Graph, p: dict[str, Any]) -> bool:
    q = GUARD + _SUPERSEDE
    if p["kind"] == "replace":
        q += _REPLACEMENT
    q += "WITH k " + FLAG_AND_HOLD + "WITH k " + CREATE_AUDITS + " RETURN k.id AS id"
    rows = await g.write(q, p)
    return bool(rows)


async def repair_only(g: Graph, p: dict[str, Any]) -> bool:
    rows = await g.write(
        GUARD + FLAG_AND_HOLD + "WITH * " + CREATE_AUDITS + " RETURN 1 AS ok", p)
    return bool(rows)


async def find_by_key(g: Graph, key: str) -> dict[str, Any] | None:
    rows = await g.read("MATCH (k:Correction {key:$key}) RETURN k.id AS id", {"key": key})
    return rows.first()


async def get_correction(g: Graph, correction_id: str) -> dict[str, Any]:
    rows = await g.read(
        "MATCH (k:Correction {id:$id}) "
        "RETURN k {.id, .claim_id, .statement, .reason, .reviewer, .kind, .replacement_id, "
        ".outcome, .created_at} AS k, "
        "[(k)-[:HAS_FRAGMENT]->(f:SourceFragment) | f {.id, .text, .origin_type, "
        ".origin_name, .start, .end}] AS fragments",
        {"id": correction_id},
    )
    row = rows.first()
    if row is None:
        raise CorrectionNotFound(correction_id)
    k = dict(row["k"])
    k["outcome"] = json.loads(k["outcome"]) if k.get("outcome") else {"flagged": [], "held": []}
    k["fragment"] = dict(row["fragments"][0]) if row["fragments"] else None
    return k
