"""Ingest with embeddings: one 10,000-sentence document, with the vector worker (the default:
the write does not wait on the model) and without it (ingest embeds every claim, then
writes claims and vectors in one query).

For each: the request's wall time, the model's part of it (``model_calls``), claims per
second excluding model time, and with the worker, how long until every vector is there.
Each mode runs in its own app (``AFTERHACK_EMBEDDING_WORKER``) on its own FalkorDB.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable
from functools import partial

from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import EmbeddingIngest, EmbedRun
from afterhack_tools.bench.stats import timed
from afterhack_tools.bench.synth import Vocabulary

SENTENCES = 10_000


def document(n: int = SENTENCES, seed: int = 5) -> str:
    vocab = Vocabulary()
    rng = random.Random(seed)
    return " ".join(vocab.statement(rng, 500_000 + i)[0] for i in range(n))


async def _one(worker: bool, text: str, log: Callable[[str], None]) -> EmbedRun:
    before = os.environ.get("AFTERHACK_EMBEDDING_WORKER")
    os.environ["AFTERHACK_EMBEDDING_WORKER"] = "true" if worker else "false"
    try:
        async with Harness() as h:
            assert h.http is not None
            http = h.http
            r = await http.post("/api/workspaces", json={"name": "embedding ingest"})
            ws = r.json()["id"]
            ms, r = await timed(partial(http.post, f"/api/workspaces/{ws}/sources",
                                        json={"title": "big", "text": text}))
            if r.status_code != 201:
                raise RuntimeError(f"ingest answered {r.status_code}: {r.text[:300]}")
            body = r.json()
            claims = len(body["claims"])
            model_ms = sum(c["duration_ms"] for c in body["model_calls"])
            embed_ms = sum(c["duration_ms"] for c in body["model_calls"]
                           if c["role"] == "embedder")
            out: EmbedRun = {
                "worker": worker, "claims": claims, "wall_s": round(ms / 1000, 2),
                "model_s": round(model_ms / 1000, 2), "embedding_s": round(embed_ms / 1000, 2),
                "claims_per_s_without_model": round(claims / ((ms - model_ms) / 1000)),
            }
            log(f"[embedding ingest] worker={worker}: {out}")
            if worker:
                t0 = time.perf_counter()
                while (await http.get(f"/api/workspaces/{ws}/embeddings")).json()[
                        "pending"] > 0:
                    await asyncio.sleep(2.0)
                filled = time.perf_counter() - t0
                out["vectors_filled_after_s"] = round(filled, 1)
                out["worker_claims_per_s"] = round(claims / filled, 1)
                log(f"[embedding ingest] worker filled {claims} vectors in {filled:.0f} s")
            return out
    finally:
        if before is None:
            os.environ.pop("AFTERHACK_EMBEDDING_WORKER", None)
        else:
            os.environ["AFTERHACK_EMBEDDING_WORKER"] = before


async def measure_embedding_ingest(log: Callable[[str], None],
                                   sentences: int = SENTENCES) -> EmbeddingIngest:
    text = document(sentences)
    return {"sentences": sentences, "chars": len(text),
            "with_worker": await _one(True, text, log),
            "without_worker": await _one(False, text, log)}
