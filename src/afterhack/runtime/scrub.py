"""The disk scrubber: after words are erased from the graphs (an erasure, a workspace
deleted), FalkorDB's files on every node are rewritten so they no longer hold them, and
what was erased is marked ``disk: clean`` (docs/decisions/0041-forgetting-on-disk.md).

One per app process, what runtime/disk_scrub.py asks of the disk. ``request()`` takes a
ticket and wakes the scrubber; ``wait(ticket)`` returns once a rewrite that began after
the ticket was taken has finished on every node. At most one rewrite runs at a time, and
every request that arrives while it runs is served by the next single one. A rewrite that
fails (a node down, restarted, or behind) is tried again, later each time, until one
succeeds. At start-up a rewrite runs when the graphs hold anything pending (an app
stopped before its rewrite finished).

A rewrite, in order:
1. after a node has started, waits until every graph's indexes and constraints are built
   (FalkorDB 4.16.3 can crash in a rewrite's fork while it builds them after a load:
   runtime/services.py);
2. stops FalkorDB's log of recent queries on every node and deletes what it kept (it
   holds query parameters: store/disk.py), then reads what is pending
   (store/erasure_disk.py), each from the master of its graph, so every master forks its
   rewrite after those writes;
3. reads each master's replication offset, then rewrites each node's append-only file
   (a replica once it has applied its master's stream up to that offset) and, on any node
   but the embedded server, writes a fresh RDB snapshot over the one it may keep;
4. on the embedded server, checks its data dir (runtime/datadir.py);
5. empties every node's slow logs (they keep query parameters);
6. marks what it read in step 2 clean.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from afterhack.errors import AfterhackError
from afterhack.records.clock import now_ms
from afterhack.runtime import datadir
from afterhack.runtime.disk_scrub import ScrubTicket
from afterhack.store import disk, erasure_disk
from afterhack.store.client import Store
from afterhack.store.workspaces import wait_schema_built_everywhere

log = logging.getLogger("afterhack.scrub")

T = TypeVar("T")

# After a failed rewrite the next is tried this long after, doubling up to the maximum.
RETRY_S = 2.0
RETRY_MAX_S = 60.0


@dataclass(frozen=True)
class ScrubReport:
    """One rewrite of every node: when it began (epoch ms), how long it took in all and on
    each node, what it marked clean and which strays it removed from the data dir."""

    started_at: int
    seconds: float
    nodes: list[disk.NodeRewrite]
    marked_clean: int
    removed: list[str] = field(default_factory=list)


async def _all(steps: Iterable[Coroutine[Any, Any, T]]) -> list[T]:
    """Run the steps at once; the first to fail stops the others and is raised (as itself,
    not in a group)."""
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(step) for step in steps]
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from None
    return [t.result() for t in tasks]


class DiskScrubber:
    def __init__(self, store: Store, *, data_dir: Path | None = None,
                 server_pid: Callable[[], int | None] = lambda: None) -> None:
        self.store = store
        # The embedded server's data dir (None for an external FalkorDB or a cluster):
        # checked after each rewrite; and the server's pid now (it changes when the server
        # is started again), to tell its own children from a killed server's.
        self.data_dir = data_dir
        self.server_pid = server_pid
        self._requested = 0
        self._served = 0
        self._wake = asyncio.Event()
        self._served_changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.last: ScrubReport | None = None
        self.failures = 0
        # The nodes (by run_id: a restart changes it) whose indexes were seen built.
        self._built: set[str] = set()

    # -- the contract -----------------------------------------------------------------

    def request(self) -> ScrubTicket:
        """Ask for a rewrite of every node's files (returns at once)."""
        self._requested += 1
        self._wake.set()
        return ScrubTicket(self._requested)

    def done(self, ticket: ScrubTicket) -> bool:
        return self._served >= ticket.seq

    async def wait(self, ticket: ScrubTicket, timeout_s: float) -> bool:
        """Until a rewrite that began after ``ticket`` has finished on every node (True),
        or ``timeout_s`` has passed (False)."""
        deadline = time.monotonic() + timeout_s
        while not self.done(ticket):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            changed = self._served_changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), left)
        return True

    # -- running ----------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="rewriting FalkorDB's files")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        try:
            if await erasure_disk.pending(self.store):
                log.info("erased data waits for FalkorDB's files to be rewritten; rewriting")
                self.request()
        except AfterhackError as exc:
            log.warning("could not read what waits for a rewrite (%s); rewriting anyway", exc)
            self.request()
        retry_s = RETRY_S
        while True:
            await self._wake.wait()
            self._wake.clear()
            target = self._requested
            try:
                self.last = await self.scrub()
            except Exception as exc:
                # Whatever failed, what waits for a rewrite still waits: tried again.
                self.failures += 1
                log.warning("rewriting FalkorDB's files failed (%s); trying again in %.0f s",
                            exc, retry_s,
                            exc_info=not isinstance(exc, AfterhackError | OSError
                                                    | datadir.NotSettled))
                await asyncio.sleep(retry_s)
                retry_s = min(retry_s * 2, RETRY_MAX_S)
                self._wake.set()
                continue
            retry_s = RETRY_S
            self._served = max(self._served, target)
            self._served_changed.set()
            self._served_changed = asyncio.Event()
            if self._requested > self._served:
                self._wake.set()

    async def scrub(self) -> ScrubReport:
        """One rewrite of every node's files, as the module says; raises if any node's
        failed (then nothing is marked clean)."""
        t0 = time.monotonic()
        started_at = now_ms()
        nodes = await disk.disk_nodes(self.store)
        run_ids = {(await disk.node_info(self.store, n.address, "server")).get("run_id", "")
                   for n in nodes}
        if not run_ids <= self._built:
            # A node started since the last rewrite may still be building what its load
            # replayed; once per start, since this reads every graph.
            await wait_schema_built_everywhere(self.store)
            self._built |= run_ids
        for n in nodes:
            await disk.keep_no_query_log(self.store, n)
        for n in nodes:
            if not n.replica:
                await disk.drop_query_logs(self.store, n)
        pending = await erasure_disk.pending(self.store)
        offsets = {n.address: await disk.replication_offset(self.store, n)
                   for n in nodes if not n.replica}
        done = await _all(self._rewrite(n, offsets) for n in nodes)
        removed: list[str] = []
        if self.data_dir is not None:
            removed = await asyncio.to_thread(datadir.settle, self.data_dir,
                                              server_pid=self.server_pid())
        for n in nodes:
            await disk.reset_slow_logs(self.store, n)
        marked = await erasure_disk.mark_clean(self.store, pending, now_ms())
        report = ScrubReport(started_at=started_at, seconds=time.monotonic() - t0,
                             nodes=list(done), marked_clean=marked, removed=removed)
        log.info("FalkorDB's files rewritten on %d node(s) in %.2f s; %d erasure(s) and "
                 "deletion(s) now clean", len(nodes), report.seconds, marked)
        return report

    async def _rewrite(self, node: disk.DiskNode, offsets: dict[str, int]) -> disk.NodeRewrite:
        t0 = time.monotonic()
        if node.replica and node.master is not None:
            await disk.wait_caught_up(self.store, node, offsets.get(node.master, 0))
        sizes = await disk.rewrite_aof(self.store, node)
        # The embedded server writes no snapshot (its data dir is checked instead); any
        # other node may keep one: a replica writes it at every full sync, and keeps it
        # after it is promoted.
        rdb = self.data_dir is None
        if rdb:
            await disk.save_rdb(self.store, node)
        before, after = sizes or (0, 0)
        return disk.NodeRewrite(node.address, node.replica, aof=sizes is not None, rdb=rdb,
                                aof_bytes_before=before, aof_bytes_after=after,
                                seconds=time.monotonic() - t0)
