"""Reading a local FalkorDB cluster's nodes straight (for the cluster tests' checks)."""

from __future__ import annotations

import time

from afterhack.cluster.local import LocalCluster, NodeSpec
from tests.support.commands import command


def nodes(cluster: LocalCluster) -> list[NodeSpec]:
    state = cluster.load_state()
    assert state is not None
    return state.nodes


def roles(cluster: LocalCluster) -> dict[int, str]:
    """Port -> "master" or "replica", as each running node says now."""
    return {s.port: s.role for s in cluster.status() if s.running}


def master_of(cluster: LocalCluster, key: str) -> int:
    """The port of the master that holds ``key`` now."""
    n = nodes(cluster)[0]
    with cluster.client(n) as c:
        slot = int(command(c, "CLUSTER", "KEYSLOT", key))
        for first, last, master, *_ in command(c, "CLUSTER", "SLOTS"):
            if first <= slot <= last:
                return int(master[1])
    raise AssertionError(f"no master holds {key}")


def keys_per_master(cluster: LocalCluster, prefix: str) -> dict[int, int]:
    out = {}
    for port, role in roles(cluster).items():
        if role == "master":
            with cluster.client(cluster.node(port)) as c:
                out[port] = sum(1 for _ in c.scan_iter(match=prefix + "*", count=1000))
    return out


def command_calls(cluster: LocalCluster, command: str) -> dict[int, int]:
    """Port -> calls of ``command`` since the stats were last reset (INFO commandstats)."""
    out = {}
    for n in nodes(cluster):
        with cluster.client(n) as c:
            stats = c.info("commandstats")
            out[n.port] = int(stats.get(f"cmdstat_{command}", {}).get("calls", 0))
    return out


def reset_stats(cluster: LocalCluster) -> None:
    for n in nodes(cluster):
        with cluster.client(n) as c:
            command(c, "CONFIG", "RESETSTAT")


def settle(cluster: LocalCluster, timeout_s: float = 60.0) -> None:
    """Until every replica has applied all its master has sent (replication is async); the
    timeout only ends a hang."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        behind = False
        for n in nodes(cluster):
            with cluster.client(n) as c:
                info = c.info("replication")
                if info.get("role") != "slave":
                    continue
                with cluster.client(cluster.node(int(info["master_port"]))) as m:
                    target = int(m.info("replication")["master_repl_offset"])
                behind |= int(info.get("slave_repl_offset", -1)) < target
        if not behind:
            return
        time.sleep(0.02)
    raise AssertionError("replicas did not catch up with their masters")
