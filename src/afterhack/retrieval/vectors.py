"""Claim vectors: the workspace's embedding space, filling pending vectors, and the
background worker that does it without holding up a write.

A claim is searchable by its words from the write that creates it; its vector follows.
With the worker on (the default), ingest writes claims ``vector_pending`` and returns, and
the worker embeds them in batches, one batch at a time per process, so a big ingest never
waits on the model and the model never takes more than its share of the CPU. With it off,
ingest embeds its claims before the write and stores them in the same query.

A workspace whose vectors came from another model or dimension than the one configured is
never mixed: its vector search is off (search says so) until ``afterhack embeddings
reembed`` moves it to the new space.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from array import array
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

from afterhack.errors import GatewayError
from afterhack.llm.embeddings import Embedder, EmbeddingsUnavailable
from afterhack.model.calls import ModelCall
from afterhack.model.embeddings import EmbeddingProgress
from afterhack.model.vocab import SpaceState
from afterhack.store import vectors as store_vectors
from afterhack.store import workspaces as store_workspaces
from afterhack.store.client import Graph, Store
from afterhack.store.names import graph_name
from afterhack.store.params import Floats
from afterhack.store.source_params import NewClaim

log = logging.getLogger(__name__)

BATCH = 32
_READY_REMEMBERED = 4096
# Vectors a conflict check made for new claims, kept for the worker that stores them (so a
# statement is embedded once): at most this many, the oldest dropped first. A float32
# vector of the offline model is 1.5 KB.
_KEPT = 20_000
# A request embeds at most this many statements to find their neighbours by meaning; a
# larger batch (a long document) is checked by meaning as the worker embeds it, so an
# ingest never waits on the model for more than about one worker batch
# (docs/decisions/0030-neighbours-by-meaning.md).
CHECK_EMBED_MAX = BATCH

# What the worker does with the claims whose vectors it has just written (the conflict
# check by meaning, memory/checks.py): given by the services, as retrieval does not call
# up into the domain.
AfterWrite = Callable[[Graph, list[str]], Awaitable[None]]


def compact(vec: list[float]) -> Floats:
    """A vector as the store sends it: seven significant digits, float32's precision (more
    only lengthens the query text)."""
    return Floats(vec)


class Vectors:
    """The embedder and what a workspace's space allows; shared by search, ingest, worker."""

    def __init__(self, embedder: Embedder | None, *, inline: bool = False) -> None:
        self.embedder = embedder
        # Embed at ingest, in the claims' own write, instead of leaving it to the worker.
        self.inline = inline
        self.worker: Worker | None = None
        self.broken: str | None = None  # why the offline model could not load, if it failed
        # The graphs whose space was ready at their last search (this process's memory, a
        # bounded few): only for those is a query embedded before the state is read.
        self._ready: OrderedDict[str, None] = OrderedDict()
        # Statement -> the passage vector a conflict check made for it (see ``_KEPT``).
        self._kept: OrderedDict[str, array[float]] = OrderedDict()

    def was_ready(self, g: Graph) -> bool:
        """Whether this graph's space was ready when this process last searched it."""
        return g.name in self._ready

    def saw(self, g: Graph, state: SpaceState) -> None:
        if state == "ready":
            self._ready[g.name] = None
            self._ready.move_to_end(g.name)
            if len(self._ready) > _READY_REMEMBERED:
                self._ready.popitem(last=False)
        else:
            self._ready.pop(g.name, None)

    def notify(self, g: Graph) -> None:
        """New claims are waiting in this graph: wake the worker for it."""
        if self.worker is not None:
            self.worker.notify(g.name)

    @property
    def max_distance(self) -> float | None:
        return self.embedder.max_distance if self.embedder is not None else None

    async def embed_claims(self, g: Graph, claims: list[NewClaim],
                           calls: list[ModelCall]) -> None:
        """Inline mode: give each claim row its vector (``v``) before the write, recording
        the model's time with the source's other model calls. A workspace in another space
        gets none (they stay pending for a re-embed)."""
        if not self.inline or not claims or self.embedder is None:
            return
        state, sp = await self.state(g)
        if state not in ("ready", "empty"):
            return
        got = await self.embed([c["statement"] for c in claims], "passage")
        if got is None:
            return
        vecs, call = got
        calls.append(call)
        dim = len(vecs[0])
        if not await store_vectors.claim_space(g, self.embedder.name, dim):
            return
        if not sp.indexed:
            await store_vectors.create_index(g, dim)
        for c, v in zip(claims, vecs, strict=True):
            c["v"] = compact(v)

    async def for_checks(self, g: Graph, statements: Sequence[str],
                         given: Sequence[list[float] | None], calls: list[ModelCall]
                         ) -> list[list[float] | None]:
        """The vectors a conflict check finds the statements' neighbours by meaning with:
        those ``given`` (claims embedded at ingest), the rest embedded now as passages (the
        call recorded in ``calls``) and kept for the worker, which then stores them without
        embedding them again. None for all when the workspace has no vectors to compare
        with (none yet, or another model's), the model fails, or more than CHECK_EMBED_MAX
        would be embedded while a worker embeds claims after their write (it checks them
        by meaning then)."""
        none: list[list[float] | None] = [None] * len(statements)
        if not statements or not self.enabled or self.embedder is None:
            return none
        if not self.inline and sum(v is None for v in given) > CHECK_EMBED_MAX:
            return none
        model, dim = await store_vectors.space_of(g)
        if model != self.embedder.name or (self.embedder.dim is not None
                                           and dim != self.embedder.dim):
            return none
        out = list(given)
        todo = [i for i, v in enumerate(out) if v is None]
        if todo:
            got = await self.embed([statements[i] for i in todo], "passage")
            if got is None:
                return none
            vecs, call = got
            call.detail["purpose"] = "conflict_check"
            calls.append(call)
            for i, v in zip(todo, vecs, strict=True):
                out[i] = v
                self._keep(statements[i], v)
        return out

    def _keep(self, statement: str, vec: list[float]) -> None:
        self._kept[statement] = array("f", vec)
        self._kept.move_to_end(statement)
        if len(self._kept) > _KEPT:
            self._kept.popitem(last=False)

    @property
    def enabled(self) -> bool:
        return self.embedder is not None and self.broken is None

    async def state(self, g: Graph) -> tuple[SpaceState, store_vectors.Space]:
        sp = await store_vectors.space(g)
        if not self.enabled or self.embedder is None:
            return "off", sp
        if sp.model is None:
            return "empty", sp
        if sp.model != self.embedder.name or (
                self.embedder.dim is not None and sp.dim != self.embedder.dim):
            return "stale", sp
        return "ready", sp

    async def search_state(self, g: Graph) -> tuple[SpaceState, int]:
        """What a search can use (one read): the space's state and the claims pending."""
        model, dim, pending = await store_vectors.search_state(g)
        if not self.enabled or self.embedder is None:
            return "off", pending
        if model is None:
            return "empty", pending
        if model != self.embedder.name or (self.embedder.dim is not None
                                           and dim != self.embedder.dim):
            return "stale", pending
        return "ready", pending

    async def progress(self, g: Graph) -> EmbeddingProgress:
        state, sp = await self.state(g)
        return {"state": state, "model": sp.model, "dim": sp.dim,
                "configured_model": self.embedder.name if self.embedder else None,
                "claims": await store_vectors.count_claims(g),
                "pending": await store_vectors.count_pending(g)}

    async def embed(self, texts: list[str], kind: Literal["query", "passage"]
                    ) -> tuple[list[list[float]], ModelCall] | None:
        """Vectors, or None when embeddings are off or the model failed (then search runs on
        words alone; a gateway failure is logged, never raised into a search)."""
        if not self.enabled or self.embedder is None or not texts:
            return None
        try:
            return await self.embedder.embed(texts, kind)
        except EmbeddingsUnavailable as exc:
            self.broken = str(exc)
            log.warning("embeddings are off: %s", exc)
        except GatewayError as exc:
            log.warning("embedding failed: %s", exc.code)
        return None

    async def fill(self, g: Graph, limit: int = BATCH) -> list[str]:
        """Embed up to ``limit`` pending claims and store their vectors; returns the ids of
        those written (none when none is pending, or the workspace is in another space)."""
        if self.embedder is None:
            return []
        todo = await store_vectors.pending(g, limit)
        if not todo:
            return []
        kept = {c.statement: list(v) for c in todo
                if (v := self._kept.pop(c.statement, None)) is not None}
        rest = sorted({c.statement for c in todo} - kept.keys())
        if rest:
            got = await self.embed(rest, "passage")
            if got is None:
                return []
            kept.update(zip(rest, got[0], strict=True))
        vecs = [kept[c.statement] for c in todo]
        dim = len(vecs[0])
        if any(len(v) != dim for v in vecs):
            log.warning("the embedder answered vectors of different dimensions; skipped")
            return []
        if not await store_vectors.claim_space(g, self.embedder.name, dim):
            return []
        sp = await store_vectors.space(g)
        if not sp.indexed:
            await store_vectors.create_index(g, dim)
        return await store_vectors.write(
            g, self.embedder.name, [{"id": c.id, "v": compact(v)} for c, v in zip(todo, vecs,
                                                                                 strict=True)])


class Worker:
    """Fills pending vectors in the background, one batch at a time, workspace by workspace.

    Writes in this process wake it for their workspace; a rescan of the registry every
    ``rescan_s`` finds work other processes left (or claims restored from an export)."""

    def __init__(self, store: Store, vectors: Vectors, *, rescan_s: float | None = 60.0,
                 after_write: AfterWrite | None = None) -> None:
        self.store = store
        self.vectors = vectors
        self.after_write = after_write
        # None: no rescans, only the workspaces this process names (inline embedding, where
        # ingest leaves nothing pending: a re-embed or a restore is all that is left to do).
        self.rescan_s = rescan_s
        # Graph names of workspaces with claims waiting for vectors.
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._queued: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self.embedded = 0

    def notify(self, graph: str) -> None:
        if graph not in self._queued:
            self._queued.add(graph)
            self._queue.put_nowait(graph)

    def start(self) -> None:
        if self._task is None and self.vectors.enabled:
            self._task = asyncio.create_task(self._run(), name="afterhack-vector-worker")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _rescan(self) -> None:
        for ws_id in await store_workspaces.listed_ids(self.store):
            with contextlib.suppress(ValueError):
                self.notify(graph_name(ws_id))

    async def _run(self) -> None:
        last_scan: float | None = None
        while self.vectors.enabled:
            if self.rescan_s is not None and (
                    last_scan is None or time.monotonic() - last_scan >= self.rescan_s):
                last_scan = time.monotonic()
                with contextlib.suppress(Exception):
                    await self._rescan()
            try:
                # Not asyncio.wait_for: on Python 3.11 a stop that comes as the queue hands
                # out a name is swallowed there, the loop goes on and stop() never returns.
                async with asyncio.timeout(self.rescan_s):
                    name = await self._queue.get()
            except TimeoutError:
                continue
            self._queued.discard(name)
            try:
                await self._drain(name)
            except asyncio.CancelledError:
                raise
            except Exception:  # a workspace deleted meanwhile, the store down: retried later
                log.debug("vector worker: %s skipped", name, exc_info=True)

    async def _drain(self, name: str) -> None:
        g = self.store.graph(name)
        state, sp = await self.vectors.state(g)
        if state in ("stale", "off"):
            return
        if sp.model is None:
            await store_vectors.mark_unembedded(g)
        while True:
            written = await self.vectors.fill(g)
            self.embedded += len(written)
            if not written:
                return
            if self.after_write is not None:
                await self.after_write(g, written)
            # Let other workspaces (and requests) in between batches.
            if not self._queue.empty():
                self.notify(name)
                return
