"""The graph as a person asks "what breaks if this is wrong?": the product view hides the
plumbing (versions, fragments, runs, handoffs, audit) and names edges by what they mean."""

from __future__ import annotations

import itertools

from afterhack.model.graph import (
    ConflictEdgeRow,
    CountedKind,
    GraphView,
    KindTotal,
    ProductEdgeType,
    Timeline,
    ViewEdge,
    ViewNode,
)
from afterhack.model.workspaces import Scalar
from afterhack.records.clock import now_ms
from afterhack.store import asof_graph, graphview
from afterhack.store.client import Graph
from afterhack.store.graphview import CountLabel

_TEXT_LIMIT = 160
# A version's text and a file's original (base64) are read in their own routes, not drawn.
_HIDDEN_PROPS = ("text", "file_data")

def _label(text: str | None) -> str:
    t = (text or "").strip()
    return t if len(t) <= _TEXT_LIMIT else t[: _TEXT_LIMIT - 1] + "…"


def _side_heads(x: ConflictEdgeRow, shown: set[str]) -> list[str]:
    """The first claim shown of each side of a conflict (by id), in id order."""
    heads: dict[str, str] = {}
    for m in sorted(x["members"], key=lambda m: m["claim_id"]):
        if m["claim_id"] in shown:
            heads.setdefault(m["side"], m["claim_id"])
    return sorted(heads.values())


def _edge(src: str, dst: str, kind: ProductEdgeType) -> ViewEdge:
    return {"id": f"{kind}:{src}->{dst}", "source": src, "target": dst, "type": kind}


async def _total(g: Graph, kind: CountedKind, label: CountLabel | None, drawn: int, limit: int,
                 as_of: int | None) -> KindTotal:
    """A kind's count: what was drawn, unless the limit cut it (then counted in the store)."""
    total = drawn if drawn < limit else await graphview.count_nodes(g, label, as_of)
    return {"type": kind, "drawn": drawn, "total": max(total, drawn)}


async def product_view(g: Graph, limit: int, as_of: int | None = None) -> GraphView:
    """The product view; with ``as_of``, as the memory held it then."""
    rows = await graphview.product_rows(g, limit, as_of)
    nodes: list[ViewNode] = []
    edges: list[ViewEdge] = []
    for s in rows["sources"]:
        nodes.append({"id": s["id"], "type": "source", "label": _label(s["title"]),
                      "status": None, "data": {"origin_type": s["origin_type"],
                                               "latest_version": s["latest_version"]}})
    corrections = {k["id"]: k for k in rows["corrections"]}
    for k in rows["corrections"]:
        nodes.append({"id": k["id"], "type": "correction", "label": _label(k["statement"]),
                      "status": k["kind"], "data": {"kind": k["kind"], "reviewer": k["reviewer"],
                                                    "claim_id": k["claim_id"],
                                                    "claim_ids": list[Scalar](k["claim_ids"]),
                                                    "replacement_id": k["replacement_id"]}})
        for corrected in k["claim_ids"]:
            edges.append(_edge(k["id"], corrected, "CORRECTS"))
    source_ids = {s["id"] for s in rows["sources"]}
    claim_ids = set()
    for c in rows["claims"]:
        claim_ids.add(c["id"])
        nodes.append({"id": c["id"], "type": "claim", "label": _label(c["statement"]),
                      "status": c["status"],
                      "data": {"confidence_kind": c["confidence_kind"],
                               "source_id": c["source_id"], "revision": c["revision"]}})
        if c["source_id"] in source_ids or c["source_id"] in corrections:
            edges.append(_edge(c["source_id"], c["id"], "SUPPORTS"))
        for old in c["replaces"]:
            edges.append(_edge(c["id"], old, "REPLACES"))
    # An open conflict is drawn as edges between its sides (the UI draws them dashed): a
    # chain through the first claim shown of each side.
    for x in rows["conflicts"]:
        heads = _side_heads(x, claim_ids)
        for left, right in itertools.pairwise(heads):
            edge = _edge(left, right, "CONFLICTS")
            edge["id"] = f"CONFLICTS:{x['id']}" + ("" if len(heads) == 2 else f":{right}")
            edge["data"] = {"conflict_id": x["id"], "kind": x["kind"], "reason": x["reason"],
                            "status": x["status"]}
            edges.append(edge)
    decision_ids = {d["id"] for d in rows["decisions"]}
    for d in rows["decisions"]:
        nodes.append({"id": d["id"], "type": "decision", "label": _label(d["title"]),
                      "status": d["status"], "data": {"revision": d["revision"],
                                                      "created_at": d["created_at"],
                                                      "run_id": d["run_id"]}})
        for cid in dict.fromkeys(d["claim_ids"]):
            if cid in claim_ids:
                edges.append(_edge(cid, d["id"], "INFORMS"))
        for up in d["depends_on"]:
            if up in decision_ids:
                edges.append(_edge(up, d["id"], "INFORMS"))
    for a in rows["actions"]:
        nodes.append({"id": a["id"], "type": "action", "label": _label(a["description"]),
                      "status": a["status"], "data": {"revision": a["revision"],
                                                      "held_from": a["held_from"]}})
        for did in a["decision_ids"]:
            if did in decision_ids:
                edges.append(_edge(did, a["id"], "ENABLES"))
    known = {n["id"] for n in nodes}
    edges = [e for e in edges if e["source"] in known and e["target"] in known]
    kinds: list[tuple[CountedKind, CountLabel, int]] = [
        ("source", "Source", len(rows["sources"])),
        ("correction", "Correction", len(rows["corrections"])),
        ("claim", "Claim", len(rows["claims"])),
        ("decision", "Decision", len(rows["decisions"])),
        ("action", "Action", len(rows["actions"]))]
    totals = [await _total(g, kind, label, drawn, limit, as_of) for kind, label, drawn in kinds]
    truncated = any(t["drawn"] >= limit for t in totals)
    return {"view": "product", "nodes": nodes, "edges": edges, "truncated": truncated,
            "totals": totals}


async def internal_view(g: Graph, limit: int, as_of: int | None = None) -> GraphView:
    rows = await graphview.internal_rows(g, limit, as_of)
    nodes: list[ViewNode] = []
    for n in rows["nodes"]:
        props = {k: v for k, v in dict(n["props"]).items() if k not in _HIDDEN_PROPS}
        label = props.get("statement") or props.get("title") or props.get("description") \
            or props.get("task") or props.get("kind") or n["label"]
        status = props.get("status")
        nodes.append({"id": n["id"], "type": n["label"], "label": _label(str(label)),
                      "status": status if isinstance(status, str) else None,
                      "data": {**props}})
    known = {n["id"] for n in nodes}
    edges: list[ViewEdge] = [
        {"id": f"{e['type']}:{e['source']}->{e['target']}", "source": e["source"],
         "target": e["target"], "type": e["type"], "data": dict(e["props"])}
        for e in rows["edges"] if e["source"] in known and e["target"] in known]
    drawn = len(rows["nodes"])
    return {"view": "internal", "nodes": nodes, "edges": edges, "truncated": drawn >= limit,
            "totals": [await _total(g, "node", None, drawn, limit, as_of)]}


async def timeline(g: Graph, limit: int) -> Timeline:
    """The events a time control over the graph marks, and the time of the read."""
    return {"events": await asof_graph.timeline(g, limit), "now": now_ms()}
