"""Load a whole provenance graph straight through the store, in batched writes.

Used to build large synthetic workspaces for benchmarks and arbitrary shapes (shared
sources, deep chains, cycles) for tests of the repair logic. Everything it writes has the
same shape the API writes: Source → SourceVersion → SourceFragment ← Claim ← Decision ← Action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id
from afterhack.retrieval.search import claim_terms
from afterhack.rules.evidence import statement_key
from afterhack.store import vectors as store_vectors
from afterhack.store.client import Graph
from afterhack.store.history import born
from afterhack.store.params import Floats

BATCH = 5000


def _batches(rows: Sequence[dict[str, Any]], size: int) -> Iterator[Sequence[dict[str, Any]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


async def bulk_load(
    g: Graph,
    *,
    sources: Sequence[dict[str, Any]] = (),
    claims: Sequence[dict[str, Any]] = (),
    decisions: Sequence[dict[str, Any]] = (),
    actions: Sequence[dict[str, Any]] = (),
    batch: int = BATCH,
    vectors: tuple[str, int, Callable[[str], list[float]]] | None = None,
) -> None:
    """sources: {id, title}; claims: {id, statement, source_id, status?};
    decisions: {id, title, status?, premises: {label: [claim_id]}, depends_on?: [id]};
    actions: {id, description, status?, decision_ids: [id]}.

    ``vectors`` is (model name, dimension, statement -> vector): each claim gets its vector in
    its own write, under the workspace's vector index, as if that model had embedded it.
    Without it claims are written waiting for their vectors, as ingest leaves them."""
    now = now_ms()
    by_source: dict[str, list[dict[str, Any]]] = {}
    for c in claims:
        by_source.setdefault(c["source_id"], []).append(c)
    version_rows = []
    fragment_rows = []
    claim_rows = []
    for s in sources:
        parts = by_source.get(s["id"], [])
        text = " ".join(c["statement"] for c in parts) or s["title"]
        vid = new_id()
        version_rows.append({"source_id": s["id"], "title": s["title"], "version_id": vid,
                             "text": text, "length": len(text)})
        pos = 0
        for seq, c in enumerate(parts):
            st = c["statement"]
            fid = new_id()
            fragment_rows.append({"id": fid, "version_id": vid, "source_id": s["id"],
                                  "seq": seq, "text": st, "start": pos, "end": pos + len(st),
                                  "title": s["title"]})
            claim_rows.append({"id": c["id"], "statement": st, "key": statement_key(st),
                               "status": c.get("status", "proposed"), "source_id": s["id"],
                               "version_id": vid, "fragment_id": fid, "start": pos,
                               "end": pos + len(st), "terms": claim_terms(st),
                               "v": Floats(vectors[2](st)) if vectors else None})
            pos += len(st) + 1
    for rows in _batches(version_rows, batch):
        await g.write(
            "UNWIND $rows AS r "
            "CREATE (s:Source:Node {id:r.source_id, title:r.title, origin_type:'document', "
            "  origin_name:r.title, created_at:$now, revision:1, latest_version:1}) "
            "CREATE (s)-[:HAS_VERSION]->(:SourceVersion:Node {id:r.version_id, version:1, "
            "  text:r.text, content_hash:'', length:r.length, created_at:$now})",
            {"rows": list(rows), "now": now})
    for rows in _batches(fragment_rows, batch):
        await g.write(
            "UNWIND $rows AS r MATCH (v:Node {id:r.version_id}) WHERE v:SourceVersion "
            "CREATE (v)-[:HAS_FRAGMENT]->(:SourceFragment:Node {id:r.id, seq:r.seq, "
            "  text:r.text, "
            "  start:r.start, end:r.end, origin_type:'document', origin_name:r.title, "
            "  source_id:r.source_id, version_id:r.version_id, extraction:'done', "
            "  created_at:$now})",
            {"rows": list(rows), "now": now})
    if vectors is not None:
        await store_vectors.claim_space(g, vectors[0], vectors[1])
        await store_vectors.create_index(g, vectors[1])
    # A vector is a few kilobytes of query text: smaller batches keep each query sane.
    for rows in _batches(claim_rows, batch if vectors is None else max(1, batch // 5)):
        await g.write(
            "UNWIND $rows AS r MATCH (f:Node {id:r.fragment_id}) WHERE f:SourceFragment "
            "CREATE (c:Claim:Node {id:r.id, statement:r.statement, statement_key:r.key, "
            "  evidence_quote:r.statement, quote_start:r.start, quote_end:r.end, "
            f"  {born('r.status')}, confidence:1.0, confidence_kind:'quote_match', revision:1, "
            "  source_id:r.source_id, version_id:r.version_id, fragment_id:r.fragment_id, "
            "  extracted_by:'bulk', created_at:$now, terms:r.terms, "
            "  vector_pending: r.v IS NULL, "
            "  embedding: CASE WHEN r.v IS NULL THEN null ELSE vecf32(r.v) END}) "
            "CREATE (c)-[:SUPPORTED_BY {role:'evidence'}]->(f)",
            {"rows": list(rows), "now": now})
    decision_rows = [{"id": d["id"], "title": d["title"], "status": d.get("status", "draft"),
                      "order": list(d["premises"])} for d in decisions]
    for rows in _batches(decision_rows, batch):
        await g.write(
            "UNWIND $rows AS r CREATE (:Decision:Node {id:r.id, title:r.title, summary:'', "
            f"  {born('r.status')}, revision:1, created_at:$now, run_id:null, "
            "  premise_order:'[]', review_reason:null})",
            {"rows": list(rows), "now": now})
    uses = [{"d": d["id"], "c": c, "p": label}
            for d in decisions for label, ids in d["premises"].items() for c in ids]
    for rows in _batches(uses, batch):
        await g.write(
            "UNWIND $rows AS r MATCH (d:Node {id:r.d}), (c:Node {id:r.c}) "
            "WHERE d:Decision AND c:Claim "
            "CREATE (d)-[:USED_CLAIM {premise:r.p}]->(c)", {"rows": list(rows)})
    deps = [{"d": d["id"], "u": u} for d in decisions for u in d.get("depends_on", ())]
    for rows in _batches(deps, batch):
        await g.write(
            "UNWIND $rows AS r MATCH (d:Node {id:r.d}), (u:Node {id:r.u}) "
            "WHERE d:Decision AND u:Decision "
            "CREATE (d)-[:DEPENDS_ON]->(u)", {"rows": list(rows)})
    action_rows = [{"id": a["id"], "description": a["description"],
                    "status": a.get("status", "proposed")} for a in actions]
    for rows in _batches(action_rows, batch):
        await g.write(
            "UNWIND $rows AS r CREATE (:Action:Node {id:r.id, description:r.description, "
            f"  {born('r.status')}, revision:1, created_at:$now, held_from:null}})",
            {"rows": list(rows), "now": now})
    reqs = [{"a": a["id"], "d": d} for a in actions for d in a["decision_ids"]]
    for rows in _batches(reqs, batch):
        await g.write(
            "UNWIND $rows AS r MATCH (a:Node {id:r.a}), (d:Node {id:r.d}) "
            "WHERE a:Action AND d:Decision "
            "CREATE (a)-[:REQUIRES]->(d)", {"rows": list(rows)})
