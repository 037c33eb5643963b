"""What a request needs besides the store: the model (offline or gateway) and settings.

``open_services`` is the one way to bring them up (the embedded FalkorDB unless a URL is
set, the store, the registry, the model), shared by the HTTP app, stdio MCP and the demo.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from afterhack.agents.llm import GatewayAnalyst, GatewayCoordinator
from afterhack.agents.offline import OfflineAnalyst, OfflineCoordinator
from afterhack.agents.run import Analyst, Coordinator
from afterhack.config import Settings
from afterhack.embedded import EmbeddedFalkorDB
from afterhack.errors import AfterhackError
from afterhack.ingest import Extractor
from afterhack.llm.embeddings import Embedder, GatewayEmbedder, OfflineEmbedder
from afterhack.llm.extraction import GatewayExtractor
from afterhack.llm.gateway import Gateway
from afterhack.llm.judge import ConflictJudge, GatewayJudge, OfflineJudge
from afterhack.llm.offline import OfflineExtractor
from afterhack.loading import Target, can_wait, wait_until_loaded
from afterhack.model.vocab import SupportPolicy
from afterhack.store.client import Store
from afterhack.store.workspaces import (
    ensure_registry,
    register_schema_everywhere,
    wait_schema_built_everywhere,
)
from afterhack.vectors import Vectors, Worker

log = logging.getLogger("afterhack")

# How long one step of shutting down (a worker, a client, the pool) may take.
SHUTDOWN_STEP_S = 10.0
# A start-up step still running after this long is named in the log, and again each time
# as long again passes: a start that stalls says where, at the default log level.
SLOW_START_STEP_S = 10.0


@contextlib.contextmanager
def start_step(what: str) -> Iterator[None]:
    """Log a WARNING while ``what`` runs past SLOW_START_STEP_S. The reports come from a
    thread of their own, so a step that blocks the event loop is named too."""
    done = threading.Event()
    t0 = time.monotonic()

    def report() -> None:
        while not done.wait(SLOW_START_STEP_S):
            log.warning("start-up: %s has taken %.0f s so far", what, time.monotonic() - t0)

    threading.Thread(target=report, name="afterhack-start-step", daemon=True).start()
    try:
        yield
    finally:
        done.set()


@dataclass
class Services:
    settings: Settings
    store: Store
    extractor: Extractor
    analyst: Analyst
    coordinator: Coordinator
    # Decides whether two statements contradict (the offline detector or the gateway's).
    judge: ConflictJudge
    # None with the offline model.
    gateway: Gateway | None = None
    # The FalkorDB this process started, if any (None with AFTERHACK_FALKORDB_URL).
    embedded: EmbeddedFalkorDB | None = None
    # Claim embeddings (search by meaning); embeddings off is Vectors(None).
    vectors: Vectors = field(default_factory=lambda: Vectors(None))

    @property
    def model_name(self) -> str:
        return self.extractor.name

    @property
    def conflict_judge(self) -> ConflictJudge | None:
        """The judge ingest checks new claims with; None when checks are off."""
        return self.judge if self.settings.conflict_checks else None

    @property
    def policy(self) -> SupportPolicy:
        return self.settings.support_policy

    async def aclose(self) -> None:
        if self.gateway is not None:
            await self.gateway.aclose()


def _embedder(settings: Settings, gateway: Gateway | None) -> Embedder | None:
    if not settings.embeddings:
        return None
    if gateway is not None and settings.embedding_model:
        return GatewayEmbedder(gateway, settings.embedding_model,
                               settings.embedding_max_distance)
    return OfflineEmbedder()


def build_services(settings: Settings, store: Store) -> Services:
    gateway = None if settings.offline_model else Gateway(settings)
    vectors = Vectors(_embedder(settings, gateway), inline=not settings.embedding_worker)
    if gateway is None:
        return Services(settings=settings, store=store, extractor=OfflineExtractor(),
                        analyst=OfflineAnalyst(), coordinator=OfflineCoordinator(),
                        judge=OfflineJudge(), vectors=vectors)
    return Services(settings=settings, store=store, extractor=GatewayExtractor(gateway),
                    analyst=GatewayAnalyst(gateway), coordinator=GatewayCoordinator(gateway),
                    judge=GatewayJudge(gateway), gateway=gateway, vectors=vectors)


async def enable_aof_rewrites(store: Store, embedded: EmbeddedFalkorDB,
                              retry_s: float = 5.0) -> None:
    """Turn FalkorDB's AOF rewrites on once every graph's indexes and constraints are built.

    The embedded FalkorDB starts with them off. After a load that replayed the creation of
    indexes and constraints, FalkorDB builds them over all the data in the background, and a
    rewrite is due at once (the file was all increments). A crash of 4.16.3 while it enforced
    a constraint came with a rewrite's fork, and a crash then leaves the file as long as
    before, to be replayed again at the next start. So the rewrite waits for that build.
    """
    while True:
        try:
            await wait_schema_built_everywhere(store)
            await store.on_primaries("CONFIG", "SET", *embedded.aof_rewrite_settings())
            log.info("indexes and constraints built; FalkorDB's AOF rewrites are on")
            return
        except AfterhackError as exc:
            log.warning("turning FalkorDB's AOF rewrites on failed (%s); retrying", exc)
            await asyncio.sleep(retry_s)


async def supervise(embedded: EmbeddedFalkorDB, store: Store, rewrites: list[asyncio.Task[None]],
                    interval_s: float = 0.5) -> None:
    """Restart the embedded FalkorDB on its own data dir if it dies; requests meanwhile get
    503 and the store reconnects by itself. Its append-only file keeps what was acknowledged."""
    while True:
        await asyncio.sleep(interval_s)
        proc = embedded.process
        if proc is None or proc.poll() is None:
            continue
        log.error("embedded FalkorDB exited with %s; restarting it. Its log ends:\n%s",
                  proc.returncode, embedded.log_tail())
        try:
            # Spawned on this thread, not a worker: FalkorDB is told to exit with the thread
            # that started it (PR_SET_PDEATHSIG). Its load is waited for on a worker, so the
            # app keeps answering (503 from the store) while it replays its file.
            embedded.respawn()
            try:
                await asyncio.to_thread(embedded.wait_ready)
            except BaseException:
                embedded.kill()
                raise
            embedded.restarts += 1
            log.warning("embedded FalkorDB restarted (pid %s)", embedded.pid)
            rewrites.append(asyncio.create_task(enable_aof_rewrites(store, embedded)))
        except Exception:
            log.exception("restarting the embedded FalkorDB failed; retrying")


def open_store(settings: Settings, url: str) -> Store:
    return Store(url, pool_size=settings.falkordb_pool_size,
                 query_timeout_ms=settings.falkordb_query_timeout_ms,
                 read_from_replicas=settings.read_from_replicas,
                 write_replicas=settings.write_replicas,
                 write_replicas_timeout_ms=settings.write_replicas_timeout_ms,
                 failover_wait_s=settings.falkordb_failover_wait_s)


# FalkorDB 4.16.3 can crash right after a load that replayed the creation of its unique
# constraints (a segfault in their enforcement over the loaded data; not every load, see
# bench-results/NOTES.md). Such a file is one this app never rewrote, so it is tried again
# (the app's own restart of a crashed FalkorDB) this many times in all; the first load that
# survives is compacted, and the next start loads a snapshot instead.
_START_ATTEMPTS = 5


async def _open_store(settings: Settings, embedded: EmbeddedFalkorDB | None, url: str) -> Store:
    """Wait for FalkorDB's load, then open the store and check the schema (read-only when it
    is all there); start an embedded FalkorDB again if it dies meanwhile."""
    for attempt in range(1, _START_ATTEMPTS + 1):
        store = None
        try:
            # After a crash FalkorDB replays its data before it answers: wait for as long as
            # that makes progress (on a worker thread; the spawning thread stays this one).
            with start_step("waiting for FalkorDB to load and answer"):
                if embedded is not None:
                    await asyncio.to_thread(embedded.wait_ready)
                elif can_wait(url):
                    await asyncio.to_thread(wait_until_loaded, Target(url),
                                            stall_s=settings.falkordb_load_stall_s)
            with start_step("opening the store and the registry"):
                store = open_store(settings, url)
                await ensure_registry(store)
                await store.learn_plan_cache_size()
            with start_step("checking every workspace's schema"):
                await register_schema_everywhere(store)
            return store
        except Exception:
            if store is not None:
                await store.close()
            proc = embedded.process if embedded is not None else None
            if embedded is None or proc is None or attempt == _START_ATTEMPTS:
                raise
            # A crashing server refuses connections while it still writes its crash report.
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(proc.wait, 10)
            if proc.poll() is None:
                raise
            log.error("embedded FalkorDB exited with %s during start-up; starting it again "
                      "(attempt %d of %d). Its log ends:\n%s", proc.returncode, attempt + 1,
                      _START_ATTEMPTS, embedded.crash_report())
            embedded.respawn()
    raise AssertionError("unreachable")


async def _bounded(what: str, step: Awaitable[object], seconds: float = SHUTDOWN_STEP_S) -> None:
    """Run one shutdown step for at most ``seconds``, then go on without it.

    A step runs as its own task and is abandoned, not cancelled, when late: closing an HTTP
    client whose request was cut short by a timeout can wait forever inside the client's
    own shielded clean-up, and a process that cannot stop is worse than a leaked socket."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        log.warning("shutdown: %s took over %.0f s; going on without it", what, seconds)
        return
    with contextlib.suppress(asyncio.CancelledError):
        if task.exception() is not None:
            log.warning("shutdown: %s failed: %s", what, task.exception())


@asynccontextmanager
async def open_services(settings: Settings) -> AsyncIterator[Services]:
    """Start (or reach) FalkorDB, open the store and the model; close all of it on exit."""
    embedded = None
    url = settings.falkordb_url
    if not url:
        embedded = EmbeddedFalkorDB(settings.data_dir,
                                    query_timeout_ms=settings.falkordb_query_timeout_ms,
                                    load_stall_s=settings.falkordb_load_stall_s,
                                    defer_aof_rewrites=True)
        url = embedded.spawn()
        log.info("embedded FalkorDB started (pid %s) at %s", embedded.pid, url)
    try:
        store = await _open_store(settings, embedded, url)
        services = None
        rewrites: list[asyncio.Task[None]] = []
        watchdog = (asyncio.create_task(supervise(embedded, store, rewrites))
                    if embedded is not None else None)
        try:
            if embedded is not None:
                rewrites.append(asyncio.create_task(enable_aof_rewrites(store, embedded)))
            with start_step("building the services"):
                services = build_services(settings, store)
            services.embedded = embedded
            if services.vectors.enabled:
                services.vectors.worker = Worker(
                    store, services.vectors,
                    rescan_s=60.0 if settings.embedding_worker else None)
                services.vectors.worker.start()
            yield services
        finally:
            for task in [*rewrites, *([watchdog] if watchdog is not None else [])]:
                task.cancel()
                await _bounded(f"stopping {task.get_name()}", task)
            if services is not None:
                if services.vectors.worker is not None:
                    await _bounded("stopping the vector worker", services.vectors.worker.stop())
                await _bounded("closing the model gateway", services.aclose())
            await _bounded("closing the FalkorDB connections", store.close())
    finally:
        if embedded is not None:
            embedded.stop()
