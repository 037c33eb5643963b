"""FalkorDB behaviours the store depends on, checked against the real server."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi.testclient import TestClient

from afterhack.store.client import Graph, Store
from afterhack.store.names import graph_name

T = TypeVar("T")


def _on_scratch_graph(url: str, fn: Callable[[Graph], Awaitable[T]]) -> T:
    """Run fn on a new, empty graph of the server at url, deleted afterwards."""

    async def go() -> T:
        store = Store(url)
        g = store.graph("quirk_" + uuid.uuid4().hex)
        try:
            return await fn(g)
        finally:
            await store.delete_graph(g.name)
            await store.close()

    return asyncio.run(go())


def test_comprehension_plan_cached_before_a_relationship_type_existed(falkordb: str) -> None:
    """The server bug itself: why workspace graphs prime their relationship types."""

    async def go(g: Graph) -> tuple[int, int]:
        await g.write("CREATE (:C {id:'a'}), (:C {id:'b'})")
        q = "MATCH (c:C {id:'b'}) RETURN size([(c)<-[s:NEWTYPE]-(:C) | s]) AS n"
        await g.read(q)
        await g.write("MATCH (a:C {id:'a'}), (b:C {id:'b'}) CREATE (a)-[:NEWTYPE]->(b)")
        stale = (await g.read(q)).scalar()
        fresh = (await g.read(q + " ")).scalar()
        return stale, fresh

    stale, fresh = _on_scratch_graph(falkordb, go)
    assert fresh == 1
    # A FalkorDB that fixes the bug fails here: then priming can go (it stays harmless).
    assert stale == 0, "FalkorDB no longer keeps the stale plan"


def test_workspace_graphs_know_every_relationship_type(client: TestClient, falkordb: str) -> None:
    ws = client.post("/api/workspaces", json={"name": "primed"}).json()["id"]

    async def go() -> tuple[int, int]:
        store = Store(falkordb)
        g = store.graph(graph_name(ws))
        try:
            q = "MATCH (w:Workspace) RETURN size([(w)<-[s:SUPERSEDES]-() | s]) AS n"
            before = (await g.read(q)).scalar()
            await g.write("MATCH (w:Workspace) CREATE (:Tmp)-[:SUPERSEDES]->(w)")
            after = (await g.read(q)).scalar()
            await g.write("MATCH (t:Tmp) DETACH DELETE t")
            leftovers = (await g.read("MATCH (n) WHERE size(labels(n)) = 0 "
                                      "RETURN count(n) AS n")).scalar()
            assert leftovers == 0
            return before, after
        finally:
            await store.close()

    assert asyncio.run(go()) == (0, 1)


def test_a_full_journey_adds_no_property_name_beyond_the_registered_ones(
        client: TestClient, falkordb: str) -> None:
    """Keeps names.PROPERTY_KEYS complete, so the schema never grows under traffic."""
    from afterhack.store.names import PROPERTY_KEYS

    ws = client.post("/api/workspaces", json={"name": "schema"}).json()["id"]
    base = f"/api/workspaces/{ws}"
    claim = client.post(base + "/sources", json={
        "title": "Plan", "text": "The launch is planned for June 12. The venue is Hall 7."
    }).json()["claims"][0]
    run = client.post(base + "/agent-runs", json={"task": "Plan the launch event"}).json()
    client.post(base + "/agent-runs", json={"task": "Plan the venue",
                                            "builds_on": [run["decision"]["id"]]})
    a = run["actions"][0]
    client.patch(f"{base}/actions/{a['id']}", json={"op": "approve", "revision": 1})
    p = client.post(f"{base}/claims/{claim['id']}/corrections/preview",
                    json={"statement": "It is July 15."}).json()
    client.post(f"{base}/claims/{claim['id']}/corrections", json={
        "statement": "It is July 15.", "reason": "moved",
        "claim_revision": p["revisions"]["claim_revision"],
        "impact_token": p["revisions"]["impact_token"]})
    d = client.get(f"{base}/decisions/{run['decision']['id']}").json()
    client.patch(f"{base}/decisions/{d['id']}", json={"op": "reject", "revision": d["revision"]})

    async def keys() -> set[str]:
        store = Store(falkordb)
        try:
            rows = await store.graph(graph_name(ws)).read(
                "CALL db.propertyKeys() YIELD propertyKey RETURN collect(propertyKey) AS k")
            return set(rows.scalar())
        finally:
            await store.close()

    assert asyncio.run(keys()) == set(PROPERTY_KEYS)


def test_one_hop_paths_keep_parallel_edges_and_a_self_loop_once_each_way(
        falkordb: str) -> None:
    """store.repair reads the edges at a decision as one-hop paths of ``*0..1`` patterns,
    one outgoing and one incoming: each parallel edge must come back (two premises citing
    one claim), a DEPENDS_ON self-loop once in each direction (counted as its own upstream
    and dependent), the empty path dropped by the length filter. An undirected ``*0..1``
    would bring a self-loop twice (why the read is two directed ones). It reads how many
    decisions an action requires with a typed outdegree."""

    async def go(g: Graph) -> list[Any]:
        await g.write(
            "CREATE (d1:Decision {id:'d1'}), (d2:Decision {id:'d2'}), (a:Action {id:'a'}),"
            " (c:Claim {id:'c'}), (a)-[:REQUIRES]->(d1), (a)-[:REQUIRES]->(d2),"
            " (d1)-[:DEPENDS_ON]->(d1), (d2)-[:DEPENDS_ON]->(d1),"
            " (d1)-[:USED_CLAIM {premise:'p1'}]->(c), (d1)-[:USED_CLAIM {premise:'p2'}]->(c)")
        row = (await g.read(
            "MATCH (d:Decision {id:'d1'}) RETURN"
            " [p = (d)-[*0..1]->(n) WHERE length(p) = 1 |"
            "  [type(relationships(p)[0]), n.id, relationships(p)[0].premise]] AS out,"
            " [q = (d)<-[*0..1]-(m) WHERE length(q) = 1 |"
            "  [type(relationships(q)[0]), m.id, outdegree(m, 'REQUIRES')]] AS into,"
            " [r = (d)-[*0..1]-(k) WHERE length(r) = 1 AND k = d | k.id] AS undirected"))[0]
        return [sorted(row["out"]), sorted(row["into"]), row["undirected"]]

    out, into, undirected = _on_scratch_graph(falkordb, go)
    assert out == [["DEPENDS_ON", "d1", None], ["USED_CLAIM", "c", "p1"],
                   ["USED_CLAIM", "c", "p2"]]
    # outdegree with a type counts only that type's edges (d1's DEPENDS_ON are not REQUIRES).
    assert into == [["DEPENDS_ON", "d1", 0], ["DEPENDS_ON", "d2", 0], ["REQUIRES", "a", 2]]
    assert undirected == ["d1", "d1"]


def test_a_node_name_reused_by_a_second_comprehension_is_joined(falkordb: str) -> None:
    """Two pattern comprehensions in one projection must not reuse a node's name: FalkorDB
    binds the second to the first's and it finds nothing (store/invariants.py once lost a
    check to this)."""

    async def go(g: Graph) -> list[dict[str, Any]]:
        await g.write("CREATE (c:C {id:'c'}), (c)-[:T]->(:F {id:'f1', n:1}),"
                      " (c)-[:T]->(:F {id:'f2', n:2})")
        return [(await g.read(
            "MATCH (c:C) RETURN [(c)-[:T]->(f:F) | f.id] AS a, " + second)).first() or {}
            for second in ("[(c)-[:T]->(f:F) | f.n] AS b", "[(c)-[:T]->(f2:F) | f2.n] AS b")]

    reused, renamed = _on_scratch_graph(falkordb, go)
    assert sorted(reused["a"]) == ["f1", "f2"] and sorted(renamed["b"]) == [1, 2]
    # A FalkorDB that fixes this fails here: the rule can then relax.
    assert reused["b"] == [], "FalkorDB no longer joins a reused comprehension name"


_NEIGHBOURS_PROBE = """
function ids(ns) { return ns.map(n => n.attributes.id).sort(); }
falkor.register('one_type', n => ids(n.getNeighbors({direction: 'incoming', types: ['S']})));
falkor.register('two_types', n => ids(n.getNeighbors({direction: 'incoming', types: ['S', 'T']})));
falkor.register('both_ways', n => ids(n.getNeighbors({direction: 'both'})));
"""


def test_udf_neighbours_keep_only_the_last_type_and_both_means_outgoing(falkordb: str) -> None:
    """Why the region is not walked by a JavaScript UDF (besides its cost, see
    docs/falkordb-notes.md): getNeighbors is right for one type and one direction only."""
    lib = "quirk_" + uuid.uuid4().hex[:12]

    async def go(g: Graph) -> dict[str, Any]:
        await g.store.on_primaries("GRAPH.UDF", "LOAD", lib, _NEIGHBOURS_PROBE)
        try:
            await g.write("CREATE (a:A {id:'a'})-[:R]->(:B {id:'b'}), (:C {id:'c'})-[:S]->(a),"
                          " (:D {id:'d'})-[:T]->(a)")
            return (await g.read(
                f"MATCH (a:A) RETURN {lib}.one_type(a) AS one, {lib}.two_types(a) AS two,"
                f" {lib}.both_ways(a) AS both")).first() or {}
        finally:
            await g.store.on_primaries("GRAPH.UDF", "DELETE", lib)

    got = _on_scratch_graph(falkordb, go)
    assert got["one"] == ["c"]
    # A FalkorDB that fixes these fails here: [c, d] and [b, c, d] are the right answers.
    assert got["two"] == ["d"], "getNeighbors now follows every type it is given"
    assert got["both"] == ["b"], "getNeighbors now follows both directions"


def test_a_list_bound_before_a_match_is_not_quantified_in_its_where(falkordb: str) -> None:
    """The server bug behind the form of store/claims.holding_all: ``all(t IN rest WHERE t IN
    c.terms)`` in a MATCH's WHERE, ``rest`` bound before the MATCH, holds for no node; the
    same predicate projected by a WITH, then filtered, holds as it should."""

    async def go(g: Graph) -> tuple[int, int, int]:
        await g.write("CREATE (:C {terms: ['launch', 'june']}), (:C {terms: ['launch']})")
        in_where = await g.read(
            "WITH ['june'] AS rest MATCH (c:C) WHERE all(t IN rest WHERE t IN c.terms) "
            "RETURN count(c) AS n")
        projected = await g.read(
            "WITH ['june'] AS rest MATCH (c:C) "
            "WITH c, all(t IN rest WHERE t IN c.terms) AS held WHERE held "
            "RETURN count(c) AS n")
        from_parameter = await g.read(
            "MATCH (c:C) WHERE all(t IN $rest WHERE t IN c.terms) RETURN count(c) AS n",
            {"rest": ["june"]})
        return in_where.scalar(), projected.scalar(), from_parameter.scalar()

    assert _on_scratch_graph(falkordb, go) == (0, 1, 1)
