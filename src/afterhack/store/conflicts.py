"""Conflicts between claims: raised with the claims that cause them, listed, resolved.

A Conflict joins two claims (``BETWEEN``) that say different things about the same subject.
It is a conflict between two statements: its ``key`` is made from both statement keys, so
the same pair is raised once however many copies of either statement are ingested, and a
claim is in every conflict some claim with its statement key is in. Raising happens inside
the query that writes the new claims (``RAISE``); resolving is one guarded query, like a
correction's apply.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict, cast

from afterhack.errors import ConflictNotFound
from afterhack.model.claims import ClaimConflictView
from afterhack.model.conflicts import ConflictRecord
from afterhack.model.vocab import ConflictKind, ConflictStatus
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph
from afterhack.store.cypher import CURRENT
from afterhack.store.guard import FLAG_AND_HOLD, GUARD
from afterhack.store.history import born, change


class ConflictRow(TypedDict):
    """One conflict to raise, as the ingest write takes it ($conflicts)."""

    id: str
    key: str
    kind: ConflictKind
    reason: str
    detected_by: str
    new_id: str
    old_id: str
    audit_id: str
    audit_detail: str


# Appended to a query that has just created claims (ingest.py): each row of $conflicts
# becomes a Conflict between a new claim and a current one unless that pair of statements
# was raised before (whatever became of it: a dismissed pair is never raised again) or one
# of the two is no longer current (a new claim can be born superseded, a re-ingested
# mistake; the old one may have been corrected since it was found). Returns $raised.
RAISE = """
CALL {
  UNWIND $conflicts AS x
  MATCH (na:Claim {id: x.new_id}), (ob:Claim {id: x.old_id})
  WHERE na.status IN ['proposed', 'accepted'] AND ob.status IN ['proposed', 'accepted']
  OPTIONAL MATCH (seen:Conflict {key: x.key})
  WITH x, na, ob, seen WHERE seen IS NULL
  CREATE (k:Conflict {id: x.id, key: x.key, """ + born("'open'") + """, kind: x.kind,
      reason: x.reason, detected_by: x.detected_by, revision: 1, created_at: $now})
  CREATE (k)-[:BETWEEN]->(ob), (k)-[:BETWEEN]->(na)
  CREATE (:AuditEvent {id: x.audit_id, kind: 'conflict.raised', actor: $audit_actor,
      at: $now, subject_id: x.id, detail: x.audit_detail})
  RETURN collect(k.id) AS raised
}
"""

# The ids of the open conflicts a claim (bound as ``c``) is in, through its statement key:
# a copy of a statement is in the conflicts of the claim that raised them. (One id per
# claim of the conflict with that key: callers keep each id once.)
OPEN_CONFLICT_IDS = ("[(oc_t:Claim {statement_key: c.statement_key})<-[:BETWEEN]-"
                     "(oc_k:Conflict) WHERE oc_k.status = 'open' | oc_k.id]")

_CLAIM = """{id: c.id, statement: c.statement, statement_key: c.statement_key,
  status: c.status, revision: c.revision, evidence_quote: c.evidence_quote,
  source_id: s.id, source_title: s.title, version: v.version, created_at: c.created_at,
  source_added_at: v.created_at}"""

_RECORD = """k {.id, .key, .status, .kind, .reason, .detected_by, .revision, .created_at,
  .resolved_at, .resolved_by, .resolution, .kept_claim_id, .correction_id} AS k"""

_WITH_CLAIMS = """
MATCH (k)-[:BETWEEN]->(c:Claim)
OPTIONAL MATCH (c)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-(v:SourceVersion)
  <-[:HAS_VERSION]-(s:Source)
WITH k, c, v, s ORDER BY c.created_at, c.id
RETURN """ + _RECORD + ", collect(" + _CLAIM + ") AS claims"


def _record(row: dict[str, Any]) -> ConflictRecord:
    record = dict(row["k"])
    record["claims"] = [dict(c) for c in row["claims"]]
    return cast(ConflictRecord, record)


async def list_conflicts(g: Graph, *, status: ConflictStatus | None, limit: int,
                         offset: int) -> list[ConflictRecord]:
    """Newest first."""
    rows = await g.read(
        "MATCH (k:Conflict) WHERE $status IS NULL OR k.status = $status "
        "WITH k ORDER BY k.created_at DESC, k.id SKIP $offset LIMIT $limit" + _WITH_CLAIMS
        + " ORDER BY k.created_at DESC, k.id",
        {"status": status, "limit": limit, "offset": offset})
    return [_record(r) for r in rows]


async def get_conflicts(g: Graph, ids: list[str]) -> list[ConflictRecord]:
    if not ids:
        return []
    rows = await g.read("MATCH (k:Conflict) WHERE k.id IN $ids WITH k" + _WITH_CLAIMS
                        + " ORDER BY k.created_at, k.id", {"ids": ids})
    return [_record(r) for r in rows]


async def get_conflict(g: Graph, conflict_id: str) -> ConflictRecord:
    found = await get_conflicts(g, [conflict_id])
    if not found:
        raise ConflictNotFound(conflict_id)
    return found[0]


async def known_keys(g: Graph, keys: list[str]) -> set[str]:
    """Which of these pair keys were raised before (in any status)."""
    if not keys:
        return set()
    rows = await g.read("MATCH (k:Conflict) WHERE k.key IN $keys RETURN k.key AS key",
                        {"keys": keys})
    return {r["key"] for r in rows}


class ClaimConflict(TypedDict):
    claim_id: str
    conflict_id: str
    side_key: str


async def open_conflicts_of(g: Graph, claim_ids: list[str]) -> list[ClaimConflict]:
    """For each claim, the open conflicts it is in (through its statement key)."""
    if not claim_ids:
        return []
    rows = await g.read(
        "MATCH (c:Claim) WHERE c.id IN $ids "
        "MATCH (t:Claim {statement_key: c.statement_key})<-[:BETWEEN]-(k:Conflict) "
        "WHERE k.status = 'open' "
        "RETURN DISTINCT c.id AS claim_id, k.id AS conflict_id, c.statement_key AS side_key",
        {"ids": claim_ids})
    return [ClaimConflict(claim_id=r["claim_id"], conflict_id=r["conflict_id"],
                          side_key=r["side_key"]) for r in rows]


async def open_conflicts_of_claim(g: Graph, claim_id: str) -> list[ClaimConflictView]:
    """The open conflicts a claim's statement is in, each with the claims on the other
    side."""
    links = await open_conflicts_of(g, [claim_id])
    if not links:
        return []
    own = links[0]["side_key"]
    out: list[ClaimConflictView] = []
    for k in await get_conflicts(g, sorted({x["conflict_id"] for x in links})):
        out.append({"id": k["id"], "kind": k["kind"], "reason": k["reason"],
                    "status": k["status"],
                    "other": [{"id": c["id"], "statement": c["statement"],
                               "status": c["status"], "source_id": c["source_id"],
                               "source_title": c["source_title"]}
                              for c in k["claims"] if c["statement_key"] != own]})
    return out


# The conflict and the claim kept must be exactly as previewed, and the losing statement's
# current claims exactly those previewed ($losers: [id, revision, users], any order).
_RESOLUTION_GUARD = """
CALL {
  MATCH (x:Conflict {id: $conflict_id})
  WHERE x.status = 'open' AND x.revision = $conflict_revision
  RETURN count(x) AS ok_conflict
}
CALL {
  MATCH (kept:Claim {id: $keep_id})
  WHERE kept.revision = $keep_revision AND kept.status IN ['proposed', 'accepted']
  RETURN count(kept) AS ok_kept
}
CALL {
  MATCH (lc:Claim {statement_key: $loser_key})
  WHERE lc.status IN ['proposed', 'accepted']
  WITH lc, size([(lc)<-[lu:USED_CLAIM]-(:Decision) | lu]) AS n_lc_users
  RETURN collect([lc.id, lc.revision, n_lc_users]) AS loser_state
}
WITH ok_conflict, ok_kept, loser_state
WHERE ok_conflict = 1 AND ok_kept = 1 AND size(loser_state) = size($losers)
  AND all(x IN loser_state WHERE x IN $losers)
"""

# Keep one side: every current claim of the other statement is superseded by the kept claim
# (its own source fragment is the evidence: no reviewer fragment), a Correction of kind
# 'supersede' records who decided and why, and RESOLVES the conflict.
_KEEP = """
MATCH (x:Conflict {id: $conflict_id}), (kept:Claim {id: $keep_id})
SET """ + change("x", "'resolved'") + """, x.revision = x.revision + 1, x.resolved_at = $now,
    x.resolved_by = $correction.reviewer, x.resolution = 'keep', x.kept_claim_id = kept.id,
    x.correction_id = $correction.id, x.resolution_key = $key
CREATE (k:Correction {id: $correction.id, claim_id: $correction.claim_id, key: $key,
    statement: kept.statement, reason: $correction.reason, reviewer: $correction.reviewer,
    kind: 'supersede', replacement_id: kept.id, outcome: $correction.outcome,
    created_at: $now})-[:RESOLVES]->(x)
WITH k, kept
CALL {
  WITH k, kept
  UNWIND $losers AS lo
  MATCH (l:Claim {id: lo[0]})
  SET """ + change("l", "'superseded'") + """, l.revision = l.revision + 1
  CREATE (k)-[:CORRECTS]->(l)
  CREATE (kept)-[:SUPERSEDES {reason: 'conflict'}]->(l)
  RETURN count(l) AS n_superseded
}
"""

# Dismiss: both statements hold (another scope, say); the pair is never raised again. When
# they hold at different times, each statement's current claims take the valid time the
# reviewer gave it ($valid: ValidTimeRow).
_DISMISS = """
MATCH (x:Conflict {id: $conflict_id})
WHERE x.status = 'open' AND x.revision = $conflict_revision
SET """ + change("x", "'dismissed'") + """, x.revision = x.revision + 1, x.resolved_at = $now,
    x.resolved_by = $reviewer, x.resolution = 'dismiss', x.dismiss_reason = $reason,
    x.resolution_key = $key
WITH x
CALL {
  WITH x
  UNWIND $valid AS vt
  MATCH (vc:Claim {statement_key: vt.key}) WHERE vc.status IN """ + CURRENT + """
  SET vc.valid_from = vt.valid_from, vc.valid_until = vt.valid_until,
      vc.revision = vc.revision + 1
  RETURN count(vc) AS n_valid
}
WITH x
"""


async def keep(g: Graph, p: dict[str, Any]) -> bool:
    """Resolve by keeping one side, in one guarded query; False when anything moved."""
    rows = await g.write(
        GUARD + _RESOLUTION_GUARD + _KEEP + "WITH k " + FLAG_AND_HOLD + "WITH k "
        + CREATE_AUDITS + " RETURN k.id AS id", p)
    return bool(rows)


async def dismiss(g: Graph, p: dict[str, Any]) -> bool:
    rows = await g.write(_DISMISS + CREATE_AUDITS + " RETURN x.id AS id", p)
    return bool(rows)


async def resolution_key_of(g: Graph, conflict_id: str) -> str | None:
    rows = await g.read("MATCH (x:Conflict {id: $id}) RETURN x.resolution_key AS key",
                        {"id": conflict_id})
    value = rows.scalar()
    return None if value is None else str(value)


def audit_detail(kind: str, reason: str, new_id: str, old_id: str) -> str:
    return json.dumps({"kind": kind, "reason": reason, "claim_ids": [old_id, new_id]},
                      ensure_ascii=False, sort_keys=True)
