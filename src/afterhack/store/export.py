"""Every node and edge of a workspace graph, as plain data (for backup, audit and tests)."""

from __future__ import annotations

import json

from afterhack.model.workspaces import ExportEdge, ExportNode, GraphSnapshot
from afterhack.store.client import Graph

# Derived from the statements by the configured model: an export stays model-neutral and
# small (a vector is 384 numbers), and a restored workspace is embedded again.
_DERIVED = frozenset({"embedding", "vector_pending", "embedding_model", "embedding_dim"})


async def snapshot_graph(g: Graph) -> GraphSnapshot:
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
    nodes: list[ExportNode] = []
    edges: list[ExportEdge] = []
    for r in rows:
        if r["type"] is None:
            props = {k: v for k, v in r["props"].items() if k not in _DERIVED}
            nodes.append({"labels": list(r["labels"]), "properties": props})
        else:
            edges.append({"type": r["type"], "source": r["source"], "target": r["target"],
                          "properties": dict(r["props"])})
    nodes.sort(key=lambda n: (str(n["properties"].get("id")), n["labels"]))
    edges.sort(key=lambda e: (e["source"], e["target"], e["type"],
                              json.dumps(e["properties"], sort_keys=True)))
    return {"nodes": nodes, "edges": edges}
