"""Erasures (docs/rules.md, rule 22): the ONE guarded query that applies an erasure.

The plan (memory/erasure.py) is worked out in Python from what store/erasure_reads.py
reads: which texts lose which spans, where every fragment and quote moves, which claims
are erased, what rested on them. The apply query first proves that nothing it was planned
from moved (each version's and reviewer fragment's revision and claim count, each erased
claim's revision and users, each conflict it closes, the region of the relabel, and for an
erased string, the set of texts and claims that hold it), then writes all of it: the
texts, offsets and claims (every fragment and quote no span reaches into moved here by
the deltas of the spans before it, so the plan reads only what the spans cut), the closed
conflicts, flags and holds, every other record's copy of an erased string replaced by the
marker (store/erasure_words.py), and the Erasure record with its audit event. FalkorDB
runs one query atomically, so a crash leaves the erasure whole or absent
(docs/falkordb.md, "One query is one transaction").
"""

from __future__ import annotations

from typing import TypedDict

from afterhack.model.region import Stamps
from afterhack.model.vocab import ErasureKind
from afterhack.model.writes import AuditEvent, Repair
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph
from afterhack.store.erasure_records import Stamp
from afterhack.store.erasure_words import SCRUB
from afterhack.store.guard import FLAG_AND_HOLD, GUARD, guard_params
from afterhack.store.history import change


class NewErasure(TypedDict):
    id: str
    kind: ErasureKind
    source_id: str | None
    version_id: str | None
    message_index: int | None
    claim_id: str | None
    request_id: str | None
    reason: str | None
    key: str  # the apply's identity: a digest of ids and revisions, never of words
    counts: str  # JSON of ErasureCounts
    claim_ids: list[str]
    flagged: list[str]
    held: list[str]
    conflicts: list[str]


class VersionStamp(TypedDict):
    id: str
    revision: int
    n_claims: int


class ClaimStamp(TypedDict):
    id: str
    revision: int
    n_users: int


class NewText(TypedDict):
    """A version's text after: its marker-bearing text, length and hash, and whether its
    original file goes with the words."""

    id: str
    text: str
    length: int
    content_hash: str
    drop_file: bool


class Shift(TypedDict):
    """A version's erased spans in its old text, each ``[start, end, delta]`` (what the
    marker took or gave back), in order: every fragment and quote of the version that no
    span reaches into moves by the deltas of the spans that end before it."""

    version_id: str
    after: int  # the first span's end: nothing before it moves
    spans: list[list[int]]


class MovedFragment(TypedDict):
    id: str
    start: int
    end: int
    text: str | None  # None: its text is the same


class MovedQuote(TypedDict):
    id: str
    quote_start: int
    quote_end: int
    quote: str | None  # None: its quote is the same string (an erased claim's may not be)


class ErasedClaimWrite(TypedDict):
    id: str
    statement: str  # "Erased on ..., by ...": what stands where its words stood
    quote: str  # its quote's range in the redacted text (the marker in it)
    quote_start: int
    quote_end: int


class PremiseRewrite(TypedDict):
    """A decision of the region whose premises were named with erased words: every
    USED_CLAIM edge again ([claim id, premise]), and the names elsewhere on it."""

    decision_id: str
    uses: list[list[str]]
    premise_order: str | None
    support_history: list[str] | None
    review_reason: str | None


class ClosedConflict(TypedDict):
    """A conflict an erasure closes. Its reason read the erased side's value ("June 12 vs
    June 19"), so it is said again without either value, in the conflict and in the event
    that recorded its raising."""

    id: str
    reason: str
    raised_detail: str  # JSON, as store/conflicts.audit_detail writes it


class ErasureWrite(Repair):
    now: int
    actor: str
    marker: str
    erasure: NewErasure
    # The guard's stamps (besides the region's, in GUARD).
    g_versions: list[VersionStamp]
    g_reviewer: list[VersionStamp]
    g_claims: list[ClaimStamp]
    g_conflicts: list[Stamp]
    # An erased string: what held it when the plan was made (null for other targets).
    text: str | None
    text_versions: list[str]
    text_reviewer: list[str]
    text_claims: list[str]
    # What is written.
    versions: list[NewText]
    shifts: list[Shift]
    fragments: list[MovedFragment]
    moved: list[MovedQuote]
    erased: list[ErasedClaimWrite]
    corrections: list[str]  # corrections whose reviewer text lost words: their key goes
    close: list[ClosedConflict]
    # Disputes that other claims keep open: said again without the erased value, as a
    # closed one is, and made stale for a resolution previewed before.
    reword: list[ClosedConflict]
    close_note: str
    close_detail: str  # the conflict.settled event's detail, JSON
    premises: list[PremiseRewrite]
    nd_records: list[str]
    nd_all: list[str]
    audits: list[AuditEvent]


_ERASURE_GUARD = """
CALL {
  UNWIND $g_versions AS pv
  MATCH (gv:Node {id: pv.id}) WHERE gv:SourceVersion AND coalesce(gv.revision, 1) = pv.revision
  WITH gv, pv, size([(gv)-[:HAS_FRAGMENT]->(:SourceFragment)<-[gs:SUPPORTED_BY]-(:Claim) | gs])
    AS n_claims
  WHERE n_claims = pv.n_claims
  RETURN count(gv) AS ok_versions
}
CALL {
  UNWIND $g_reviewer AS pr
  MATCH (gr:Node {id: pr.id}) WHERE gr:SourceFragment AND coalesce(gr.revision, 1) = pr.revision
  WITH gr, pr, size([(gr)<-[gs:SUPPORTED_BY]-(:Claim) | gs]) AS n_claims
  WHERE n_claims = pr.n_claims
  RETURN count(gr) AS ok_reviewer
}
CALL {
  UNWIND $g_claims AS pc
  MATCH (gc:Node {id: pc.id}) WHERE gc:Claim AND gc.revision = pc.revision
    AND gc.status <> 'erased'
  WITH gc, pc, size([(gc)<-[gu:USED_CLAIM]-(:Decision) | gu]) AS n_users
  WHERE n_users = pc.n_users
  RETURN count(gc) AS ok_erased
}
CALL {
  UNWIND $g_conflicts AS pk
  MATCH (gk:Node {id: pk.id}) WHERE gk:Conflict AND gk.revision = pk.revision
    AND gk.status = 'open'
  RETURN count(gk) AS ok_close
}
CALL {
  UNWIND $g_claims AS pc
  MATCH (gc:Node {id: pc.id}) WHERE gc:Claim WITH gc
  MATCH (gc)<-[:BETWEEN]-(gk:Node) WHERE gk:Conflict AND gk.status = 'open'
  RETURN count(DISTINCT gk) AS n_open
}
CALL {
  OPTIONAL MATCH (ge:Node {key: $erasure.key}) WHERE ge:Erasure
  RETURN count(ge) AS n_same
}
WITH ok_versions, ok_reviewer, ok_erased, ok_close, n_open, n_same
WHERE ok_versions = size($g_versions) AND ok_reviewer = size($g_reviewer)
  AND ok_erased = size($g_claims) AND ok_close = size($g_conflicts)
  AND n_open = size($g_conflicts) AND n_same = 0
"""

# An erased string: the texts and claims holding it are still exactly those planned.
_TEXT_GUARD = """
CALL {
  MATCH (tv:SourceVersion) WHERE tv.text CONTAINS $text
  RETURN collect(tv.id) AS t_versions
}
CALL {
  MATCH (:Correction)-[:HAS_FRAGMENT]->(tf:SourceFragment) WHERE tf.text CONTAINS $text
  RETURN collect(tf.id) AS t_reviewer
}
CALL {
  MATCH (tc:Claim) WHERE tc.status <> 'erased' AND (tc.statement CONTAINS $text
    OR tc.evidence_quote CONTAINS $text OR tc.statement_key CONTAINS $text)
  RETURN collect(tc.id) AS t_claims
}
WITH t_versions, t_reviewer, t_claims
WHERE size(t_versions) = size($text_versions) AND all(x IN t_versions WHERE x IN $text_versions)
  AND size(t_reviewer) = size($text_reviewer)
  AND all(x IN t_reviewer WHERE x IN $text_reviewer)
  AND size(t_claims) = size($text_claims) AND all(x IN t_claims WHERE x IN $text_claims)
"""

# A request applied: it is still waiting.
_REQUEST_GUARD = """
CALL {
  MATCH (gq:Node {id: $erasure.request_id}) WHERE gq:Erasure AND gq.status = 'requested'
  RETURN count(gq) AS ok_request
}
WITH ok_request WHERE ok_request = 1
"""

_WRITE_TEXTS = """
WITH *
CALL {
  UNWIND $versions AS nv
  MATCH (v:Node {id: nv.id}) WHERE v:SourceVersion
  SET v.text = nv.text, v.length = nv.length, v.content_hash = nv.content_hash,
      v.revision = coalesce(v.revision, 1) + 1,
      v.file_data = CASE WHEN nv.drop_file THEN null ELSE v.file_data END,
      v.file_hash = CASE WHEN nv.drop_file THEN null ELSE v.file_hash END
  RETURN count(v) AS n_texts
}
CALL {
  UNWIND $shifts AS sh
  MATCH (sv:Node {id: sh.version_id}) WHERE sv:SourceVersion
  MATCH (sv)-[:HAS_FRAGMENT]->(sf:SourceFragment)<-[:SUPPORTED_BY]-(sq:Claim)
  WHERE sf.start >= sh.after
  WITH sq, none(s IN sh.spans WHERE s[0] < sf.end AND sf.start < s[1]) AS apart,
       reduce(d = 0, s IN sh.spans | d + CASE WHEN s[1] <= sf.start THEN s[2] ELSE 0 END)
       AS d
  WHERE apart AND d <> 0
  SET sq.quote_start = sq.quote_start + d, sq.quote_end = sq.quote_end + d
  RETURN count(sq) AS n_quotes_shifted
}
CALL {
  UNWIND $shifts AS sh
  MATCH (sv:Node {id: sh.version_id}) WHERE sv:SourceVersion
  MATCH (sv)-[:HAS_FRAGMENT]->(sf:SourceFragment)
  WHERE sf.start >= sh.after
  WITH sf, none(s IN sh.spans WHERE s[0] < sf.end AND sf.start < s[1]) AS apart,
       reduce(d = 0, s IN sh.spans | d + CASE WHEN s[1] <= sf.start THEN s[2] ELSE 0 END)
       AS d
  WHERE apart AND d <> 0
  SET sf.start = sf.start + d, sf.end = sf.end + d
  RETURN count(sf) AS n_shifted
}
CALL {
  UNWIND $fragments AS nf
  MATCH (f:Node {id: nf.id}) WHERE f:SourceFragment
  SET f.start = nf.start, f.end = nf.end, f.text = coalesce(nf.text, f.text),
      f.revision = CASE WHEN nf.text IS NULL THEN f.revision
                   ELSE coalesce(f.revision, 1) + 1 END
  RETURN count(f) AS n_fragments
}
CALL {
  UNWIND $moved AS nq
  MATCH (q:Node {id: nq.id}) WHERE q:Claim
  SET q.quote_start = nq.quote_start, q.quote_end = nq.quote_end,
      q.evidence_quote = coalesce(nq.quote, q.evidence_quote)
  RETURN count(q) AS n_moved
}
CALL {
  UNWIND $erased AS ne
  MATCH (c:Node {id: ne.id}) WHERE c:Claim
  SET """ + change("c", "'erased'") + """, c.revision = c.revision + 1,
      c.statement = ne.statement, c.evidence_quote = ne.quote,
      c.quote_start = ne.quote_start, c.quote_end = ne.quote_end,
      c.statement_key = 'erased:' + c.id, c.terms = [], c.embedding = null,
      c.vector_pending = false, c.withheld_from = null,
      c.erasure_id = $erasure.id, c.erasure_at = $now, c.erasure_by = $actor
  RETURN count(c) AS n_erased
}
CALL {
  UNWIND $corrections AS kid
  MATCH (k:Node {id: kid}) WHERE k:Correction
  SET k.key = 'erased:' + k.id
  RETURN count(k) AS n_corrections
}
CALL {
  UNWIND $close AS xc
  MATCH (x:Node {id: xc.id}) WHERE x:Conflict
  SET """ + change("x", "'resolved'") + """, x.revision = x.revision + 1,
      x.resolved_at = $now, x.resolved_by = $actor, x.settled_kind = 'erasure',
      x.settled_id = $erasure.id, x.settled_note = $close_note, x.key = 'erased:' + x.id,
      x.reason = xc.reason
  CREATE (:AuditEvent:Node {id: randomUUID(), kind: 'conflict.settled', actor: $actor,
      at: $now, subject_id: x.id, detail: $close_detail})
  WITH x, xc
  MATCH (xa:AuditEvent) WHERE xa.subject_id = x.id AND xa.kind = 'conflict.raised'
  SET xa.detail = xc.raised_detail
  RETURN count(x) AS n_closed
}
CALL {
  UNWIND $reword AS xr
  MATCH (x:Node {id: xr.id}) WHERE x:Conflict
  SET x.revision = x.revision + 1, x.reason = xr.reason
  WITH x, xr
  MATCH (xa:AuditEvent) WHERE xa.subject_id = x.id AND xa.kind = 'conflict.raised'
  SET xa.detail = xr.raised_detail
  RETURN count(x) AS n_reworded
}
CALL {
  UNWIND $premises AS pr
  MATCH (pd:Node {id: pr.decision_id}) WHERE pd:Decision
  SET pd.premise_order = pr.premise_order, pd.support_history = pr.support_history,
      pd.review_reason = pr.review_reason, pd.revision = pd.revision + 1
  WITH pd
  MATCH (pd)-[pu:USED_CLAIM]->()
  DELETE pu
  RETURN count(*) AS n_unlinked
}
CALL {
  UNWIND $premises AS pr
  MATCH (pd:Node {id: pr.decision_id}) WHERE pd:Decision
  UNWIND pr.uses AS use
  MATCH (pc:Node {id: use[0]}) WHERE pc:Claim
  CREATE (pd)-[:USED_CLAIM {premise: use[1]}]->(pc)
  RETURN count(*) AS n_relinked
}
"""

_ERASURE_PROPS = """e.kind = $erasure.kind, e.source_id = $erasure.source_id,
    e.version_id = $erasure.version_id, e.message_index = $erasure.message_index,
    e.claim_id = $erasure.claim_id, e.request_id = $erasure.request_id,
    e.key = $erasure.key, e.counts = $erasure.counts,
    e.claim_ids = $erasure.claim_ids, e.flagged = $erasure.flagged, e.held = $erasure.held,
    e.conflicts = $erasure.conflicts, e.status = 'applied', e.applied_at = $now,
    e.applied_by = $actor, e.disk = 'pending', e.disk_clean_at = null,
    e.revision = coalesce(e.revision, 0) + 1"""

_CREATE_ERASURE = """
WITH *
CREATE (e:Erasure:Node {id: $erasure.id, created_at: $now, reason: $erasure.reason})
SET """ + _ERASURE_PROPS + """
"""

_APPLY_REQUEST = """
WITH *
MATCH (e:Node {id: $erasure.request_id}) WHERE e:Erasure
SET """ + _ERASURE_PROPS + """,
    e.reason = coalesce($erasure.reason, e.reason)
"""


async def apply(g: Graph, stamps: Stamps, write: ErasureWrite) -> bool:
    """Apply an erasure if nothing it was planned from moved; False if something did (or
    the same apply was written meanwhile: a repeat)."""
    q = GUARD + _ERASURE_GUARD
    if write["text"] is not None:
        q += _TEXT_GUARD
    if write["erasure"]["request_id"] is not None:
        q += _REQUEST_GUARD
    q += (_WRITE_TEXTS + FLAG_AND_HOLD + SCRUB
          + (_APPLY_REQUEST if write["erasure"]["request_id"] is not None else _CREATE_ERASURE)
          + "WITH e " + CREATE_AUDITS + " RETURN e.id AS id")
    rows = await g.write(q, {**guard_params(stamps), **write})
    return bool(rows)


async def forget_slow_queries(g: Graph) -> None:
    """Empty the graph's slow-query log: FalkorDB keeps its slowest recent queries in
    memory with their parameters (``GRAPH.SLOWLOG``), an ingest's text among them."""
    await g.store.command(g.name, "GRAPH.SLOWLOG", g.name, "RESET")


