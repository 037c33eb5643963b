"""FalkorDB's files after an erasure, on every node of a cluster: two masters, a replica
each (a local cluster of its own, under a temporary dir). A replica keeps a copy of the
data besides its append-only file: the RDB snapshot its last full sync wrote, which no
rewrite of the append-only file touches. After the scrubber, no byte of the erased words
is under any node's dir, and none once every node has restarted; and while any node is
down, nothing is marked clean.

Nodes are started on the test's own thread, never a worker's: they are told to exit with
the thread that started them. They write their snapshots uncompressed
(``rdbcompression no``) so a search of bytes can see what they hold
(tests/support/bytescan.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from afterhack.cluster.local import LocalCluster, NodeSpec
from afterhack.errors import StoreUnavailable
from afterhack.memory.workspaces import create_workspace
from afterhack.records.clock import now_ms
from afterhack.runtime.scrub import DiskScrubber
from afterhack.store.client import Graph, Store
from afterhack.store.workspaces import ensure_registry, workspace_graph
from tests.support import clusters
from tests.support.bytescan import scan
from tests.support.commands import command

SECRET = "Ana's number is +49 151 2345 6789"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    c = LocalCluster(tmp_path_factory.mktemp("scrubbed"), masters=2, replicas=1,
                     die_with_parent=True)
    c.up()
    _uncompressed(c)
    try:
        yield c
    finally:
        c.down()


@pytest.fixture
async def store(cluster: LocalCluster) -> AsyncIterator[Store]:
    s = Store(cluster.url)
    await ensure_registry(s, now_ms())
    try:
        yield s
    finally:
        await s.close()


def _uncompressed(cluster: LocalCluster) -> None:
    for n in clusters.nodes(cluster):
        with cluster.client(n) as c:
            command(c, "CONFIG", "SET", "rdbcompression", "no")


def _replica_of(cluster: LocalCluster, master_port: int) -> NodeSpec:
    for n in clusters.nodes(cluster):
        with cluster.client(n) as c:
            info = c.info("replication")
        if info.get("role") == "slave" and int(info["master_port"]) == master_port:
            return n
    raise AssertionError(f"no replica of {master_port}")


def _restart(cluster: LocalCluster, node: NodeSpec) -> None:
    cluster.kill(node.port)
    cluster.start_node(node)
    cluster.wait_ready()
    _uncompressed(cluster)


async def _claim(store: Store, name: str) -> Graph:
    ws = await create_workspace(store, name, "test")
    g = workspace_graph(store, ws["id"])
    await g.write("CREATE (:Claim:Node {id: 'c1', statement: $s, kept: 'the launch'}), "
                  "(:Erasure:Node {id: 'e1', status: 'applied', applied_at: 1, "
                  "disk: 'pending'})", {"s": SECRET})
    return g


async def _disk(g: Graph) -> str:
    rows = await g.read("MATCH (e:Node {id: 'e1'}) WHERE e:Erasure RETURN e.disk AS d")
    return str(rows[0]["d"])


async def test_every_master_and_replica_is_rewritten_and_stays_clean_after_a_restart(
        cluster: LocalCluster, store: Store) -> None:
    g = await _claim(store, "rewritten")
    master = clusters.master_of(cluster, g.name)
    replica = _replica_of(cluster, master)
    clusters.settle(cluster)
    # A replica started again syncs the whole data set from its master, and keeps the
    # snapshot it received.
    _restart(cluster, replica)
    hits = {h.path.relative_to(cluster.data_dir).as_posix()
            for h in scan(cluster.data_dir, SECRET)}
    assert f"node-{replica.port}/dump.rdb" in hits
    assert any(h.startswith(f"node-{master}/appendonlydir/") for h in hits), hits
    await g.write("MATCH (c:Node {id: 'c1'}) SET c.statement = '[erased]'")

    report = await DiskScrubber(store).scrub()

    assert scan(cluster.data_dir, SECRET) == [], [str(h) for h in
                                                  scan(cluster.data_dir, SECRET)]
    ports = {int(r.address.rsplit(":", 1)[1]): r for r in report.nodes}
    assert set(ports) == {n.port for n in clusters.nodes(cluster)}
    assert all(r.aof and r.rdb for r in report.nodes)
    assert ports[replica.port].replica and not ports[master].replica
    assert report.marked_clean == 1 and await _disk(g) == "clean"

    cluster.down()
    cluster.up()
    _uncompressed(cluster)
    assert scan(cluster.data_dir, SECRET) == []
    rows = await g.read("MATCH (c:Node {id: 'c1'}) RETURN c.statement AS s, c.kept AS k")
    assert (rows[0]["s"], rows[0]["k"]) == ("[erased]", "the launch")


async def test_nothing_is_clean_while_a_node_is_down(
        cluster: LocalCluster, store: Store) -> None:
    g = await _claim(store, "one node down")
    replica = _replica_of(cluster, clusters.master_of(cluster, g.name))
    clusters.settle(cluster)
    cluster.kill(replica.port)
    try:
        with pytest.raises(StoreUnavailable):
            await DiskScrubber(store).scrub()
        assert await _disk(g) == "pending"
    finally:
        cluster.start_node(replica)
        cluster.wait_ready()
        _uncompressed(cluster)
    report = await DiskScrubber(store).scrub()
    assert report.marked_clean == 1 and await _disk(g) == "clean"
