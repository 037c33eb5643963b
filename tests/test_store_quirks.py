"""FalkorDB behaviours the store depends on, checked against the real server."""

from __future__ import annotations

import asyncio
import uuid

from fastapi.testclient import TestClient

from afterhack.store.client import Store
from afterhack.store.names import graph_name


def test_comprehension_plan_cached_before_a_relationship_type_existed(falkordb: str) -> None:
    """The server bug itself: why workspace graphs prime their relationship types."""

    async def go() -> tuple[int, int]:
        store = Store(falkordb)
        g = store.graph("quirk_" + uuid.uuid4().hex)
        try:
            await g.write("CREATE (:C {id:'a'}), (:C {id:'b'})")
            q = "MATCH (c:C {id:'b'}) RETURN size([(c)<-[s:NEWTYPE]-(:C) | s]) AS n"
            await g.read(q)
            await g.write("MATCH (a:C {id:'a'}), (b:C {id:'b'}) CREATE (a)-[:NEWTYPE]->(b)")
            stale = (await g.read(q)).scalar()
            fresh = (await g.read(q + " ")).scalar()
            return stale, fresh
        finally:
            await store.delete_graph(g.name)
            await store.close()

    stale, fresh = asyncio.run(go())
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
