"""Every node and edge of a workspace graph, as plain data (for backup, audit and tests)."""

from __future__ import annotations

import json
from typing import Any

from afterhack.store.client import Graph

_PAGE = 5000


async def dump_nodes(g: Graph) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    skip = 0
    while True:
        rows = await g.read(
            "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props "
            "ORDER BY n.id SKIP $skip LIMIT $limit",
            {"skip": skip, "limit": _PAGE},
        )
        out.extend({"labels": list(r["labels"]), "properties": dict(r["props"])} for r in rows)
        if len(rows) < _PAGE:
            return out
        skip += _PAGE


async def dump_edges(g: Graph) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    skip = 0
    while True:
        rows = await g.read(
            "MATCH (a)-[e]->(b) RETURN type(e) AS type, a.id AS source, b.id AS target, "
            "properties(e) AS props ORDER BY a.id, b.id, type(e) SKIP $skip LIMIT $limit",
            {"skip": skip, "limit": _PAGE},
        )
        out.extend({"type": r["type"], "source": r["source"], "target": r["target"],
                    "properties": dict(r["props"])} for r in rows)
        if len(rows) < _PAGE:
            return out
        skip += _PAGE


async def dump_graph(g: Graph) -> dict[str, Any]:
    return {"nodes": await dump_nodes(g), "edges": await dump_edges(g)}


async def snapshot_graph(g: Graph) -> dict[str, Any]:
    """Every node and edge in ONE read query, so the copy is one consistent moment.

    (Paged reads could see an edge whose node arrived after its page was read.) Sorted by
    id, then by edge endpoints, type and properties, so equal graphs give equal documents.
    """
    rows = await g.read(
        "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props, "
        "NULL AS type, NULL AS source, NULL AS target "
        "UNION ALL "
        "MATCH (a)-[e]->(b) RETURN NULL AS labels, properties(e) AS props, "
        "type(e) AS type, a.id AS source, b.id AS target"
    )
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    for r in rows:
        if r["type"] is None:
            nodes.append({"labels": list(r["labels"]), "properties": dict(r["props"])})
        else:
            edges.append({"type": r["type"], "source": r["source"], "target": r["target"],
                          "properties": dict(r["props"])})
    nodes.sort(key=lambda n: (str(n["properties"].get("id")), n["labels"]))
    edges.sort(key=lambda e: (e["source"], e["target"], e["type"],
                              json.dumps(e["properties"], sort_keys=True)))
    return {"nodes": nodes, "edges": edges}
