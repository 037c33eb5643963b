"""FalkorDB's files, node by node: rewritten so that what the graphs no longer hold is no
longer written on any node's disk (docs/decisions/0041-forgetting-on-disk.md).

A write that removes words from a graph leaves them in the files every node keeps: the
append-only file (its base and the increments since), and an RDB snapshot where one was
written (a replica writes one at every full sync and keeps it). Rewriting the append-only
file replaces them with a snapshot of the data as it is, and Redis unlinks the files it
replaced before it reports the rewrite done; a fresh snapshot replaces an old RDB the same
way. Both run in a child process of the server (a fork): ``BGREWRITEAOF`` and ``BGSAVE``
answer at once, and INFO says when the child has finished. What Redis does with the files
is in docs/falkordb.md, "Rewriting the files".

Every command here is keyless and sent to one node on purpose (``Store.on_node``): the one
server and its replicas, or every master and replica a cluster lists, failed ones
included (a node that cannot be reached has not been rewritten).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from afterhack.errors import StoreUnavailable
from afterhack.store.client import QueryFailed, Store
from afterhack.store.reply import info_fields

# How often INFO is read while a node's child process runs.
POLL_S = 0.02
# How long a replica may take to apply what its master had when the rewrite began.
CATCH_UP_S = 30.0


class RewriteFailed(StoreUnavailable):
    """A node could not rewrite its files (its child failed, it restarted meanwhile, or a
    replica stayed behind its master); the rewrite is tried again later."""


@dataclass(frozen=True)
class DiskNode:
    address: str  # host:port, or the unix socket of the one server
    replica: bool
    master: str | None  # a replica's master, by address
    cluster: bool

    @property
    def readonly(self) -> bool:
        """Graph commands on a cluster replica need a connection that said READONLY."""
        return self.cluster and self.replica


@dataclass(frozen=True)
class NodeRewrite:
    """What one node's rewrite did: its append-only file rewritten, a snapshot written,
    the file's size before and after (bytes), and how long it took."""

    address: str
    replica: bool
    aof: bool
    rdb: bool
    aof_bytes_before: int
    aof_bytes_after: int
    seconds: float


async def disk_nodes(store: Store) -> list[DiskNode]:
    """Every node that keeps files of this store's data: on a cluster each node CLUSTER
    NODES lists (a failed one too: it has files, and must be rewritten before they can be
    called clean); on one server, that server and the replicas it reports."""
    cluster, first = await store.topology()
    if not cluster:
        info = await node_info(store, first, "replication")
        nodes = [DiskNode(first, replica=False, master=None, cluster=False)]
        for key, value in sorted(info.items()):
            if key.startswith("slave") and key[5:].isdigit():
                fields = dict(part.partition("=")[::2] for part in value.split(","))
                nodes.append(DiskNode(f"{fields['ip']}:{fields['port']}", replica=True,
                                      master=first, cluster=False))
        return nodes
    text = str(await store.on_node(first, "CLUSTER", "NODES"))
    rows: list[tuple[str, str, set[str], str]] = []
    for line in text.strip().splitlines():
        node_id, address, flag_list, master_id = line.split()[:4]
        rows.append((node_id, address, set(flag_list.split(",")), master_id))
    address_of = {}
    for node_id, address, flags, _ in rows:
        host_port = address.split("@", 1)[0]
        # A node that does not know its own address yet is the one that answered.
        address_of[node_id] = first if "myself" in flags and host_port.startswith(":") \
            else host_port
    out = []
    for node_id, _, flags, master_id in rows:
        if "handshake" in flags:
            continue  # being introduced: not a member yet, and holds no data
        replica = "slave" in flags
        out.append(DiskNode(address_of[node_id], replica=replica,
                            master=address_of.get(master_id) if replica else None,
                            cluster=True))
    return out


async def node_info(store: Store, address: str, *sections: str) -> dict[str, str]:
    return dict(info_fields(str(await store.on_node(address, "INFO", *sections))))


def _int(info: dict[str, str], key: str) -> int:
    try:
        return int(info.get(key, "0"))
    except ValueError:
        return 0


async def _wait_child(store: Store, node: DiskNode, run_id: str, done: str,
                      busy: tuple[str, ...], count: str, before: int) -> dict[str, str]:
    """Poll INFO until the node's child that ``count`` counts has started after ``before``
    and finished (none of ``busy`` set); its status is ``done``. Raise RewriteFailed if the
    node restarted meanwhile (its counters start again from zero) or the child failed."""
    while True:
        info = await node_info(store, node.address, "server", "persistence")
        if info.get("run_id") != run_id:
            raise RewriteFailed(f"FalkorDB at {node.address} restarted during a rewrite")
        if _int(info, count) > before and not any(_int(info, b) for b in busy):
            if info.get(done) != "ok":
                raise RewriteFailed(f"FalkorDB at {node.address}: {done} is {info.get(done)}")
            return info
        await asyncio.sleep(POLL_S)


async def rewrite_aof(store: Store, node: DiskNode) -> tuple[int, int] | None:
    """Rewrite the node's append-only file, and wait until the rewrite is done; its size
    before and after, or None when the node keeps none. A rewrite already running (Redis's
    own, started by its size rule) may have forked before the words were removed: it is let
    finish, and one started after is waited for."""
    busy = ("aof_rewrite_in_progress", "aof_rewrite_scheduled")
    while True:
        info = await node_info(store, node.address, "server", "persistence")
        if info.get("aof_enabled") != "1":
            return None
        if any(_int(info, b) for b in busy):
            await asyncio.sleep(POLL_S)
            continue
        size = _int(info, "aof_current_size")
        before = _int(info, "aof_rewrites")
        try:
            # Started, or scheduled behind a snapshot being written: either way it forks
            # after this command.
            await store.on_node(node.address, "BGREWRITEAOF")
        except QueryFailed as exc:
            if "in progress" in str(exc):
                continue  # another began between the read and the command: wait it out
            raise
        done = await _wait_child(store, node, info["run_id"], "aof_last_bgrewrite_status",
                                 busy, "aof_rewrites", before)
        return size, _int(done, "aof_current_size")


async def save_rdb(store: Store, node: DiskNode) -> None:
    """Write a fresh snapshot over the node's RDB file (``BGSAVE SCHEDULE``: after a
    rewrite still running, if any), and wait until it is written."""
    info = await node_info(store, node.address, "server", "persistence")
    before = _int(info, "rdb_saves")
    await store.on_node(node.address, "BGSAVE", "SCHEDULE")
    await _wait_child(store, node, info["run_id"], "rdb_last_bgsave_status",
                      ("rdb_bgsave_in_progress",), "rdb_saves", before)


async def replication_offset(store: Store, node: DiskNode) -> int:
    """How far the node's replication stream has come (a master's: all it has written)."""
    return _int(await node_info(store, node.address, "replication"), "master_repl_offset")


async def wait_caught_up(store: Store, replica: DiskNode, offset: int,
                         timeout_s: float = CATCH_UP_S) -> None:
    """Until the replica has applied its master's stream up to ``offset``: a replica
    rewritten before then would write into its new file what the master has removed."""
    deadline = time.monotonic() + timeout_s
    while True:
        info = await node_info(store, replica.address, "replication")
        if (info.get("master_link_status") == "up" and not _int(info, "master_sync_in_progress")
                and _int(info, "slave_repl_offset") >= offset):
            return
        if time.monotonic() > deadline:
            raise RewriteFailed(f"the replica at {replica.address} did not catch up with its "
                                f"master within {timeout_s:.0f} s")
        await asyncio.sleep(POLL_S)


async def keep_no_query_log(store: Store, node: DiskNode) -> None:
    """FalkorDB copies each graph's recent queries, parameters included, into a stream key
    ``telemetry{<graph>}``, persisted and replicated like any key, every second or so;
    ``MAX_INFO_QUERIES 0`` makes it keep none (the embedded server and the local cluster
    are started so). Set on every node at each rewrite, since a restart forgets it."""
    await store.on_node(node.address, "GRAPH.CONFIG", "SET", "MAX_INFO_QUERIES", "0")


async def drop_query_logs(store: Store, node: DiskNode) -> int:
    """Delete the query log streams a master holds (its replicas follow); how many."""
    cursor, dropped = "0", 0
    while True:
        cursor, keys = await store.on_node(node.address, "SCAN", cursor, "MATCH",
                                           "telemetry{*", "TYPE", "stream", "COUNT", "1000")
        for key in keys:
            dropped += int(await store.on_node(node.address, "DEL", key))
        if str(cursor) == "0":
            return dropped


async def reset_slow_logs(store: Store, node: DiskNode) -> int:
    """Empty the node's slow logs, which keep the text of slow commands, parameters
    included: Redis's (``SLOWLOG RESET``, replicated commands too) and FalkorDB's per
    graph (``GRAPH.SLOWLOG <graph> RESET``). In memory only, but a caller may read them.
    Returns how many graph logs were emptied."""
    graphs = await store.on_node(node.address, "GRAPH.LIST", readonly=node.readonly)
    for name in graphs or []:
        try:
            await store.on_node(node.address, "GRAPH.SLOWLOG", name, "RESET",
                                readonly=node.readonly)
        except QueryFailed:
            continue  # deleted since it was listed
    await store.on_node(node.address, "SLOWLOG", "RESET")
    return len(graphs or [])
