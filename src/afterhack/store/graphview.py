"""Raw reads for the graph views (projection.py shapes them for the UI)."""

from __future__ import annotations

from typing import Literal, cast

from afterhack.model.graph import (
    ActionNodeRow,
    ClaimNodeRow,
    ConflictEdgeRow,
    CorrectionNodeRow,
    DecisionNodeRow,
    InternalEdgeRow,
    InternalNodeRow,
    InternalRows,
    ProductRows,
    SourceNodeRow,
)
from afterhack.store.client import Graph


async def product_rows(g: Graph, limit: int) -> ProductRows:
    p = {"limit": limit}
    return {
        "sources": cast(list[SourceNodeRow], list(await g.read(
            "MATCH (s:Source) RETURN s.id AS id, s.title AS title, s.origin_type AS origin_type, "
            "s.latest_version AS latest_version ORDER BY s.created_at, s.id LIMIT $limit", p))),
        "claims": cast(list[ClaimNodeRow], list(await g.read(
            "MATCH (c:Claim) RETURN c.id AS id, c.statement AS statement, c.status AS status, "
            "c.confidence_kind AS confidence_kind, c.source_id AS source_id, "
            "c.revision AS revision, [(c)-[:SUPERSEDES]->(o:Claim) | o.id] AS replaces "
            "ORDER BY c.created_at, c.id LIMIT $limit", p))),
        # A correction of a statement corrects each current copy of it: one row each.
        "corrections": cast(list[CorrectionNodeRow], list(await g.read(
            "MATCH (k:Correction) RETURN k.id AS id, "
            "k.statement AS statement, k.kind AS kind, k.reviewer AS reviewer, "
            "k.claim_id AS claim_id, [(k)-[:CORRECTS]->(c:Claim) | c.id] AS claim_ids, "
            "k.replacement_id AS replacement_id "
            "ORDER BY k.created_at, k.id LIMIT $limit", p))),
        "conflicts": cast(list[ConflictEdgeRow], list(await g.read(
            "MATCH (k:Conflict {status: 'open'}) RETURN k.id AS id, k.kind AS kind, "
            "k.reason AS reason, k.status AS status, "
            "[(k)-[:BETWEEN]->(c:Claim) | c.id] AS claim_ids "
            "ORDER BY k.created_at, k.id LIMIT $limit", p))),
        "decisions": cast(list[DecisionNodeRow], list(await g.read(
            "MATCH (d:Decision) RETURN d.id AS id, d.title AS title, d.status AS status, "
            "d.revision AS revision, d.created_at AS created_at, d.run_id AS run_id, "
            "[(d)-[:USED_CLAIM]->(c:Claim) | c.id] AS claim_ids, "
            "[(d)-[:DEPENDS_ON]->(x:Decision) | x.id] AS depends_on "
            "ORDER BY d.created_at, d.id LIMIT $limit", p))),
        "actions": cast(list[ActionNodeRow], list(await g.read(
            "MATCH (a:Action) RETURN a.id AS id, a.description AS description, "
            "a.status AS status, a.revision AS revision, a.held_from AS held_from, "
            "[(a)-[:REQUIRES]->(d:Decision) | d.id] AS decision_ids "
            "ORDER BY a.created_at, a.id LIMIT $limit", p))),
    }


async def internal_rows(g: Graph, limit: int) -> InternalRows:
    nodes = await g.read(
        # Every node also carries the shared label Node, in no fixed place among its labels.
        "MATCH (n) RETURN n.id AS id, [x IN labels(n) WHERE x <> 'Node'][0] AS label, "
        "properties(n) AS props "
        "ORDER BY n.created_at, n.id LIMIT $limit", {"limit": limit})
    edges = await g.read(
        "MATCH (a)-[e]->(b) RETURN a.id AS source, b.id AS target, type(e) AS type, "
        "properties(e) AS props ORDER BY a.id, b.id LIMIT $limit", {"limit": limit * 4})
    return {"nodes": cast(list[InternalNodeRow], list(nodes)),
            "edges": cast(list[InternalEdgeRow], list(edges))}


# The stored label behind each kind a view counts; None: every node.
CountLabel = Literal["Source", "Correction", "Claim", "Decision", "Action"]


async def count_nodes(g: Graph, label: CountLabel | None, as_of: int | None = None) -> int:
    """How many nodes of a label (or in all) the workspace holds, now or as of a time: what a
    view cut at its limit draws part of."""
    match = f"MATCH (n:{label})" if label else "MATCH (n)"
    if as_of is None:
        rows = await g.read(f"{match} RETURN count(n) AS n")
    else:
        rows = await g.read(f"{match} WHERE coalesce(n.created_at, n.at) <= $as_of "
                            "RETURN count(n) AS n", {"as_of": as_of})
    return int(rows.scalar() or 0)
