"""How many claims hold each search term: the counts BM25 weighs terms by (ranking.py).

Counting a term's claims at query time reads one index entry per claim that holds it, and
the number of claims needs a scan of every claim once the count is part of a larger query:
at 100k claims that was most of a search. So each workspace keeps its counts in ``Term``
nodes (``key``, ``df``, under a range index), raised in the same write that creates the
claims; ``Term {key: ALL}`` counts every claim. Claims are never deleted, and a claim's
terms never change, so a count only grows, like the number it stands for. Like a vector,
a count is derived from the statements: it is never exported, and it is rebuilt from the
claims (``rebuild``) after a restore, or at start-up when it disagrees with them.

A term is a run of letters or digits (search.py), so ``ALL`` can never be one. (Not the
empty string: FalkorDB 4.16 does not match a node whose property is '' by equality, so a
MERGE on it makes a new node each time.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TypedDict

from afterhack.store.client import Graph, GraphMissing, QueryFailed, Store
from afterhack.store.names import REGISTRY_GRAPH, graph_name

ALL = "*"


class TermCount(TypedDict):
    """A write's claims holding a term (``k``), counted once per write."""

    k: str
    n: int


def counts(term_lists: Iterable[Iterable[str]]) -> list[TermCount]:
    """The counts a write of claims with these terms adds, ``ALL`` included."""
    per_term: Counter[str] = Counter()
    n = 0
    for terms in term_lists:
        n += 1
        per_term.update(terms)
    if n == 0:
        return []
    out: list[TermCount] = [{"k": ALL, "n": n}]
    out.extend({"k": k, "n": c} for k, c in per_term.items())
    return out


def joined_counts(joined: Iterable[str]) -> list[TermCount]:
    """``counts`` for claims whose terms come space-separated (search.joined_terms)."""
    return counts(t.split() for t in joined)


# Appended to a write after its claims exist; ``$term_counts`` is ``counts`` of them. The
# caller puts a WITH before anything that follows.
RAISE_COUNTS = (
    "FOREACH (tc IN $term_counts | MERGE (term:Term {key: tc.k}) "
    "ON CREATE SET term.df = tc.n ON MATCH SET term.df = term.df + tc.n) "
)


async def document_frequencies(g: Graph, terms: list[str]) -> tuple[int, dict[str, int]]:
    """Claims in the workspace, and for each term how many claims hold it (0 if none)."""
    rows = await g.read(
        "UNWIND $keys AS k OPTIONAL MATCH (t:Term {key: k}) RETURN k, t.df AS df",
        {"keys": [ALL, *terms]})
    df = {str(r["k"]): int(r["df"] or 0) for r in rows}
    return df.pop(ALL, 0), {t: df.get(t, 0) for t in terms}


async def rebuild(g: Graph) -> int:
    """Count every term of every claim again, in one write (so no claim written meanwhile
    is counted twice or missed); returns the number of claims counted."""
    rows = await g.write(
        "OPTIONAL MATCH (old:Term) DELETE old "
        "WITH count(*) AS _ "
        "MATCH (c:Claim) UNWIND coalesce(c.terms, []) + [$all] AS k "
        "WITH k, count(*) AS df "
        "CREATE (t:Term {key: k, df: df}) "
        "RETURN max(CASE WHEN k = $all THEN df ELSE 0 END) AS n",
        {"all": ALL})
    return int(rows.scalar() or 0)


async def counts_agree(g: Graph) -> bool:
    """Whether the count of every claim is the number of claims (a graph written before
    counts existed, or restored, has none)."""
    claims = await g.read("MATCH (c:Claim) RETURN count(c) AS n")
    counted = await g.read("MATCH (t:Term {key: $all}) RETURN t.df AS n", {"all": ALL})
    return int(claims.scalar() or 0) == int(counted.scalar() or 0)


async def ensure_index(g: Graph) -> None:
    """The range index on ``Term.key``, for a graph made before it was in the schema."""
    rows = await g.read("CALL db.indexes() YIELD label, properties "
                        "WHERE label = 'Term' RETURN properties AS props")
    if any("key" in r["props"] for r in rows):
        return
    try:
        await g.write("CREATE INDEX FOR (t:Term) ON (t.key)")
    except QueryFailed as exc:
        if "already indexed" not in str(exc):
            raise


async def ensure_counts(g: Graph) -> bool:
    """Rebuild the counts when they disagree with the claims; True if they were rebuilt."""
    await ensure_index(g)
    if await counts_agree(g):
        return False
    await rebuild(g)
    return True


async def ensure_counts_everywhere(store: Store) -> int:
    """At start-up: every workspace's counts, rebuilt where they are missing or wrong;
    returns how many were rebuilt."""
    rows = await store.graph(REGISTRY_GRAPH).read(
        "MATCH (e:WorkspaceEntry) RETURN e.id AS id ORDER BY e.id")
    rebuilt = 0
    for r in rows:
        try:
            g = store.graph(graph_name(r["id"]))
            rebuilt += await ensure_counts(g)
        except (GraphMissing, ValueError):
            continue  # registered but its graph is gone (or not a workspace id)
    return rebuilt
