"""Raw reads for the graph views (memory/projection.py shapes them), now or as of a
time (store/moment.py).

As of a time, the product view shows what existed then with the status each had then: a
claim replaced another only once that one was retired, a decision rests on the claims it
cites now (a re-confirmed decision's earlier premises are on the decision's own read). The
internal view shows the nodes and edges that existed then with the status each had then
(and its history up to then); its other properties are shown as stored now.
"""

from __future__ import annotations

from functools import cache
from typing import Literal, NamedTuple

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
from afterhack.model.workspaces import Properties, Scalar
from afterhack.store.client import Graph
from afterhack.store.cypher import cypher_list
from afterhack.store.moment import At, Moment, where
from afterhack.store.rows import of

_SOURCE = of(SourceNodeRow)
_CLAIM = of(ClaimNodeRow)
_CORRECTION = of(CorrectionNodeRow)
_CONFLICT = of(ConflictEdgeRow)
_DECISION = of(DecisionNodeRow)
_ACTION = of(ActionNodeRow)
_EDGE = of(InternalEdgeRow)


class _NodeRow(InternalNodeRow):
    """A node as the internal view reads it: with its status history up to the moment
    (null now, and for a node without a status)."""

    history: list[str] | None
    since: list[int] | None


_NODE = of(_NodeRow)
_OPEN = cypher_list(["open"])


class _ProductQueries(NamedTuple):
    sources: str
    claims: str
    corrections: str
    conflicts: str
    decisions: str
    actions: str


@cache
def _product(at: At) -> _ProductQueries:
    return _ProductQueries(
        sources=(
            f"MATCH (s:Source){where(at.exists('s'))} "
            "RETURN s.id AS id, s.title AS title, s.origin_type AS origin_type, "
            f"{at.latest_version('s')} AS latest_version "
            "ORDER BY s.created_at, s.id LIMIT $limit"),
        claims=(
            f"MATCH (c:Claim){where(at.exists('c'))} "
            f"RETURN c.id AS id, c.statement AS statement, {at.status('c')} AS status, "
            "c.confidence_kind AS confidence_kind, c.source_id AS source_id, "
            "c.revision AS revision, "
            f"[(c)-[:SUPERSEDES]->(o:Claim){where(at.retired(at.status('o')))} | o.id] "
            "AS replaces ORDER BY c.created_at, c.id LIMIT $limit"),
        # A correction of a statement corrects each current copy of it: one row each.
        corrections=(
            f"MATCH (k:Correction){where(at.exists('k'))} "
            "RETURN k.id AS id, k.statement AS statement, k.kind AS kind, "
            "k.reviewer AS reviewer, k.claim_id AS claim_id, "
            "[(k)-[:CORRECTS]->(c:Claim) | c.id] AS claim_ids, "
            "k.replacement_id AS replacement_id "
            "ORDER BY k.created_at, k.id LIMIT $limit"),
        conflicts=(
            f"MATCH (k:Conflict) WHERE {at.status_in('k', _OPEN)} "
            f"RETURN k.id AS id, k.kind AS kind, k.reason AS reason, {at.status('k')} AS status, "
            f"[(k)-[e:BETWEEN]->(c:Claim){where(at.joined('e'))} | "
            "{claim_id: c.id, side: coalesce(e.side, c.id)}] AS members "
            "ORDER BY k.created_at, k.id LIMIT $limit"),
        decisions=(
            f"MATCH (d:Decision){where(at.exists('d'))} "
            f"RETURN d.id AS id, d.title AS title, {at.status('d')} AS status, "
            "d.revision AS revision, d.created_at AS created_at, d.run_id AS run_id, "
            "[(d)-[:USED_CLAIM]->(c:Claim) | c.id] AS claim_ids, "
            "[(d)-[:DEPENDS_ON]->(x:Decision) | x.id] AS depends_on "
            "ORDER BY d.created_at, d.id LIMIT $limit"),
        actions=(
            f"MATCH (a:Action){where(at.exists('a'))} "
            f"RETURN a.id AS id, a.description AS description, {at.status('a')} AS status, "
            f"a.revision AS revision, {at.held_from('a')} AS held_from, "
            "[(a)-[:REQUIRES]->(d:Decision) | d.id] AS decision_ids "
            "ORDER BY a.created_at, a.id LIMIT $limit"),
    )


async def product_rows(g: Graph, limit: int, as_of: int | None = None) -> ProductRows:
    m = Moment(as_of)
    q = _product(m.at)
    p = m.params(limit=limit)
    return {
        "sources": _SOURCE.all(await g.read(q.sources, p)),
        "claims": _CLAIM.all(await g.read(q.claims, p)),
        "corrections": _CORRECTION.all(await g.read(q.corrections, p)),
        "conflicts": _CONFLICT.all(await g.read(q.conflicts, p)),
        "decisions": _DECISION.all(await g.read(q.decisions, p)),
        "actions": _ACTION.all(await g.read(q.actions, p)),
    }


@cache
def _internal(at: At) -> tuple[str, str]:
    nodes = (
        f"MATCH (n){where(at.existed('n'))}{at.history_index('n')} "
        # Every node also carries the shared label Node, in no fixed place among its labels.
        "RETURN n.id AS id, [x IN labels(n) WHERE x <> 'Node'][0] AS label, "
        f"properties(n) AS props, {at.history('n')} "
        "ORDER BY n.created_at, n.id LIMIT $limit")
    edges = (
        "MATCH (a)-[e]->(b)"
        f"{where(at.existed('a'), at.existed('b'), at.edge_counts('e', 'b'))} "
        "RETURN a.id AS source, b.id AS target, type(e) AS type, "
        "properties(e) AS props ORDER BY a.id, b.id LIMIT $limit")
    return nodes, edges


def _node(r: _NodeRow) -> InternalNodeRow:
    props: Properties = dict(r["props"])
    if r["history"] is not None:
        props.update(status=r["history"][-1], status_history=list[Scalar](r["history"]),
                     status_since=list[Scalar](r["since"] or []))
    return {"id": r["id"], "label": r["label"], "props": props}


async def internal_rows(g: Graph, limit: int, as_of: int | None = None) -> InternalRows:
    m = Moment(as_of)
    nodes, edges = _internal(m.at)
    return {"nodes": [_node(r) for r in _NODE.all(await g.read(nodes, m.params(limit=limit)))],
            "edges": _EDGE.all(await g.read(edges, m.params(limit=limit * 4)))}


# The stored label behind each kind a view counts; None: every node.
CountLabel = Literal["Source", "Correction", "Claim", "Decision", "Action"]


async def count_nodes(g: Graph, label: CountLabel | None, as_of: int | None = None) -> int:
    """How many nodes of a label (or in all) the workspace holds, now or as of a time: what a
    view cut at its limit draws part of."""
    m = Moment(as_of)
    match = f"MATCH (n:{label})" if label else "MATCH (n)"
    rows = await g.read(f"{match}{where(m.at.existed('n'))} RETURN count(n) AS n", m.params())
    return int(rows.scalar() or 0)
