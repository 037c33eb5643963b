"""Wait for a FalkorDB that is loading its data, for as long as the load moves.

After a crash FalkorDB replays its append-only file before it serves a command. While it
replays the incremental part it answers nothing at all between batches of commands, so a
client with a read timeout gives up on a healthy server (and an app that gives up shuts an
embedded FalkorDB down mid-load: every retry then starts from scratch). Here one connection
asks ``INFO persistence`` and waits for the answer however long it takes, while progress is
read from what moves: the bytes FalkorDB says it has loaded, and for a server this process
started, its CPU time and its read position in the file it is loading. Only a load that
stops moving for ``stall_s`` (or a server that exits) is a failure.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import socket
import ssl
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

import hiredis

from afterhack.errors import AfterhackError

log = logging.getLogger("afterhack")

_TICK_S = 0.5
_CONNECT_TIMEOUT_S = 2.0


class LoadFailed(AfterhackError):
    code = "falkordb_load_failed"


@dataclass(frozen=True)
class LoadReport:
    seconds: float
    # False when FalkorDB answered at once (nothing to replay, or a server already up).
    loaded: bool


@dataclass
class _Progress:
    """The last value of each signal, and when any of them last moved."""

    moved_at: float
    cpu_ticks: int | None = None
    loaded_bytes: int | None = None
    file_pos: int | None = None

    def update(self, now: float, *, cpu_ticks: int | None = None,
               loaded_bytes: int | None = None, file_pos: int | None = None) -> None:
        for name, value in (("cpu_ticks", cpu_ticks), ("loaded_bytes", loaded_bytes),
                            ("file_pos", file_pos)):
            if value is None:
                continue
            if value != getattr(self, name):
                self.moved_at = now
            setattr(self, name, value)


@dataclass
class Target:
    """What to wait for: a URL, and when this process started the server, its process and
    data dir (for the signals only a local process gives)."""

    url: str
    process: subprocess.Popen[bytes] | None = None
    data_dir: Path | None = None
    # Called with the server's log tail when it exits or stalls.
    log_tail: Callable[[], str] = lambda: ""


# The URL forms this module can reach on its own (the store's single-server forms).
_SCHEMES = ("unix", "redis", "rediss", "falkor", "falkors")


def can_wait(url: str) -> bool:
    # A URL listing several cluster nodes (store/resp.py) is not waited for here: the store
    # asks the first that answers, and a node still loading answers LOADING (a 503).
    u = urlparse(url)
    return u.scheme in _SCHEMES and "," not in u.netloc


def wait_until_loaded(target: Target, *, stall_s: float, unreachable_s: float = 30.0,
                      report_every_s: float = 5.0) -> LoadReport:
    """Return once FalkorDB answers PING; raise LoadFailed if it exits, stops making
    progress for ``stall_s``, or (a server this process did not start) cannot be reached
    for ``unreachable_s``."""
    waiter = _Waiter(target, report_every_s)
    try:
        while True:
            _check_process(target)
            if waiter.step():
                seconds = round(time.monotonic() - waiter.started, 3)
                if waiter.loading_seen:
                    log.info("FalkorDB loaded its data in %.1f s", seconds)
                return LoadReport(seconds=seconds, loaded=waiter.loading_seen)
            now = time.monotonic()
            if target.process is not None:
                waiter.progress.update(now, cpu_ticks=_cpu_ticks(target.process.pid))
                pos = _load_position(target)
                waiter.progress.update(now, file_pos=pos[1] if pos else None)
            elapsed = now - waiter.started
            if now - waiter.progress.moved_at > stall_s:
                raise LoadFailed(
                    f"FalkorDB made no progress loading its data for {stall_s:.0f} s "
                    f"(after {elapsed:.0f} s); its log ends:\n{target.log_tail()}")
            if target.process is None and now - waiter.reached_at > unreachable_s:
                raise LoadFailed(f"FalkorDB at {_safe(target.url)} cannot be reached "
                                 f"({unreachable_s:.0f} s)")
            if now - waiter.reported_at >= report_every_s and (waiter.loading_seen
                                                                  or elapsed > 1):
                waiter.reported_at = now
                log.info("%s", _describe(target, waiter.info, elapsed))
    finally:
        waiter.close()


class _Waiter:
    """One exchange at a time on one connection: INFO persistence until it says the load
    is over, then PING until PONG."""

    def __init__(self, target: Target, report_every_s: float) -> None:
        self.target = target
        self.started = time.monotonic()
        self.reached_at = self.started
        # The first report a second in, then one every report_every_s.
        self.reported_at = self.started - report_every_s + 1
        self.progress = _Progress(moved_at=self.started)
        self.loading_seen = False
        self.info: dict[str, str] = {}
        self._conn: _Conn | None = None

    def step(self) -> bool:
        """Wait one tick for a reply; True once the server answered PONG."""
        if self._conn is None:
            try:
                self._conn = _Conn.open(self.target.url)
                self._conn.send("INFO", "persistence")
            except (OSError, ssl.SSLError):
                self.close()
                time.sleep(_TICK_S)
                return False
        self.reached_at = time.monotonic()
        try:
            reply = self._conn.poll(_TICK_S)
            if reply is None:
                return False
            if isinstance(reply, hiredis.ReplyError):
                if "LOADING" not in str(reply):
                    raise LoadFailed(f"FalkorDB refused the start-up check: {reply}")
                self.loading_seen = True
                self._conn.send("INFO", "persistence")
                return False
            if reply == "PONG":
                return True
            self.info = _parse_info(str(reply))
            if self.info.get("loading") != "1":
                self._conn.send("PING")
                return False
            self.loading_seen = True
            self.progress.update(time.monotonic(),
                                 loaded_bytes=_int(self.info.get("loading_loaded_bytes")))
            time.sleep(_TICK_S)
            self._conn.send("INFO", "persistence")
        except (OSError, ssl.SSLError, hiredis.ProtocolError, EOFError):
            self.close()  # it went away (or restarted): connect again
        return False

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _check_process(target: Target) -> None:
    proc = target.process
    if proc is not None and proc.poll() is not None:
        raise LoadFailed(f"FalkorDB exited with code {proc.returncode} while starting; "
                         f"its log ends:\n{target.log_tail()}")


def _describe(target: Target, info: dict[str, str], elapsed: float) -> str:
    parts = [f"FalkorDB is loading its data ({elapsed:.0f} s so far"]
    pos = _load_position(target)
    if pos is not None:
        name, at, size = pos
        parts.append(f"; reading {name}: {at / 1e6:.1f} of {size / 1e6:.1f} MB, "
                     f"{100 * at // max(size, 1)}%")
    elif info.get("loading") == "1":
        total = _int(info.get("loading_total_bytes")) or 0
        parts.append(f"; {info.get('loading_loaded_perc', '?')}% of {total / 1e6:.1f} MB")
    eta = _int(info.get("loading_eta_seconds"))
    if info.get("loading") == "1" and eta is not None and eta > 0:
        parts.append(f", about {eta} s to go by its estimate")
    return "".join(parts) + "); the app waits for it"


def _parse_info(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and not key.startswith("#"):
            out[key.strip()] = value.strip()
    return out


def _int(value: str | None) -> int | None:
    try:
        return int(float(value)) if value is not None else None
    except ValueError:
        return None


def _cpu_ticks(pid: int) -> int | None:
    """User plus system CPU ticks of a process (Linux /proc), None where unreadable."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces; the fields after it do not.
    fields = stat.rsplit(")", 1)[-1].split()
    try:
        return int(fields[11]) + int(fields[12])
    except (IndexError, ValueError):
        return None


def _load_position(target: Target) -> tuple[str, int, int] | None:
    """(file name, read position, size) of the persistence file the server has open for
    reading under its data dir, from /proc; None when there is none (or no /proc)."""
    if target.process is None or target.data_dir is None:
        return None
    pid = target.process.pid
    fd_dir = Path(f"/proc/{pid}/fd")
    try:
        fds = list(fd_dir.iterdir())
    except OSError:
        return None
    for fd in fds:
        try:
            path = Path(os.readlink(fd))
        except OSError:
            continue
        if not path.is_relative_to(target.data_dir) or path.suffix not in (".aof", ".rdb"):
            continue
        try:
            fdinfo = Path(f"/proc/{pid}/fdinfo/{fd.name}").read_text()
            pos = next(int(x.split()[1]) for x in fdinfo.splitlines() if x.startswith("pos:"))
            size = path.stat().st_size
        except (OSError, StopIteration, ValueError, IndexError):
            continue
        if pos < size:  # the file being appended to sits at its end; the one loading does not
            return path.name, pos, size
    return None


def _safe(url: str) -> str:
    u = urlparse(url)
    return url if not u.password else url.replace(u.password, "***", 1)


class _Conn:
    """One plain RESP connection whose reply is awaited in ticks, never abandoned: a reply
    that arrives late is still read, so the connection stays in step."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._reader = hiredis.Reader(encoding="utf-8", errors="replace")

    @classmethod
    def open(cls, url: str) -> _Conn:
        u = urlparse(url)
        sock: socket.socket
        if u.scheme == "unix":
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(_CONNECT_TIMEOUT_S)
            try:
                sock.connect(u.path)
            except BaseException:
                sock.close()
                raise
        else:
            sock = socket.create_connection((u.hostname or "localhost", u.port or 6379),
                                            timeout=_CONNECT_TIMEOUT_S)
            if u.scheme in ("rediss", "falkors"):
                ctx = ssl.create_default_context()
                sock = ctx.wrap_socket(sock, server_hostname=u.hostname)
        conn = cls(sock)
        if u.password:
            user = unquote(u.username) if u.username else None
            auth = ("AUTH", user, unquote(u.password)) if user else ("AUTH", unquote(u.password))
            conn.send(*auth)
            deadline = time.monotonic() + 60
            while (reply := conn.poll(_TICK_S)) is None:
                if time.monotonic() > deadline:
                    conn.close()
                    raise OSError("FalkorDB did not answer AUTH")
            if isinstance(reply, hiredis.ReplyError):
                conn.close()
                raise LoadFailed(f"FalkorDB refused the login: {reply}")
        return conn

    def send(self, *args: str) -> None:
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            b = a.encode()
            out.append(b"$%d\r\n%s\r\n" % (len(b), b))
        self._sock.settimeout(_CONNECT_TIMEOUT_S)
        self._sock.sendall(b"".join(out))

    def poll(self, timeout_s: float) -> object:
        """The reply if it is complete within ``timeout_s``, else None (keep polling)."""
        reply = self._reader.gets()
        if reply is not False:
            return reply
        pending = isinstance(self._sock, ssl.SSLSocket) and self._sock.pending()
        if not pending:
            ready, _, _ = select.select([self._sock], [], [], timeout_s)
            if not ready:
                return None
        data = self._sock.recv(1 << 16)
        if not data:
            raise EOFError("FalkorDB closed the connection")
        self._reader.feed(data)
        reply = self._reader.gets()
        return None if reply is False else reply

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()
