"""What an erasure is planned from (docs/rules.md, rule 22): the texts a target names, with
their fragments and the claims quoting them, what holds an exact string, the open conflicts
of the claims it erases, the words naming a decision's premises, who said a claim."""

from __future__ import annotations

from typing import TypedDict

from afterhack.model.vocab import ClaimStatus
from afterhack.store.client import Graph
from afterhack.store.conflicts import live_sides
from afterhack.store.rows import of


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
    fragment_id: str
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
        "RETURN c.id AS id, c.status AS status, v.id AS version_id, f.id AS fragment_id, "
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
    fragment (``kind``), with the fragments of it the erasure reads (those it cuts and
    those of the claims it names; a reviewer fragment is its own one) and what the guard
    re-checks of it."""

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
    n_fragments: int  # all of the text's, read or not


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


class VersionText(TypedDict):
    """A version an erasure may cut: its text, what the guard re-checks of it (its revision,
    how many claims quote it) and its source."""

    id: str
    text: str
    revision: int
    n_claims: int
    n_fragments: int
    source_id: str
    source_kind: str
    version: int
    has_file: bool


_VERSION_TEXT = of(VersionText)


async def version_texts(g: Graph, version_ids: list[str]) -> list[VersionText]:
    """The versions named, each with its text, not its fragments: a conversation's one
    version may hold ten thousand messages, and an erasure reads only those it cuts
    (``fragments_over``)."""
    if not version_ids:
        return []
    rows = await g.read(
        "MATCH (v:Node) WHERE v:SourceVersion AND v.id IN $ids "
        "MATCH (s:Source)-[:HAS_VERSION]->(v) "
        "RETURN v.id AS id, coalesce(v.text, '') AS text, "
        "coalesce(v.revision, 1) AS revision, "
        "size([(v)-[:HAS_FRAGMENT]->(:SourceFragment)<-[gs:SUPPORTED_BY]-(:Claim) | gs]) "
        "AS n_claims, size([(v)-[hf:HAS_FRAGMENT]->(:SourceFragment) | hf]) AS n_fragments, "
        "s.id AS source_id, coalesce(s.kind, 'text') AS source_kind, "
        "v.version AS version, v.file_data IS NOT NULL AS has_file", {"ids": version_ids})
    return _VERSION_TEXT.all(rows)


class Wanted(TypedDict):
    """What of a version an erasure reads: the fragments that share a code point with one
    of ``spans`` ([start, end] pairs, in order), and those named in ``ids``."""

    version_id: str
    spans: list[list[int]]
    ids: list[str]


class FragmentOf(FragmentPart):
    version_id: str


_FRAGMENT_OF = of(FragmentOf)


async def fragments_over(g: Graph, wanted: list[Wanted]) -> list[FragmentOf]:
    """The fragments of each version that a wanted span reaches into (an empty fragment:
    one strictly inside a span), or that ``ids`` names."""
    if not wanted:
        return []
    # The span list is bound before the fragments are matched: quantified over it in a
    # WITH, not in the MATCH's WHERE (docs/falkordb.md).
    rows = await g.read(
        "UNWIND $wanted AS w "
        "MATCH (v:Node {id: w.version_id}) WHERE v:SourceVersion "
        "MATCH (v)-[:HAS_FRAGMENT]->(f:SourceFragment) "
        "WITH w, f, any(s IN w.spans WHERE s[0] < f.end AND f.start < s[1]) AS reached "
        "WHERE reached OR f.id IN w.ids "
        "RETURN w.version_id AS version_id, f.id AS id, f.start AS start, f.end AS end, "
        "f.speaker AS speaker, f.message_index AS message_index", {"wanted": wanted})
    return _FRAGMENT_OF.all(rows)


async def claims_on(g: Graph, fragment_ids: list[str]) -> list[ContainedClaim]:
    """Every claim quoting one of these fragments of versions (``container_id``: the
    version)."""
    if not fragment_ids:
        return []
    rows = await g.read(
        "MATCH (f:Node) WHERE f:SourceFragment AND f.id IN $ids "
        "MATCH (v:SourceVersion)-[:HAS_FRAGMENT]->(f)<-[:SUPPORTED_BY]-(c:Claim) "
        "RETURN c.id AS id, v.id AS container_id, f.id AS fragment_id, "
        "c.status AS status, c.revision AS revision, c.statement AS statement, "
        "c.evidence_quote AS evidence_quote, c.statement_key AS statement_key, "
        "c.quote_start AS quote_start, c.quote_end AS quote_end, "
        "c.source_id AS source_id, "
        "size([(c)<-[u:USED_CLAIM]-(:Decision) | u]) AS n_users", {"ids": fragment_ids})
    return _CONTAINED.all(rows)


async def reviewer_containers(g: Graph, reviewer_ids: list[str]
                              ) -> tuple[list[ContainerRow], list[ContainedClaim]]:
    """The reviewer fragments named, each its own text, with every claim quoting them."""
    if not reviewer_ids:
        return [], []
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
    out: list[ContainerRow] = []
    for r in rows:
        text = r["text"] or ""
        out.append(ContainerRow(
            kind="reviewer", id=r["id"], text=text, revision=r["revision"],
            n_claims=sum(c["container_id"] == r["id"] for c in found), source_id=None,
            source_kind=None, version=None, has_file=False,
            correction_id=r["correction_id"],
            fragments=[FragmentPart(id=r["id"], start=0, end=len(text), speaker=None,
                                    message_index=None)], n_fragments=1))
    return out, found


class OpenConflictRow(TypedDict):
    id: str
    revision: int
    kind: str
    reason: str
    claim_ids: list[str]  # its two sides, as its audit event names them
    # Its sides still held by a current claim the erasure leaves, counted up to two: below
    # two, the erasure settles it; at two, it stays a dispute over what others still say.
    live_sides: int


_OPEN_CONFLICT = of(OpenConflictRow)


async def open_conflicts_of(g: Graph, claim_ids: list[str]) -> list[OpenConflictRow]:
    """The open conflicts one of these claims is a side of."""
    if not claim_ids:
        return []
    rows = await g.read(
        "UNWIND $ids AS id MATCH (c:Node {id: id}) WHERE c:Claim WITH c "
        "MATCH (c)<-[:BETWEEN]-(k:Node) WHERE k:Conflict AND k.status = 'open' "
        "WITH DISTINCT k " + live_sides("k", leaving="ids") +
        "RETURN k.id AS id, k.revision AS revision, k.kind AS kind, k.reason AS reason, "
        "[(k)-[:BETWEEN]->(s:Claim) | s.id] AS claim_ids, n_live AS live_sides ORDER BY id",
        {"ids": claim_ids})
    return _OPEN_CONFLICT.all(rows)


async def keys_held(g: Graph, keys: list[str], leaving: list[str]) -> set[str]:
    """Which of these statements a claim outside ``leaving`` (and not erased) states."""
    if not keys:
        return set()
    rows = await g.read(
        "UNWIND $keys AS k MATCH (c:Node {statement_key: k}) WHERE c:Claim "
        "AND c.status <> 'erased' AND NOT c.id IN $ids RETURN DISTINCT k AS key",
        {"keys": keys, "ids": leaving})
    return {str(r["key"]) for r in rows}


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
