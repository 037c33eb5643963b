"""Claim embeddings: the vector index, the workspace's embedding space, pending claims.

A workspace records the model and dimension its vectors came from (``Workspace
.embedding_model`` / ``.embedding_dim``); the vector index is made with that dimension on
the first vectors written, and dropped with every vector when the space changes, so two
models' vectors never share an index (FalkorDB would accept a vector of the wrong
dimension without a word). A claim waiting for its vector carries ``vector_pending: true``
(a range index), so counting what is left reads only what is left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from afterhack.model.vocab import ClaimStatus
from afterhack.store.claims import SEARCH_FIELDS, KeyedClaim
from afterhack.store.client import Graph, QueryFailed
from afterhack.store.cypher import CURRENT
from afterhack.store.params import Floats
from afterhack.store.rows import of

# Candidates the HNSW search visits per query: recall at the default (10) is poor.
EF_RUNTIME = 100
_M = 16
_EF_CONSTRUCTION = 200


@dataclass(frozen=True)
class Space:
    model: str | None
    dim: int | None
    indexed: bool


@dataclass(frozen=True)
class PendingClaim:
    id: str
    statement: str


async def space(g: Graph) -> Space:
    rows = await g.read(
        "MATCH (w:Workspace) RETURN w.embedding_model AS model, w.embedding_dim AS dim")
    row = rows.first() or {"model": None, "dim": None}
    idx = await g.read("CALL db.indexes() YIELD label, types "
                       "RETURN label AS label, types AS types")
    indexed = any(r["label"] == "Claim" and "VECTOR" in (r["types"] or {}).get("embedding", [])
                  for r in idx)
    return Space(row["model"], row["dim"], indexed)


async def space_of(g: Graph) -> tuple[str | None, int | None]:
    """The workspace's model and dimension, alone (no index listing, no count)."""
    rows = await g.read(
        "MATCH (w:Workspace) RETURN w.embedding_model AS model, w.embedding_dim AS dim")
    row = rows.first() or {"model": None, "dim": None}
    return row["model"], row["dim"]


async def search_state(g: Graph) -> tuple[str | None, int | None, int]:
    """The workspace's space and how many claims wait for a vector, in one read."""
    rows = await g.read(
        "MATCH (w:Workspace) OPTIONAL MATCH (c:Node {vector_pending: true}) WHERE c:Claim "
        "RETURN w.embedding_model AS model, w.embedding_dim AS dim, count(c) AS pending")
    row = rows.first() or {"model": None, "dim": None, "pending": 0}
    return row["model"], row["dim"], int(row["pending"])


async def claim_space(g: Graph, model: str, dim: int) -> bool:
    """Record the space on a workspace that has none yet; True if it is (now) this one."""
    rows = await g.write(
        "MATCH (w:Workspace) WHERE w.embedding_model IS NULL "
        "SET w.embedding_model = $model, w.embedding_dim = $dim RETURN 1 AS ok",
        {"model": model, "dim": dim})
    if rows.first() is not None:
        return True
    current = await space(g)
    return current.model == model and current.dim == dim


async def create_index(g: Graph, dim: int) -> None:
    # The dimension is an int checked by the caller; options cannot be parameters.
    try:
        await g.write(
            "CREATE VECTOR INDEX FOR (c:Claim) ON (c.embedding) OPTIONS "
            f"{{dimension: {int(dim)}, similarityFunction: 'cosine', M: {_M}, "
            f"efConstruction: {_EF_CONSTRUCTION}, efRuntime: {EF_RUNTIME}}}")
    except QueryFailed as exc:
        if "already indexed" not in str(exc):
            raise


async def reset_space(g: Graph) -> int:
    """Forget every vector and the space they were in: the index is dropped, each claim is
    pending again. Returns how many claims are pending."""
    if (await space(g)).indexed:
        await g.write("DROP VECTOR INDEX FOR (c:Claim) ON (c.embedding)")
    rows = await g.write(
        "MATCH (w:Workspace) SET w.embedding_model = null, w.embedding_dim = null "
        "WITH count(w) AS _ "
        "MATCH (c:Claim) SET c.embedding = null, c.vector_pending = true "
        "RETURN count(c) AS n")
    return int(rows.scalar() or 0)


async def mark_unembedded(g: Graph) -> int:
    """Claims written before vectors existed (or restored from an export) become pending."""
    rows = await g.write(
        "MATCH (c:Claim) WHERE c.embedding IS NULL AND c.vector_pending IS NULL "
        "SET c.vector_pending = true RETURN count(c) AS n")
    return int(rows.scalar() or 0)


async def pending(g: Graph, limit: int) -> list[PendingClaim]:
    rows = await g.read(
        "MATCH (c:Node {vector_pending: true}) WHERE c:Claim "
        "RETURN c.id AS id, c.statement AS statement "
        "LIMIT $limit", {"limit": limit})
    return [PendingClaim(r["id"], r["statement"]) for r in rows]


async def count_pending(g: Graph) -> int:
    rows = await g.read("MATCH (c:Node {vector_pending: true}) WHERE c:Claim "
                        "RETURN count(c) AS n")
    return int(rows.scalar() or 0)


async def count_claims(g: Graph) -> int:
    rows = await g.read("MATCH (c:Claim) RETURN count(c) AS n")
    return int(rows.scalar() or 0)


class VectorWrite(TypedDict):
    id: str
    v: list[float]


async def write(g: Graph, model: str, rows: list[VectorWrite]) -> list[str]:
    """Store vectors ``[{id, v}]``, only while the workspace is still in ``model``'s space
    (a re-embed that started meanwhile wins). Returns the ids of the claims written."""
    out = await g.write(
        "MATCH (w:Workspace) WHERE w.embedding_model = $model "
        "UNWIND $rows AS r MATCH (c:Node {id: r.id}) WHERE c:Claim AND c.vector_pending = true "
        "SET c.embedding = vecf32(r.v), c.vector_pending = false RETURN collect(c.id) AS ids",
        {"model": model, "rows": rows})
    return [str(i) for i in out.scalar() or []]


class NearClaim(KeyedClaim):
    """A claim found by its vector, as a search reads it: ``distance`` is the cosine
    distance to the query's."""

    distance: float


_NEAR = of(NearClaim)


async def nearest(g: Graph, vector: list[float], k: int,
                  statuses: Sequence[ClaimStatus]) -> list[NearClaim]:
    """The k claims nearest the vector, then only those with a wanted status (so fewer
    than k may come back); ``distance`` is the cosine distance (0 = same direction)."""
    try:
        rows = await g.read(
            "CALL db.idx.vector.queryNodes('Claim', 'embedding', $k, vecf32($v)) "
            "YIELD node AS c, score WHERE c.status IN $statuses "
            f"RETURN {SEARCH_FIELDS}, score AS distance ORDER BY distance, c.id",
            {"k": k, "v": Floats(vector), "statuses": statuses})
    except QueryFailed:
        # The space was recorded a moment before its index was made, or dropped by a
        # re-embed meanwhile: nothing is near yet.
        return []
    return _NEAR.all(rows)


class NearRow(TypedDict):
    """A current claim near another statement in meaning, as a conflict check reads it."""

    id: str
    statement: str
    statement_key: str
    source_id: str | None
    distance: float


# The scale a query vector is sent at, as whole numbers: cosine distance does not depend on
# a vector's length, and FalkorDB reads an integer in about half the time of a seven-digit
# float (a vector's numbers are most of the text of a batch of them).
_SCALE = 10_000


def scaled(vector: Sequence[float]) -> list[int]:
    """A vector as whole numbers in the same direction (see ``_SCALE``)."""
    return [round(x * _SCALE) for x in vector]


def _near_rows(hits: list[list[Any]]) -> list[NearRow]:
    out = [NearRow(id=h[0], statement=h[1], statement_key=h[2], source_id=h[3],
                   distance=float(h[4])) for h in hits]
    return sorted(out, key=lambda r: (r["distance"], r["id"]))


async def nearest_each(g: Graph, vectors: Sequence[Sequence[float]],
                       k: int) -> list[list[NearRow]]:
    """For each vector, the current claims among its ``k`` nearest, nearest first: one read
    for all of them."""
    if not vectors:
        return []
    try:
        rows = await g.read(
            "UNWIND range(0, size($vs) - 1) AS i "
            "CALL db.idx.vector.queryNodes('Claim', 'embedding', $k, vecf32($vs[i])) "
            f"YIELD node AS c, score WHERE c.status IN {CURRENT} "
            "RETURN i, collect([c.id, c.statement, c.statement_key, c.source_id, score]) "
            "AS hits",
            {"vs": [scaled(v) for v in vectors], "k": k})
    except QueryFailed:
        return [[] for _ in vectors]  # no index yet (see ``nearest``)
    out: list[list[NearRow]] = [[] for _ in vectors]
    for r in rows:
        out[r["i"]] = _near_rows(r["hits"])
    return out


async def nearest_to_claims(g: Graph, claim_ids: Sequence[str],
                            k: int) -> dict[str, list[NearRow]]:
    """For each claim with a vector, the other current claims among the ``k`` nearest its
    own vector, nearest first (no vector is sent: each is read where it is stored). A claim
    whose vector is pending has none."""
    if not claim_ids:
        return {}
    try:
        rows = await g.read(
            "MATCH (c0:Node) WHERE c0:Claim AND c0.id IN $ids AND c0.embedding IS NOT NULL "
            "CALL db.idx.vector.queryNodes('Claim', 'embedding', $k, c0.embedding) "
            f"YIELD node AS c, score WHERE c.status IN {CURRENT} AND c.id <> c0.id "
            "RETURN c0.id AS of, "
            "collect([c.id, c.statement, c.statement_key, c.source_id, score]) AS hits",
            {"ids": list(claim_ids), "k": k})
    except QueryFailed:
        return {}
    return {str(r["of"]): _near_rows(r["hits"]) for r in rows}
