"""Corrections: the one guarded query that applies a correction and repairs its dependents."""

from __future__ import annotations

import json
from typing import TypedDict

from afterhack.errors import CorrectionNotFound
from afterhack.model.corrections import Correction, ReviewerFragment
from afterhack.model.region import Stamps
from afterhack.model.vocab import ClaimStatus, CorrectionKind
from afterhack.model.writes import AuditEvent, RaiseRows, Repair, Settle
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph
from afterhack.store.conflicts import LINK, RAISE, SETTLE
from afterhack.store.cypher import CURRENT
from afterhack.store.guard import FLAG_AND_HOLD, GUARD, TWINS_GUARD, guard_params
from afterhack.store.history import born, change
from afterhack.store.rows import of


class NewCorrection(TypedDict):
    id: str
    statement: str
    reason: str | None
    reviewer: str
    kind: CorrectionKind
    replacement_id: str | None
    outcome: str  # JSON of a CorrectionOutcome


class NewFragment(TypedDict):
    id: str
    text: str
    origin_name: str


class NewReplacement(TypedDict):
    id: str | None  # None for a retraction, which writes no replacement
    statement: str
    key: str  # its statement key (evidence.statement_key)
    terms: list[str]  # its search terms (search.claim_terms)


class CorrectionWrite(Repair, RaiseRows):
    """Everything one apply writes after the guard: the claim as previewed (its revision
    and how many decisions use it), the correction, its fragment and replacement."""

    claim_id: str
    claim_revision: int
    n_users: int
    kind: CorrectionKind
    key: str  # the correction's identity (repair.correction_key)
    now: int
    old_status: ClaimStatus  # superseded by a replacement, or rejected by a retraction
    correction: NewCorrection
    fragment: NewFragment
    replacement: NewReplacement
    audits: list[AuditEvent]
    audit_actor: str
    # Every other claim corrected with it: its twins, and the claims stating the same fact
    # in other words the reviewer did not leave out, with their twins ([id, revision, users]).
    twins: list[list[str | int]]
    # What TWINS_GUARD re-checks: the statements reached and all their other current claims,
    # those left out included.
    guard_keys: list[str]
    guard_rows: list[list[str | int]]
    # Conflicts the replacement raises or joins (checks.check_new_claims, and with each
    # claim left out: RaiseRows), and the conflicts the correction settles.
    settles: list[Settle]

# The corrected claim must still be exactly as previewed: same revision, still current, and
# used by the same number of decisions (a new user would have joined the impact set).
_SUPERSEDE = """
MATCH (old:Node {id: $claim_id}) WHERE old:Claim
WITH old, size([(old)<-[u:USED_CLAIM]-(:Decision) | u]) AS n_users
WHERE old.revision = $claim_revision AND old.status IN """ + CURRENT + """
  AND n_users = $n_users
SET """ + change("old", "$old_status") + """, old.revision = old.revision + 1
CREATE (k:Correction:Node {id: $correction.id, claim_id: $claim_id, key: $key,
    statement: $correction.statement, reason: $correction.reason,
    reviewer: $correction.reviewer, kind: $correction.kind,
    replacement_id: $correction.replacement_id, outcome: $correction.outcome,
    created_at: $now})-[:CORRECTS]->(old)
CREATE (k)-[:HAS_FRAGMENT]->(f:SourceFragment:Node {id: $fragment.id, text: $fragment.text,
    start: 0, end: size($fragment.text), seq: 0, origin_type: 'human_correction',
    origin_name: $fragment.origin_name, source_id: $correction.id, extraction: 'none',
    created_at: $now})
"""

# A replacement cites the reviewer's own fragment only, never the superseded source.
_REPLACEMENT = """
CREATE (rep:Claim:Node {id: $replacement.id, statement: $replacement.statement,
    statement_key: $replacement.key, evidence_quote: $replacement.statement,
    quote_start: 0, quote_end: size($replacement.statement), """ + born("'accepted'") + """,
    confidence: 0.0, confidence_kind: 'human_correction', revision: 1,
    source_id: $correction.id, version_id: null, fragment_id: $fragment.id,
    extracted_by: 'reviewer', created_at: $now, terms: $replacement.terms,
    vector_pending: true})
CREATE (rep)-[:SUPPORTED_BY {role: 'reviewer_correction'}]->(f)
CREATE (rep)-[:SUPERSEDES {reason: 'correction'}]->(old)
"""


# Every twin goes with the corrected claim, corrected by the same Correction and, for a
# replacement, superseded by the same replacement.
_TWINS = """
WITH k, old
CALL {
  WITH k
  UNWIND $twins AS tw
  MATCH (t:Node {id: tw[0]}) WHERE t:Claim
  SET """ + change("t", "$old_status") + """, t.revision = t.revision + 1
  CREATE (k)-[:CORRECTS]->(t)
  RETURN count(t) AS n_twins
}
"""
_TWINS_REPLACED = """
WITH k, old, rep
CALL {
  WITH k, rep
  UNWIND $twins AS tw
  MATCH (t:Node {id: tw[0]}) WHERE t:Claim
  SET """ + change("t", "$old_status") + """, t.revision = t.revision + 1
  CREATE (k)-[:CORRECTS]->(t)
  CREATE (rep)-[:SUPERSEDES {reason: 'correction'}]->(t)
  RETURN count(t) AS n_twins
}
"""


async def apply(g: Graph, stamps: Stamps, write: CorrectionWrite) -> bool:
    """Apply a correction if the region (and the set of twins) is still as previewed;
    False if it moved."""
    q = GUARD + TWINS_GUARD + _SUPERSEDE
    if write["kind"] == "replace":
        # The replacement joins (or raises) its conflicts before the corrected claims'
        # conflicts are settled: a conflict it gives a value to is still a dispute.
        q += (_REPLACEMENT + _TWINS_REPLACED + "WITH k " + RAISE + "WITH k " + LINK
              + "WITH k " + SETTLE)
    else:
        q += _TWINS + "WITH k " + SETTLE
    q += "WITH k " + FLAG_AND_HOLD + "WITH k " + CREATE_AUDITS + " RETURN k.id AS id"
    rows = await g.write(q, {**guard_params(stamps), **write})
    return bool(rows)


async def repair_only(g: Graph, stamps: Stamps, repair: Repair,
                      audits: list[AuditEvent], now: int) -> bool:
    """Flag and hold what a re-check found, if the region is still as ``stamps`` says."""
    rows = await g.write(
        GUARD + FLAG_AND_HOLD + "WITH * " + CREATE_AUDITS + " RETURN 1 AS ok",
        {**guard_params(stamps), **repair, "audits": audits, "now": now})
    return bool(rows)


async def find_by_key(g: Graph, key: str) -> str | None:
    """The id of the correction with this key (repair.correction_key), if it was applied."""
    rows = await g.read("MATCH (k:Node {key:$key}) WHERE k:Correction RETURN k.id AS id",
                        {"key": key})
    row = rows.first()
    return None if row is None else str(row["id"])


_CORRECTION = of(Correction)
_FRAGMENT = of(ReviewerFragment)


async def get_correction(g: Graph, correction_id: str) -> Correction:
    rows = await g.read(
        "MATCH (k:Node {id:$id}) WHERE k:Correction "
        "RETURN k {.id, .claim_id, .statement, .reason, .reviewer, .kind, .replacement_id, "
        ".outcome, .created_at} AS k, [(k)-[:CORRECTS]->(c:Claim) | c.id] AS corrected, "
        "[(k)-[:HAS_FRAGMENT]->(f:SourceFragment) | f {.id, .text, .origin_type, "
        ".origin_name, .start, .end}] AS fragments",
        {"id": correction_id},
    )
    row = rows.first()
    if row is None:
        raise CorrectionNotFound(correction_id)
    k = dict(row["k"])
    k["outcome"] = json.loads(k["outcome"]) if k.get("outcome") else {"flagged": [], "held": []}
    k["fragment"] = _FRAGMENT.one(row["fragments"][0]) if row["fragments"] else None
    # The claims that stated the same thing, corrected together with the one named.
    k["also_corrected"] = sorted(c for c in row["corrected"] if c != k["claim_id"])
    return _CORRECTION.one(k)
