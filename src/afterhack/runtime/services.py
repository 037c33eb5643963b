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
from afterhack.errors import AfterhackError
from afterhack.llm.embeddings import Embedder, GatewayEmbedder, OfflineEmbedder
from afterhack.llm.extraction import GatewayExtractor
from afterhack.llm.gateway import Gateway
from afterhack.llm.judge import ConflictJudge, GatewayJudge, OfflineJudge
from afterhack.llm.meaning import word_meaning
from afterhack.llm.offline import OfflineExtractor
from afterhack.memory import backup, checks, conflict_migration
from afterhack.memory.extraction import Extractor
from afterhack.memory.scope import Parts
from afterhack.memory.workspaces import Workspaces
from afterhack.model.vocab import SupportPolicy
from afterhack.records.clock import now_ms
from afterhack.retrieval.vectors import AfterWrite, Vectors, Worker
from afterhack.runtime.disk_scrub import DiskScrub, NoDiskScrub
from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.runtime.loading import Target, can_wait, wait_until_loaded
from afterhack.runtime.sandbox import FileReaders
from afterhack.runtime.scrub import DiskScrubber
from afterhack.store import plancache
from afterhack.store.client import NOT_ANSWERING, Graph, Store
from afterhack.store.workspaces import (
    ensure_registry,
    register_schema_everywhere,
    wait_schema_built_everywhere,
)

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
class StoreWatch:
    """What the app knows of FalkorDB between requests: why it is not answering (None while
    it is), since when it has been silent, and how often the app restarted a stuck one."""

    reason: str | None = None
    silent_since: float | None = None
    stuck_restarts: int = 0

    def silent_for(self, now: float) -> float:
        return 0.0 if self.silent_since is None else now - self.silent_since


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
    # What the app knows of FalkorDB between requests (health reads it).
    watch: StoreWatch = field(default_factory=StoreWatch)
    # Claim embeddings (search by meaning); embeddings off is Vectors(None).
    vectors: Vectors = field(default_factory=lambda: Vectors(None))
    # Rewrites FalkorDB's files after an erasure or a workspace deletion: the disk
    # scrubber (runtime/scrub.py) in an app open_services started, a stand-in
    # that rewrites nothing elsewhere (runtime/disk_scrub.py).
    scrubber: DiskScrub = field(default_factory=NoDiskScrub)
    # Uploaded files are read by worker processes, within their limits.
    readers: FileReaders = field(init=False)
    # The memory the transports use: every workspace, each opened for a caller.
    workspaces: Workspaces = field(init=False)

    def __post_init__(self) -> None:
        self.readers = FileReaders.of(self.settings)
        self.workspaces = Workspaces(Parts(
            store=self.store, settings=self.settings, extractor=self.extractor,
            analyst=self.analyst, coordinator=self.coordinator, judge=self.judge,
            vectors=self.vectors, disk=lambda: self.scrubber, read_file=self.readers.read))

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


def meaning_checks(judge: ConflictJudge | None) -> AfterWrite | None:
    """What the vector worker does after each batch it writes: check those claims against
    their nearest current claims by meaning (memory/checks.py); nothing when conflict
    checks are off. A failure is logged and the worker goes on: the claims are stored, and
    what they contradict by words was checked at their ingest."""
    if judge is None:
        return None

    async def after(g: Graph, claim_ids: list[str]) -> None:
        try:
            await checks.check_by_meaning(g, judge, claim_ids)
        except AfterhackError as exc:
            log.warning("conflict check by meaning skipped for %d claims: %s",
                        len(claim_ids), exc)

    return after


def build_services(settings: Settings, store: Store) -> Services:
    gateway = None if settings.offline_model else Gateway(settings)
    embedder = _embedder(settings, gateway)
    vectors = Vectors(embedder, inline=not settings.embedding_worker)
    if gateway is None:
        return Services(settings=settings, store=store, extractor=OfflineExtractor(),
                        analyst=OfflineAnalyst(), coordinator=OfflineCoordinator(),
                        judge=OfflineJudge(word_meaning(embedder)), vectors=vectors)
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


# How often the watch checks on FalkorDB, and how long one ping may take to be answered.
WATCH_EVERY_S = 1.0
PROBE_TIMEOUT_S = 1.0


async def _restart_exited(embedded: EmbeddedFalkorDB, store: Store, watch: StoreWatch,
                          rewrites: list[asyncio.Task[None]]) -> None:
    """Start the embedded FalkorDB again on its own data dir after it exited (or was
    stopped for not answering); its append-only file keeps what was acknowledged."""
    proc = embedded.process
    log.error("embedded FalkorDB exited with %s; restarting it. Its log ends:\n%s",
              proc.returncode if proc is not None else None, embedded.log_tail())
    watch.reason = "restarting"
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


async def _check_answers(store: Store, settings: Settings, watch: StoreWatch,
                         embedded: EmbeddedFalkorDB | None) -> None:
    """One ping. Silent past falkordb_unresponsive_s: calls stop waiting on it. An embedded
    one silent past falkordb_stuck_restart_s while its process lives is stopped by its pid,
    to be started again by the exit check."""
    probe = await store.probe(PROBE_TIMEOUT_S)
    now = time.monotonic()
    if probe.answering:
        if watch.reason is not None:
            log.warning("FalkorDB answers again (it was %s for %.1f s)", watch.reason,
                        watch.silent_for(now))
        watch.reason, watch.silent_since = None, None
        store.declare_answering()
        return
    watch.reason = probe.reason
    if probe.reason != NOT_ANSWERING:
        # Refused or loading: calls fail at once by themselves.
        watch.silent_since = None
        store.declare_answering()
        return
    if watch.silent_since is None:
        watch.silent_since = now
    silent = now - watch.silent_since
    if silent >= settings.falkordb_unresponsive_s and store.unresponsive is None:
        log.error("FalkorDB has not answered a ping for %.1f s; requests answer 503 "
                  "graph_store_unavailable until it does", silent)
        store.declare_unresponsive()
    proc = embedded.process if embedded is not None else None
    if (embedded is not None and proc is not None and proc.poll() is None
            and silent >= settings.falkordb_stuck_restart_s):
        log.error("embedded FalkorDB (pid %s) has not answered for %.1f s while its process "
                  "lives; stopping it by its pid to start it again on the same data dir",
                  proc.pid, silent)
        embedded.kill()
        watch.stuck_restarts += 1
        watch.silent_since = None


async def watch_store(store: Store, settings: Settings, watch: StoreWatch,
                      embedded: EmbeddedFalkorDB | None, rewrites: list[asyncio.Task[None]],
                      interval_s: float = 0.5) -> None:
    """Keep an eye on FalkorDB for as long as the app runs: restart an embedded one that
    exits or freezes, and stop requests from waiting on one that does not answer."""
    last_check = 0.0
    while True:
        await asyncio.sleep(interval_s)
        proc = embedded.process if embedded is not None else None
        if embedded is not None and proc is not None and proc.poll() is not None:
            await _restart_exited(embedded, store, watch, rewrites)
            continue
        if time.monotonic() - last_check >= WATCH_EVERY_S:
            last_check = time.monotonic()
            await _check_answers(store, settings, watch, embedded)


def open_store(settings: Settings, url: str) -> Store:
    return Store(url, pool_size=settings.falkordb_pool_size,
                 query_timeout_ms=settings.falkordb_query_timeout_ms,
                 deadline_s=settings.falkordb_deadline_s,
                 read_from_replicas=settings.read_from_replicas,
                 write_replicas=settings.write_replicas,
                 write_replicas_timeout_ms=settings.write_replicas_timeout_ms,
                 failover_wait_s=settings.falkordb_failover_wait_s)


# FalkorDB 4.16.3 can crash right after a load that replayed the creation of its unique
# constraints (a segfault in their enforcement over the loaded data; not every load, see
# docs/falkordb.md, "Persistence and loading"). Such a file is one this app never rewrote,
# so it is tried again (the app's own restart of a crashed FalkorDB) this many times in all;
# the first load that survives is compacted, and the next start loads a snapshot instead.
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
                await ensure_registry(store, now_ms())
                await plancache.learn_limit(store)
            with start_step("checking every workspace's schema"):
                await register_schema_everywhere(store)
            with start_step("joining conflicts raised as pairs into one per fact"):
                await conflict_migration.migrate_everywhere(store)
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
        scrubber: DiskScrubber | None = None
        rewrites: list[asyncio.Task[None]] = []
        watch = StoreWatch()
        watchdog = asyncio.create_task(watch_store(store, settings, watch, embedded, rewrites),
                                       name="watching FalkorDB")
        try:
            if embedded is not None:
                rewrites.append(asyncio.create_task(enable_aof_rewrites(store, embedded)))
            with start_step("building the services"):
                services = build_services(settings, store)
            services.embedded = embedded
            services.watch = watch
            with start_step("finishing workspace deletions a stop cut short"):
                await backup.finish_deletions(store)
            if embedded is not None:
                scrubber = DiskScrubber(store, data_dir=embedded.data_dir,
                                        server_pid=lambda: embedded.pid)
            else:
                scrubber = DiskScrubber(store)
            services.scrubber = scrubber
            scrubber.start()
            if services.vectors.enabled:
                services.vectors.worker = Worker(
                    store, services.vectors,
                    rescan_s=60.0 if settings.embedding_worker else None,
                    after_write=meaning_checks(services.conflict_judge))
                services.vectors.worker.start()
            yield services
        finally:
            for task in [*rewrites, watchdog]:
                task.cancel()
                await _bounded(f"stopping {task.get_name()}", task)
            if services is not None:
                if scrubber is not None:
                    await _bounded("stopping the disk scrubber", scrubber.stop())
                if services.vectors.worker is not None:
                    await _bounded("stopping the vector worker", services.vectors.worker.stop())
                await _bounded("closing the model gateway", services.aclose())
                await _bounded("stopping the file readers", services.readers.aclose())
            await _bounded("closing the FalkorDB connections", store.close())
    finally:
        if embedded is not None:
            embedded.stop()
