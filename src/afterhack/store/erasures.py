"""Erasures (docs/rules.md, rule 22): the reads an erasure is planned from, and the ONE
guarded query that applies it.

The plan (memory/erasure.py) is worked out in Python from these reads: which texts lose
which spans, where every fragment and quote moves, which claims are erased, what rested on
them. The apply query first proves that nothing it was planned from moved (each version's
and reviewer fragment's revision and claim count, each erased claim's revision and users,
each conflict it closes, the region of the relabel, and for an erased string, the set of
texts and claims that hold it), then writes all of it: the texts, offsets and claims, the
closed conflicts, flags and holds, every other record's copy of an erased string replaced
by the marker, and the Erasure record with its audit event. FalkorDB runs one query
atomically, so a crash leaves the erasure whole or absent (docs/falkordb.md, "One query is
one transaction").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypedDict

from afterhack.errors import ErasureNotFound
from afterhack.model.erasures import ErasureCounts, ErasureRecord, TargetRef
from afterhack.model.pages import After
from afterhack.model.region import Stamps
from afterhack.model.vocab import ClaimStatus, ErasureKind, ErasureStatus
from afterhack.store.audit import CREATE_AUDITS, AuditEvent
from afterhack.store.client import Graph
from afterhack.store.guard import FLAG_AND_HOLD, GUARD, Repair, guard_params
from afterhack.store.history import change
from afterhack.store.keyset import after_params
from afterhack.store.rows import of

# The properties of each label that hold words people or models wrote, and so may repeat an
# erased string. Everything else a node carries is an id, a status or kind from the
# vocabulary, a time, a number or a hash the erasure rewrites itself (tests/test_erasures.py
# checks that every string property of store/properties.py is one or the other).
RECORD_TEXT: dict[str, tuple[str, ...]] = {
    "Correction": ("statement", "reason", "reviewer"),
    "Conflict": ("reason", "settled_note", "dismiss_reason", "resolved_by"),
    "AgentRun": ("task", "error", "model_calls", "builds_on_skipped", "tool_log"),
    "Handoff": ("proposal", "dropped", "tool_calls"),
    "Decision": ("title", "summary", "premise_order", "review_reason", "support_history"),
    "Action": ("description",),
    "AuditEvent": ("detail",),
    "Erasure": ("reason",),
}
# The same for what sources hold. Their texts and quotes are rewritten by the plan, span by
# span, so offsets stay exact; these are the rest of their words.
SOURCE_TEXT: dict[str, tuple[str, ...]] = {
    "Source": ("title", "origin_name"),
    "SourceVersion": ("model_calls", "file_name"),
    "SourceFragment": ("origin_name", "speaker", "section", "error"),
    "Claim": ("said_by", "terms"),
}
# Rewritten by the plan itself: a string found in one of these that the plan did not
# expect makes the apply stale.
PLANNED_TEXT: dict[str, tuple[str, ...]] = {
    "SourceVersion": ("text",),
    "SourceFragment": ("text",),
    "Claim": ("statement", "evidence_quote", "statement_key"),
}
EDGE_TEXT: dict[str, tuple[str, ...]] = {"USED_CLAIM": ("premise",)}
# Lists of strings among them.
LISTS = frozenset({("AgentRun", "tool_log"), ("Decision", "support_history"),
                   ("Claim", "terms")})


# ----------------------------------------------------------------------------- reads


class SourceVersionRef(TypedDict):
    version_id: str
    version: int


async def source_versions(g: Graph, source_id: str) -> list[SourceVersionRef] | None:
    """A source's versions, oldest first; None when there is no such source."""
    rows = await g.read(
        "MATCH (s:Node {id: $id}) WHERE s:Source "
        "RETURN [(s)-[:HAS_VERSION]->(v:SourceVersion) | [v.id, v.version]] AS vs",
        {"id": source_id})
    row = rows.first()
    if row is None:
        return None
    return sorted((SourceVersionRef(version_id=v[0], version=v[1]) for v in row["vs"]),
                  key=lambda v: v["version"])


class FragmentHit(TypedDict):
    """A fragment a target names (a message's, a speaker's) and its version."""

    version_id: str
    fragment_id: str
    start: int
    end: int
    source_id: str
    message_index: int | None


_FRAGMENT_HIT = of(FragmentHit)


async def message_fragments(g: Graph, source_id: str, message_index: int
                            ) -> list[FragmentHit] | None:
    """The fragments of one message of a conversation; None when there is no such source."""
    rows = await g.read(
        "MATCH (s:Node {id: $id}) WHERE s:Source "
        "OPTIONAL MATCH (s)-[:HAS_VERSION]->(v:SourceVersion)-[:HAS_FRAGMENT]->"
        "(f:SourceFragment) WHERE f.message_index = $i "
        "RETURN v.id AS version_id, f.id AS fragment_id, f.start AS start, f.end AS end, "
        "s.id AS source_id, f.message_index AS message_index",
        {"id": source_id, "i": message_index})
    if not rows:
        return None
    return _FRAGMENT_HIT.all(r for r in rows if r["fragment_id"] is not None)


async def speaker_fragments(g: Graph, speaker: str) -> list[FragmentHit]:
    """Every fragment of every message one speaker said in the workspace."""
    rows = await g.read(
        "MATCH (f:SourceFragment) WHERE f.speaker = $speaker "
        "MATCH (s:Source)-[:HAS_VERSION]->(v:SourceVersion)-[:HAS_FRAGMENT]->(f) "
        "RETURN v.id AS version_id, f.id AS fragment_id, f.start AS start, f.end AS end, "
        "s.id AS source_id, f.message_index AS message_index", {"speaker": speaker})
    return _FRAGMENT_HIT.all(rows)


class ClaimPlace(TypedDict):
    """Where a claim's quote stands: in a version, or in a reviewer's own fragment."""

    id: str
    status: str
    version_id: str | None
    reviewer_fragment_id: str | None
    quote_start: int
    quote_end: int


_CLAIM_PLACE = of(ClaimPlace)


async def claim_places(g: Graph, claim_ids: list[str]) -> list[ClaimPlace]:
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
        "MATCH (c)-[:SUPPORTED_BY]->(f:SourceFragment) "
        "OPTIONAL MATCH (v:SourceVersion)-[:HAS_FRAGMENT]->(f) "
        "OPTIONAL MATCH (k:Correction)-[:HAS_FRAGMENT]->(f) "
        "RETURN c.id AS id, c.status AS status, v.id AS version_id, "
        "CASE WHEN k IS NULL THEN null ELSE f.id END AS reviewer_fragment_id, "
        "c.quote_start AS quote_start, c.quote_end AS quote_end",
        {"ids": claim_ids})
    return _CLAIM_PLACE.all(rows)


class Holding(TypedDict):
    """What holds an exact string: versions, reviewer fragments, claims (by their words)."""

    versions: list[str]
    reviewer_fragments: list[str]
    claims: list[str]


_HOLDING_VERSIONS = "MATCH (v:SourceVersion) WHERE v.text CONTAINS $text RETURN v.id AS id"
_HOLDING_REVIEWER = ("MATCH (k:Correction)-[:HAS_FRAGMENT]->(f:SourceFragment) "
                     "WHERE f.text CONTAINS $text RETURN f.id AS id")
_HOLDING_CLAIMS = ("MATCH (c:Claim) WHERE c.status <> 'erased' AND (c.statement CONTAINS $text "
                   "OR c.evidence_quote CONTAINS $text OR c.statement_key CONTAINS $text) "
                   "RETURN c.id AS id")


async def holding(g: Graph, text: str) -> Holding:
    """Every version, reviewer fragment and claim whose words hold ``text`` (a scan: no
    index finds a string inside another)."""
    p = {"text": text}
    versions = await g.read(_HOLDING_VERSIONS, p)
    reviewer = await g.read(_HOLDING_REVIEWER, p)
    claims = await g.read(_HOLDING_CLAIMS, p)
    return Holding(versions=sorted(r["id"] for r in versions),
                   reviewer_fragments=sorted(r["id"] for r in reviewer),
                   claims=sorted(r["id"] for r in claims))


class FragmentPart(TypedDict):
    id: str
    start: int
    end: int
    speaker: str | None
    message_index: int | None


class ContainerRow(TypedDict):
    """A text whose spans an erasure may replace: a source version, or a reviewer's own
    fragment (``kind``), with its fragments (a reviewer fragment is its own one) and what
    the guard re-checks of it."""

    kind: str  # "version" or "reviewer"
    id: str
    text: str
    revision: int
    n_claims: int
    source_id: str | None  # a version's source
    source_kind: str | None
    version: int | None
    has_file: bool
    correction_id: str | None  # a reviewer fragment's correction
    fragments: list[FragmentPart]


class ContainedClaim(TypedDict):
    """A claim quoting a container, with what an erasure must know of it."""

    id: str
    container_id: str
    fragment_id: str
    status: ClaimStatus
    revision: int
    statement: str
    evidence_quote: str | None
    statement_key: str | None
    quote_start: int
    quote_end: int
    source_id: str | None
    n_users: int


_CONTAINED = of(ContainedClaim)


async def containers(g: Graph, version_ids: list[str], reviewer_ids: list[str]
                     ) -> tuple[list[ContainerRow], list[ContainedClaim]]:
    """The versions and reviewer fragments named, whole, with every claim quoting them."""
    out: list[ContainerRow] = []
    claims: list[ContainedClaim] = []
    if version_ids:
        rows = await g.read(
            "MATCH (v:Node) WHERE v:SourceVersion AND v.id IN $ids "
            "MATCH (s:Source)-[:HAS_VERSION]->(v) "
            "RETURN v.id AS id, v.text AS text, coalesce(v.revision, 1) AS revision, "
            "s.id AS source_id, coalesce(s.kind, 'text') AS source_kind, "
            "v.version AS version, v.file_data IS NOT NULL AS has_file, "
            "[(v)-[:HAS_FRAGMENT]->(f:SourceFragment) | [f.id, f.start, f.end, f.speaker, "
            "  f.message_index]] AS fragments", {"ids": version_ids})
        claim_rows = await g.read(
            "MATCH (v:Node) WHERE v:SourceVersion AND v.id IN $ids "
            "MATCH (v)-[:HAS_FRAGMENT]->(f:SourceFragment)<-[:SUPPORTED_BY]-(c:Claim) "
            "RETURN c.id AS id, v.id AS container_id, f.id AS fragment_id, "
            "c.status AS status, c.revision AS revision, c.statement AS statement, "
            "c.evidence_quote AS evidence_quote, c.statement_key AS statement_key, "
            "c.quote_start AS quote_start, c.quote_end AS quote_end, "
            "c.source_id AS source_id, "
            "size([(c)<-[u:USED_CLAIM]-(:Decision) | u]) AS n_users", {"ids": version_ids})
        claims += _CONTAINED.all(claim_rows)
        counts: dict[str, int] = {}
        for c in claims:
            counts[c["container_id"]] = counts.get(c["container_id"], 0) + 1
        for r in rows:
            frags = sorted((FragmentPart(id=f[0], start=f[1], end=f[2], speaker=f[3],
                                         message_index=f[4])
                            for f in r["fragments"]), key=lambda f: (f["start"], f["end"]))
            out.append(ContainerRow(
                kind="version", id=r["id"], text=r["text"] or "", revision=r["revision"],
                n_claims=counts.get(r["id"], 0), source_id=r["source_id"],
                source_kind=r["source_kind"], version=r["version"], has_file=r["has_file"],
                correction_id=None, fragments=frags))
    if reviewer_ids:
        rows = await g.read(
            "MATCH (f:Node) WHERE f:SourceFragment AND f.id IN $ids "
            "MATCH (k:Correction)-[:HAS_FRAGMENT]->(f) "
            "RETURN f.id AS id, f.text AS text, coalesce(f.revision, 1) AS revision, "
            "k.id AS correction_id", {"ids": reviewer_ids})
        claim_rows = await g.read(
            "MATCH (f:Node) WHERE f:SourceFragment AND f.id IN $ids "
            "MATCH (f)<-[:SUPPORTED_BY]-(c:Claim) "
            "RETURN c.id AS id, f.id AS container_id, f.id AS fragment_id, "
            "c.status AS status, c.revision AS revision, c.statement AS statement, "
            "c.evidence_quote AS evidence_quote, c.statement_key AS statement_key, "
            "c.quote_start AS quote_start, c.quote_end AS quote_end, "
            "c.source_id AS source_id, "
            "size([(c)<-[u:USED_CLAIM]-(:Decision) | u]) AS n_users", {"ids": reviewer_ids})
        found = _CONTAINED.all(claim_rows)
        claims += found
        for r in rows:
            text = r["text"] or ""
            out.append(ContainerRow(
                kind="reviewer", id=r["id"], text=text, revision=r["revision"],
                n_claims=sum(c["container_id"] == r["id"] for c in found), source_id=None,
                source_kind=None, version=None, has_file=False,
                correction_id=r["correction_id"],
                fragments=[FragmentPart(id=r["id"], start=0, end=len(text), speaker=None,
                                        message_index=None)]))
    return out, claims


class OpenConflictRow(TypedDict):
    id: str
    revision: int
    kind: str
    reason: str
    claim_ids: list[str]  # its two sides, as its audit event names them


_OPEN_CONFLICT = of(OpenConflictRow)


async def open_conflicts_of(g: Graph, claim_ids: list[str]) -> list[OpenConflictRow]:
    """The open conflicts one of these claims is a side of."""
    if not claim_ids:
        return []
    rows = await g.read(
        "UNWIND $ids AS id MATCH (c:Node {id: id}) WHERE c:Claim WITH c "
        "MATCH (c)<-[:BETWEEN]-(k:Node) WHERE k:Conflict AND k.status = 'open' "
        "WITH DISTINCT k "
        "RETURN k.id AS id, k.revision AS revision, k.kind AS kind, k.reason AS reason, "
        "[(k)-[:BETWEEN]->(s:Claim) | s.id] AS claim_ids ORDER BY id", {"ids": claim_ids})
    return _OPEN_CONFLICT.all(rows)


class DecisionWords(TypedDict):
    id: str
    premise_order: str | None
    support_history: list[str] | None
    review_reason: str | None


_DECISION_WORDS = of(DecisionWords)


async def decision_words(g: Graph, ids: list[str]) -> list[DecisionWords]:
    """What names a decision's premises besides its edges: their order, its earlier
    support, its review reason."""
    if not ids:
        return []
    rows = await g.read(
        "MATCH (d:Node) WHERE d:Decision AND d.id IN $ids RETURN d.id AS id, "
        "d.premise_order AS premise_order, d.support_history AS support_history, "
        "d.review_reason AS review_reason", {"ids": ids})
    return _DECISION_WORDS.all(rows)


def _holds(var: str, prop: str, listed: bool) -> str:
    if listed:
        return f"any(t IN {var}.{prop} WHERE t CONTAINS x)"
    return f"{var}.{prop} CONTAINS x"


def _condition(var: str, label: str, props: Sequence[str], needles: str) -> str:
    held = " OR ".join(_holds(var, p, (label, p) in LISTS) for p in props)
    return f"any(x IN {needles} WHERE {held})"


def _replaced(expr: str, needles: str) -> str:
    return f"reduce(s = {expr}, x IN {needles} | replace(s, x, $marker))"


def _assignments(var: str, label: str, props: Sequence[str], needles: str) -> str:
    out = []
    for p in props:
        if (label, p) in LISTS:
            out.append(f"{var}.{p} = [t IN {var}.{p} | {_replaced('t', needles)}]")
        else:
            out.append(f"{var}.{p} = {_replaced(f'{var}.{p}', needles)}")
    return ", ".join(out)


def _scrub_plan() -> list[tuple[str, str, Sequence[str], str]]:
    """(name, label or edge type, properties, needles parameter) of each scrub step."""
    steps: list[tuple[str, str, Sequence[str], str]] = []
    for label, props in RECORD_TEXT.items():
        steps.append((f"n_{label.lower()}", label, props, "$nd_records"))
    for label, props in SOURCE_TEXT.items():
        steps.append((f"n_{label.lower()}", label, props, "$nd_all"))
    return steps


def _scrub_clauses() -> tuple[str, list[str]]:
    """Every scrub step as a CALL of the apply query, and the names of their counts."""
    parts: list[str] = []
    names: list[str] = []
    for name, label, props, needles in _scrub_plan():
        held = _condition("sn", label, props, needles)
        parts.append(
            f"WITH *\nCALL {{\n  MATCH (sn:{label}) WHERE {held}\n"
            f"  SET {_assignments('sn', label, props, needles)}\n"
            f"  RETURN count(sn) AS {name}\n}}\n")
        names.append(name)
    for etype, props in EDGE_TEXT.items():
        name = f"e_{etype.lower()}"
        parts.append(
            f"WITH *\nCALL {{\n  MATCH ()-[se:{etype}]->() "
            f"WHERE {_condition('se', etype, props, '$nd_records')}\n"
            f"  SET {_assignments('se', etype, props, '$nd_records')}\n"
            f"  RETURN count(se) AS {name}\n}}\n")
        names.append(name)
    return "".join(parts), names


_SCRUB, _SCRUB_COUNTS = _scrub_clauses()


def _count_query() -> str:
    parts = []
    for _name, label, props, needles in _scrub_plan():
        parts.append(f"MATCH (sn:{label}) WHERE {_condition('sn', label, props, needles)} "
                     "RETURN count(sn) AS n")
    for etype, props in EDGE_TEXT.items():
        parts.append(f"MATCH ()-[se:{etype}]->() "
                     f"WHERE {_condition('se', etype, props, '$nd_records')} "
                     "RETURN count(se) AS n")
    return " UNION ALL ".join(parts)


_COUNT_RECORDS = _count_query()


async def count_records(g: Graph, nd_records: list[str], nd_all: list[str]) -> int:
    """How many records (besides what the plan rewrites itself) hold an erased string."""
    if not nd_records and not nd_all:
        return 0
    rows = await g.read(_COUNT_RECORDS, {"nd_records": nd_records, "nd_all": nd_all})
    return sum(int(r["n"]) for r in rows)


# ----------------------------------------------------------------------------- the write


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


class Stamp(TypedDict):
    id: str
    revision: int


class NewText(TypedDict):
    """A version's text after: its marker-bearing text, length and hash, and whether its
    original file goes with the words."""

    id: str
    text: str
    length: int
    content_hash: str
    drop_file: bool


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
    fragments: list[MovedFragment]
    moved: list[MovedQuote]
    erased: list[ErasedClaimWrite]
    corrections: list[str]  # corrections whose reviewer text lost words: their key goes
    close: list[ClosedConflict]
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
    q += (_WRITE_TEXTS + FLAG_AND_HOLD + _SCRUB
          + (_APPLY_REQUEST if write["erasure"]["request_id"] is not None else _CREATE_ERASURE)
          + "WITH e " + CREATE_AUDITS + " RETURN e.id AS id")
    rows = await g.write(q, {**guard_params(stamps), **write})
    return bool(rows)


async def forget_slow_queries(g: Graph) -> None:
    """Empty the graph's slow-query log: FalkorDB keeps its slowest recent queries in
    memory with their parameters (``GRAPH.SLOWLOG``), an ingest's text among them."""
    await g.store.command(g.name, "GRAPH.SLOWLOG", g.name, "RESET")


# ----------------------------------------------------------------------------- requests


class NewRequest(TypedDict):
    id: str
    source_id: str
    message_index: int
    requested_by: str  # the speaker
    claim_ids: list[str]
    claims: list[Stamp]


async def raise_request(g: Graph, request: NewRequest, now: int,
                        audits: list[AuditEvent]) -> bool:
    """Withhold the claims a speaker's request names and record the request, in one write;
    False if one of them moved (no longer current, or changed) since it was read."""
    rows = await g.write(
        "CALL { UNWIND $request.claims AS pc "
        "  MATCH (gc:Node {id: pc.id}) WHERE gc:Claim AND gc.revision = pc.revision "
        "  AND gc.status IN ['proposed', 'accepted'] RETURN count(gc) AS ok_claims } "
        "WITH ok_claims WHERE ok_claims = size($request.claims) "
        "CREATE (e:Erasure:Node {id: $request.id, created_at: $now, status: 'requested', "
        "  kind: 'request', source_id: $request.source_id, "
        "  message_index: $request.message_index, requested_by: $request.requested_by, "
        "  requested_at: $now, claim_ids: $request.claim_ids, revision: 1}) "
        "WITH e "
        "CALL { WITH e UNWIND $request.claims AS pc "
        "  MATCH (c:Node {id: pc.id}) WHERE c:Claim "
        "  SET c.withheld_from = c.status, " + change("c", "'withheld'") + ", "
        "    c.revision = c.revision + 1, c.erasure_id = e.id, c.erasure_at = $now, "
        "    c.erasure_by = $request.requested_by "
        "  RETURN count(c) AS n_withheld } "
        "WITH e " + CREATE_AUDITS + " RETURN e.id AS id",
        {"request": request, "now": now, "audits": audits})
    return bool(rows)


async def decline(g: Graph, request_id: str, revision: int, actor: str, reason: str | None,
                  now: int, audits: list[AuditEvent]) -> bool:
    """A request declined: the claims it withheld are what they were before, in one write;
    False if it is no longer waiting at that revision."""
    rows = await g.write(
        "MATCH (e:Node {id: $id}) WHERE e:Erasure AND e.status = 'requested' "
        "AND e.revision = $revision "
        "SET e.status = 'declined', e.declined_at = $now, e.declined_by = $actor, "
        "  e.reason = $reason, e.revision = e.revision + 1 "
        "WITH e "
        "CALL { WITH e UNWIND e.claim_ids AS cid MATCH (c:Node {id: cid}) WHERE c:Claim "
        "  AND c.status = 'withheld' AND c.erasure_id = e.id "
        "  SET " + change("c", "coalesce(c.withheld_from, 'proposed')") + ", "
        "    c.revision = c.revision + 1, c.withheld_from = null, c.erasure_id = null, "
        "    c.erasure_at = null, c.erasure_by = null "
        "  RETURN count(c) AS n_back } "
        "WITH e " + CREATE_AUDITS + " RETURN e.id AS id",
        {"id": request_id, "revision": revision, "actor": actor, "reason": reason, "now": now,
         "audits": audits})
    return bool(rows)


# ----------------------------------------------------------------------------- records

_RECORD_FIELDS = (
    "e.id AS id, e.status AS status, coalesce(e.kind, 'request') AS kind, "
    "e.source_id AS source_id, e.version_id AS version_id, "
    "e.message_index AS message_index, e.claim_id AS claim_id, e.request_id AS request_id, "
    "e.reason AS reason, e.requested_by AS requested_by, e.requested_at AS requested_at, "
    "e.applied_by AS applied_by, e.applied_at AS applied_at, e.declined_by AS declined_by, "
    "e.declined_at AS declined_at, e.created_at AS created_at, e.counts AS counts, "
    "e.claim_ids AS claim_ids, e.flagged AS flagged, e.held AS held, "
    "e.conflicts AS conflicts, e.disk AS disk, e.disk_clean_at AS disk_clean_at, "
    "e.revision AS revision")


class ErasureRow(TypedDict):
    id: str
    status: ErasureStatus
    kind: ErasureKind
    source_id: str | None
    version_id: str | None
    message_index: int | None
    claim_id: str | None
    request_id: str | None
    reason: str | None
    requested_by: str | None
    requested_at: int | None
    applied_by: str | None
    applied_at: int | None
    declined_by: str | None
    declined_at: int | None
    created_at: int
    counts: str | None
    claim_ids: list[str] | None
    flagged: list[str] | None
    held: list[str] | None
    conflicts: list[str] | None
    disk: str | None
    disk_clean_at: int | None
    revision: int | None


_ROW = of(ErasureRow)


def record(r: ErasureRow) -> ErasureRecord:
    counts: ErasureCounts | None = json.loads(r["counts"]) if r["counts"] else None
    target: TargetRef = {"kind": r["kind"], "source_id": r["source_id"],
                         "version_id": r["version_id"], "message_index": r["message_index"],
                         "claim_id": r["claim_id"], "request_id": r["request_id"]}
    disk = r["disk"]
    return {
        "id": r["id"], "status": r["status"], "target": target, "reason": r["reason"],
        "requested_by": r["requested_by"], "requested_at": r["requested_at"],
        "applied_by": r["applied_by"], "applied_at": r["applied_at"],
        "declined_by": r["declined_by"], "declined_at": r["declined_at"],
        "created_at": r["created_at"], "counts": counts,
        "claim_ids": list(r["claim_ids"] or []), "flagged": list(r["flagged"] or []),
        "held": list(r["held"] or []), "conflicts": list(r["conflicts"] or []),
        "disk": "clean" if disk == "clean" else "pending" if disk == "pending" else None,
        "disk_clean_at": r["disk_clean_at"],
    }


async def get_row(g: Graph, erasure_id: str) -> ErasureRow:
    rows = await g.read(f"MATCH (e:Node {{id: $id}}) WHERE e:Erasure RETURN {_RECORD_FIELDS}",
                        {"id": erasure_id})
    row = _ROW.first(rows)
    if row is None:
        raise ErasureNotFound(erasure_id)
    return row


async def get_erasure(g: Graph, erasure_id: str) -> ErasureRecord:
    return record(await get_row(g, erasure_id))


async def find_by_key(g: Graph, key: str) -> str | None:
    rows = await g.read("MATCH (e:Node {key: $key}) WHERE e:Erasure RETURN e.id AS id",
                        {"key": key})
    row = rows.first()
    return None if row is None else str(row["id"])


async def list_erasures(g: Graph, statuses: Sequence[ErasureStatus] | None, *, limit: int,
                        after: After | None = None) -> list[ErasureRecord]:
    """Newest first (by creation, then id), after a position (paging.py)."""
    rows = await g.read(
        "MATCH (e:Erasure) WHERE ($statuses IS NULL OR e.status IN $statuses) "
        "AND ($at_after IS NULL OR e.created_at < $at_after "
        "OR (e.created_at = $at_after AND e.id < $id_after)) "
        f"RETURN {_RECORD_FIELDS} ORDER BY e.created_at DESC, e.id DESC LIMIT $limit",
        {"statuses": list(statuses) if statuses is not None else None, "limit": limit,
         **after_params(after)})
    return [record(r) for r in _ROW.all(rows)]


async def count_erasures(g: Graph, statuses: Sequence[ErasureStatus] | None) -> int:
    if statuses is None:
        rows = await g.read("MATCH (e:Erasure) RETURN count(e) AS n")
    else:
        rows = await g.read("MATCH (e:Erasure) WHERE e.status IN $statuses "
                            "RETURN count(e) AS n", {"statuses": list(statuses)})
    return int(rows.scalar() or 0)


async def withheld_by(g: Graph, request_id: str) -> list[str]:
    """The claims a request withholds now."""
    rows = await g.read("MATCH (e:Node {id: $id}) WHERE e:Erasure "
                        "UNWIND e.claim_ids AS cid MATCH (c:Node {id: cid}) WHERE c:Claim "
                        "AND c.status = 'withheld' AND c.erasure_id = e.id "
                        "RETURN c.id AS id ORDER BY id", {"id": request_id})
    return [str(r["id"]) for r in rows]


class SaidClaim(TypedDict):
    id: str
    said_by: str | None
    status: str
    revision: int
    terms: list[str] | None
    fragment_id: str | None


_SAID = of(SaidClaim)


async def said_claims(g: Graph, ids: list[str]) -> list[SaidClaim]:
    """Who said each claim, its status, revision, words and fragment."""
    if not ids:
        return []
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids RETURN c.id AS id, "
        "c.said_by AS said_by, c.status AS status, c.revision AS revision, "
        "c.terms AS terms, c.fragment_id AS fragment_id", {"ids": ids})
    return _SAID.all(rows)
