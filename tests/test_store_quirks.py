"""FalkorDB behaviours the store depends on, checked against the real server."""

from __future__ import annotations

import asyncio
import pathlib
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi.testclient import TestClient

from afterhack.errors import StoreUnavailable
from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.store.client import Graph, GraphMissing, QueryFailed, Store
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
    docs/decisions/0004-correction-region-read.md): getNeighbors is right for one type and
    one direction only."""
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


# Facts of docs/falkordb.md that the store's query texts are written around. Each test fails
# when the server changes its behaviour: the doc and the queries that avoid it then need a look.


def _fails(fn: Callable[[Graph], Awaitable[Any]]) -> Callable[[Graph], Awaitable[str]]:
    """The message of the QueryFailed that fn raises ("" if it raises none)."""

    async def go(g: Graph) -> str:
        try:
            await fn(g)
        except QueryFailed as exc:
            return str(exc)
        return ""

    return go


def test_exists_subqueries_do_not_parse_and_exists_on_a_pattern_says_true(falkordb: str) -> None:
    """Why no query uses EXISTS: the subquery form is a parse error, and exists() on a
    pattern answers true for a node with no edge at all."""

    async def go(g: Graph) -> tuple[str, Any]:
        await g.write("CREATE (:A {id: 'lonely'})")
        parse = await _fails(lambda g: g.read(
            "MATCH (a:A) WHERE NOT EXISTS { MATCH (a)-->() } RETURN a.id"))(g)
        wrong = (await g.read("MATCH (a:A) RETURN exists((a)-[:R]->()) AS e")).scalar()
        return parse, wrong

    parse, wrong = _on_scratch_graph(falkordb, go)
    assert "Invalid input" in parse
    assert wrong is True, "exists() on a pattern now answers right"


def test_a_call_subquery_after_an_update_needs_a_with(falkordb: str) -> None:
    async def go(g: Graph) -> tuple[str, Any]:
        await g.write("CREATE (:A {id: 'x'})")
        bare = await _fails(lambda g: g.write(
            "MATCH (a:A) SET a.v = 1 CALL { WITH a RETURN 1 AS one } RETURN one"))(g)
        with_between = (await g.write(
            "MATCH (a:A) SET a.v = 1 WITH a CALL { WITH a RETURN 1 AS one } RETURN one"))
        return bare, with_between.scalar()

    bare, with_between = _on_scratch_graph(falkordb, go)
    assert "WITH clause is required" in bare
    assert with_between == 1


def test_a_comprehension_condition_on_outer_values_alone_drops_the_row(falkordb: str) -> None:
    """A condition in a pattern comprehension's WHERE that names none of its own variables
    filters the outer row: the row is gone instead of the list being empty. In a guarded
    write that reads as "no row", a false 409, so such conditions are chosen in Python."""

    async def go(g: Graph) -> tuple[int, list[Any]]:
        await g.write("CREATE (:A {id: 'x'})-[:R]->(:A {id: 'y'})")
        q = ("MATCH (a:A) RETURN a.id AS id, [(a)-[:R]->(b) WHERE b.id <> 'z' {} | b.id] AS l"
             " ORDER BY id")
        outer_only = await g.read(q.format("AND $policy = 'independent'"),
                                  {"policy": "any"})
        tied = await g.read(q.format("AND ($policy = 'independent' OR b.id = b.id)"),
                            {"policy": "any"})
        return len(outer_only), [r["l"] for r in tied]

    outer_only, tied = _on_scratch_graph(falkordb, go)
    assert tied == [["y"], []]
    assert outer_only == 0, "an outer-only condition no longer drops the row"


def test_comprehensions_nested_or_in_a_where_do_not_work(falkordb: str) -> None:
    """A comprehension inside another comes back null (store/decisions.py reads the inner
    list in a second query); one inside a WHERE fails (guards project it in a WITH first)."""

    async def go(g: Graph) -> tuple[list[Any], str, int]:
        await g.write("CREATE (:A {id: 'x'})-[:R]->(y:A {id: 'y'})-[:R]->(:A {id: 'z'})")
        nested = (await g.read(
            "MATCH (a:A {id: 'x'}) RETURN [(a)-[:R]->(b) | {id: b.id,"
            " next: [(b)-[:R]->(c) | c.id]}] AS l")).scalar()
        in_where = await _fails(lambda g: g.read(
            "MATCH (a:A) WHERE size([(a)-[:R]->(b) | b]) > 0 RETURN a.id"))(g)
        projected = (await g.read(
            "MATCH (a:A) WITH a, size([(a)-[:R]->(b) | b]) AS n WHERE n > 0"
            " RETURN count(a) AS k")).scalar()
        return nested, in_where, projected

    nested, in_where, projected = _on_scratch_graph(falkordb, go)
    assert nested == [{"id": "y", "next": None}], "a nested comprehension now has a value"
    assert "Unable to resolve filtered alias" in in_where
    assert projected == 2


def test_not_binds_before_list_concatenation(falkordb: str) -> None:
    async def go(g: Graph) -> tuple[str, Any]:
        await g.write("CREATE (:A)")  # reads need the graph to exist
        bare = await _fails(lambda g: g.read("RETURN NOT 1 IN [2] + [3] AS v"))(g)
        return bare, (await g.read("RETURN NOT (1 IN ([2] + [3])) AS v")).scalar()

    bare, parenthesised = _on_scratch_graph(falkordb, go)
    assert "expected Boolean or Null but was List" in bare
    assert parenthesised is True


def test_a_map_named_as_its_node_is_sorted_on_its_last_key_alone(falkordb: str) -> None:
    """``RETURN {...} AS a ORDER BY a.at DESC, a.id``, the map named as the node it reads,
    comes back in the order of ``a.id`` alone; sorted on values taken before the projection
    it is right (the store's list of actions pages that way)."""

    async def go(g: Graph) -> tuple[list[int], list[int]]:
        # Ids in the order of the times: sorted on the id alone, the newest comes last.
        await g.write("UNWIND [1, 2, 3] AS x CREATE (:T {at: x, id: toString(x)})")
        head = "MATCH (a:T) WITH a ORDER BY a.at DESC, a.id LIMIT 3 "
        shadowed = await g.read(head + "RETURN {at: a.at, id: a.id} AS a "
                                       "ORDER BY a.at DESC, a.id")
        taken = await g.read(head + "WITH a, a.at AS at_, a.id AS id_ "
                                    "RETURN {at: a.at, id: a.id} AS a ORDER BY at_ DESC, id_")
        return [r["a"]["at"] for r in shadowed], [r["a"]["at"] for r in taken]

    shadowed, taken = _on_scratch_graph(falkordb, go)
    assert taken == [3, 2, 1]
    assert shadowed == [1, 2, 3], "FalkorDB now sorts a map named as its node right"


def test_collected_nodes_and_unmatched_optional_projections(falkordb: str) -> None:
    """A node taken out of a collected list cannot start a later pattern (the store
    collects ids and matches them again); a map projection of an OPTIONAL MATCH that found
    nothing is a map of nulls, which collect() keeps (callers drop entries without an id)."""

    async def go(g: Graph) -> tuple[str, list[Any], list[Any]]:
        await g.write("CREATE (:A {id: 'x'})-[:R]->(:A {id: 'y'}), (:A {id: 'lonely'})")
        from_list = await _fails(lambda g: g.read(
            "MATCH (a:A {id: 'x'}) WITH collect(a)[0] AS n MATCH (n)-[:R]->(b) RETURN b.id"))(g)
        by_id = (await g.read(
            "MATCH (a:A {id: 'x'}) WITH collect(a.id) AS ids"
            " MATCH (n:A {id: ids[0]})-[:R]->(b) RETURN collect(b.id) AS l")).scalar()
        nulls = (await g.read(
            "MATCH (a:A {id: 'lonely'}) OPTIONAL MATCH (a)-[:R]->(b)"
            " RETURN collect(b {.id}) AS l")).scalar()
        return from_list, by_id, nulls

    from_list, by_id, nulls = _on_scratch_graph(falkordb, go)
    assert "expected Node" in from_list
    assert by_id == ["y"]
    assert nulls == [{"id": None}], "collect() now drops the projection of a missing node"


def test_every_item_of_one_set_reads_the_node_as_it_was(falkordb: str) -> None:
    """store/history.py appends a status to its history in the same SET that writes it, and
    a held action's held_from reads the status it replaces in that SET."""

    async def go(g: Graph) -> Any:
        await g.write("CREATE (:A {id: 'x', status: 'proposed'})")
        return (await g.write(
            "MATCH (a:A) SET a.status = 'held', a.held_from = a.status"
            " RETURN [a.status, a.held_from] AS s")).scalar()

    assert _on_scratch_graph(falkordb, go) == ["held", "proposed"]


def test_two_hops_may_match_one_edge_twice(falkordb: str) -> None:
    """Cypher's rule that one pattern never uses an edge twice does not hold: the far end of
    (d)<-[:R]-(a)-[:R]->(y) comes back as d itself."""

    async def go(g: Graph) -> list[Any]:
        await g.write("CREATE (w:A {id: 'w'}), (w)-[:R]->(:A {id: 'd'}),"
                      " (w)-[:R]->(:A {id: 'e'})")
        return sorted((await g.read(
            "MATCH (d:A {id: 'd'})<-[:R]-(a)-[:R]->(y) RETURN y.id AS y")).column("y"))

    assert _on_scratch_graph(falkordb, go) == ["d", "e"]


def test_an_indexed_empty_string_is_not_found_by_equality(falkordb: str) -> None:
    async def go(g: Graph) -> tuple[int, int]:
        await g.write("CREATE (:T {key: ''}), (:T {key: 'a'})")
        before = (await g.read("MATCH (t:T {key: ''}) RETURN count(t) AS n")).scalar()
        await g.write("CREATE INDEX FOR (t:T) ON (t.key)")
        for _ in range(100):  # index builds are asynchronous
            rows = await g.read("CALL db.indexes() YIELD status RETURN collect(status) AS s")
            if all(s == "OPERATIONAL" for s in rows.scalar()):
                break
            await asyncio.sleep(0.05)
        after = (await g.read("MATCH (t:T {key: ''}) RETURN count(t) AS n")).scalar()
        return before, after

    assert _on_scratch_graph(falkordb, go) == (1, 0)


def test_parameters_and_functions_the_store_does_without(falkordb: str) -> None:
    """A NUL in a parameter breaks the query's parameter header (wire/inputs.py refuses it
    first); datetime() does not exist and timestamp() is epoch milliseconds (the store keeps
    times as epoch ms); CREATE INDEX has no IF NOT EXISTS (the store reads the schema first)."""

    async def go(g: Graph) -> tuple[str, str, Any, str]:
        await g.write("CREATE (:A)")  # reads need the graph to exist
        nul = await _fails(lambda g: g.read("RETURN $s AS s", {"s": "a\x00b"}))(g)
        dt = await _fails(lambda g: g.read("RETURN datetime() AS t"))(g)
        ts = (await g.read("RETURN timestamp() AS t")).scalar()
        ine = await _fails(lambda g: g.write("CREATE INDEX IF NOT EXISTS FOR (a:A) ON (a.id)"))(g)
        return nul, dt, ts, ine

    nul, dt, ts, ine = _on_scratch_graph(falkordb, go)
    assert "Invalid input" in nul
    assert "Unknown function 'datetime'" in dt
    assert isinstance(ts, int) and abs(ts - time.time() * 1000) < 60_000
    assert "Invalid input" in ine


def test_a_query_is_one_transaction_and_a_guard_that_leaves_no_row_writes_nothing(
        falkordb: str) -> None:
    """Rule 8 rests on this: a query that fails at run time after writing leaves none of its
    writes, and a WHERE that leaves no row before the first write makes the query write
    nothing (a stale revision: no row back, answered 409)."""

    async def go(g: Graph) -> tuple[str, int, int, float, int]:
        await g.write("CREATE (:W {id: 'w', revision: 3})")
        failed = await _fails(lambda g: g.write(
            "CREATE (:B {id: 'b'}) WITH 1 AS one RETURN 1 / 0 AS boom"))(g)
        left = (await g.read("MATCH (b:B) RETURN count(b) AS n")).scalar()
        stale = await g.write(
            "MATCH (w:W {id: 'w'}) WHERE w.revision = $rev"
            " SET w.revision = w.revision + 1 CREATE (:B {id: 'c'}) RETURN w.revision",
            {"rev": 2})
        fresh = await g.write(
            "MATCH (w:W {id: 'w'}) WHERE w.revision = $rev"
            " SET w.revision = w.revision + 1 RETURN w.revision AS r", {"rev": 3})
        return (failed, left, len(stale), stale.stats.get("properties_set", 0.0),
                fresh.scalar())

    failed, left, stale_rows, stale_set, fresh = _on_scratch_graph(falkordb, go)
    assert "Division by zero" in failed and left == 0
    assert stale_rows == 0 and stale_set == 0
    assert fresh == 4


def test_a_read_of_a_missing_graph_creates_it_unless_read_only(falkordb: str) -> None:
    """Why every read goes through GRAPH.RO_QUERY: GRAPH.QUERY on a missing graph makes an
    empty one, RO_QUERY refuses it, and RO_QUERY refuses any write."""

    async def go() -> tuple[bool, int, int, str]:
        store = Store(falkordb)
        name = "quirk_missing_" + uuid.uuid4().hex
        try:
            try:
                await store.graph(name).read("MATCH (n) RETURN count(n)")
                refused = False
            except GraphMissing:
                refused = True
            after_ro = await store.command(name, "EXISTS", name)
            await store.command(name, "GRAPH.QUERY", name, "MATCH (n) RETURN count(n)")
            after_query = await store.command(name, "EXISTS", name)
            g = store.graph(name)
            write = await _fails(lambda g: g.read("CREATE (:X)"))(g)
            return refused, after_ro, after_query, write
        finally:
            await store.delete_graph(name)
            await store.close()

    refused, after_ro, after_query, write = asyncio.run(go())
    assert refused and after_ro == 0
    assert after_query == 1, "GRAPH.QUERY no longer creates a missing graph"
    assert "read-only" in write


def test_a_write_past_the_servers_timeout_is_stopped_and_rolled_back(
        tmp_path: pathlib.Path) -> None:
    """A write ignores the per-query timeout; the server's TIMEOUT_DEFAULT, which the
    embedded server sets, stops it and rolls it back."""
    server = EmbeddedFalkorDB(tmp_path, die_with_parent=True, query_timeout_ms=100)
    url = server.start()

    async def go() -> tuple[bool, int]:
        store = Store(url, query_timeout_ms=100)
        g = store.graph("quirk_timeout")
        try:
            try:
                await g.write("UNWIND range(1, 5000000) AS i CREATE (:T {i: i})")
                stopped = False
            except StoreUnavailable:
                stopped = True
            return stopped, (await g.read("MATCH (t:T) RETURN count(t) AS n")).scalar()
        finally:
            await store.close()

    try:
        stopped, left = asyncio.run(go())
    finally:
        server.stop()
    assert stopped and left == 0
