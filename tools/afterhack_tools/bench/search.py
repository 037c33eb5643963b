"""Claim search: the full-text path against an unindexed ``CONTAINS`` scan, side by side.

Over the same queries (two words of a random claim: a project and a person, which few
claims share):

* ``api_fulltext``: ``GET /api/workspaces/{ws}/claims?q=&mode=text`` through the app (words
  only, BM25);
* ``api_hybrid``: the same with ``mode=hybrid`` (the default: words and meaning fused), its
  wall time; ``api_hybrid_without_embedding`` is each request's wall time less the query's
  embedding time the response reports (``search.embedding_ms``, the model's part), and
  ``query_embedding`` that time alone; ``mean_vector_hits`` says how many of a page's claims
  the vector ranking found (load.py gives the claims vectors a real query can be near);
* ``api_hybrid_plain``: the same hybrid requests through a plain HTTP/1.1 client
  (plainhttp.py), less their embedding time, and ``plain_ping``, ``GET /api/ping`` through
  it back to back: httpx's own cost per request is a large part of a few milliseconds;
* ``api_fulltext_broad``: the text search with the project word alone, which one claim in 400
  carries (250 matches at 100k claims, ranked, the top 20 returned);
* ``store_fulltext``: the word ranking the API runs (term counts, then BM25 over the claims
  the rarest terms bring in) straight through the store;
* ``store_contains``: the store's ``contains_scan`` directly (any word, as a substring;
  it reads every claim whatever it finds);
* ``after_idle``: the floors (``GET /api/ping``, ``RETURN 1``) back to back and after an idle
  wait as long as the query's median embedding. A hybrid search's reads after the embedding
  follow such a wait, and on a host whose idle CPUs sleep (a VM's halted vCPUs) the first
  round trip after it costs more than a back-to-back one.

The store rows compare the two query plans without HTTP; the API row is what clients get.
"""

from __future__ import annotations

import asyncio
import itertools
import json

from afterhack.model.vocab import CURRENT_CLAIM
from afterhack.retrieval import hybrid
from afterhack.retrieval import search as search_plan
from afterhack.store import claims as store_claims
from afterhack.store.names import graph_name
from afterhack_tools.bench.floors import Floors
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.plainhttp import PlainHttp
from afterhack_tools.bench.records import AfterIdle, FoundSummary, SearchFigures, Summary
from afterhack_tools.bench.stats import sample, summary

LIMIT = 20


async def measure_search(h: Harness, ws_id: str, queries: list[list[str]], n: int,
                         floors: Floors) -> SearchFigures:
    assert h.store is not None and h.http is not None
    http = h.http
    g = h.store.graph(graph_name(ws_id))
    statuses = list(CURRENT_CLAIM)
    hits: dict[str, list[int]] = {"api_fulltext": [], "api_fulltext_broad": [],
                                  "store_fulltext": [], "store_contains": [], "api_hybrid": []}
    embedding_ms: list[float] = []
    vector_hits: list[int] = []

    def cycle() -> itertools.cycle[list[str]]:
        return itertools.cycle(queries)

    api_q, broad_q, ft_q, ct_q, hy_q = cycle(), cycle(), cycle(), cycle(), cycle()

    async def api() -> None:
        r = await http.get(f"/api/workspaces/{ws_id}/claims",
                           params={"q": " ".join(next(api_q)), "limit": LIMIT, "mode": "text"})
        r.raise_for_status()
        hits["api_fulltext"].append(len(r.json()["items"]))

    async def api_hybrid() -> None:
        r = await http.get(f"/api/workspaces/{ws_id}/claims",
                           params={"q": " ".join(next(hy_q)), "limit": LIMIT})
        r.raise_for_status()
        body = r.json()
        hits["api_hybrid"].append(len(body["items"]))
        vector_hits.append(sum(1 for c in body["items"]
                               if c["found_by"]["vector_distance"] is not None))
        embedding_ms.append(float(body["search"].get("embedding_ms") or 0.0))

    async def api_broad() -> None:
        r = await http.get(f"/api/workspaces/{ws_id}/claims",
                           params={"q": next(broad_q)[0], "limit": LIMIT, "mode": "text"})
        r.raise_for_status()
        hits["api_fulltext_broad"].append(len(r.json()["items"]))

    async def fulltext() -> None:
        terms = list(search_plan.plan(" ".join(next(ft_q))).terms)
        rows = await hybrid.text_ranking(g, terms, statuses, LIMIT)
        hits["store_fulltext"].append(len(rows))

    async def contains() -> None:
        rows = await store_claims.contains_scan(g, next(ct_q), statuses, LIMIT)
        hits["store_contains"].append(len(rows))

    found: dict[str, FoundSummary] = {}
    walls: list[float] = []
    for name, fn in (("api_fulltext", api), ("api_fulltext_broad", api_broad),
                     ("store_fulltext", fulltext), ("store_contains", contains),
                     ("api_hybrid", api_hybrid)):
        walls = await sample(fn, n, warmup=5, before=floors.tick)
        counts = hits[name][-n:]  # without the warm-up calls
        found[name] = {**summary(walls), "mean_hits": round(sum(counts) / len(counts), 1),
                       "empty_results": sum(1 for x in counts if x == 0)}
    # The last loop was the hybrid one: its walls pair with the embedding times it reported.
    model = embedding_ms[-n:]
    query_embedding = summary(model)
    without_embedding = summary([w - m for w, m in zip(walls, model, strict=True)])
    plain, plain_ping = await _plain(h, ws_id, queries, n, floors)
    return {
        "api_fulltext": found["api_fulltext"],
        "api_fulltext_broad": found["api_fulltext_broad"],
        "store_fulltext": found["store_fulltext"],
        "store_contains": found["store_contains"],
        "api_hybrid": {**found["api_hybrid"],
                       "mean_vector_hits": round(sum(vector_hits[-n:]) / n, 1)},
        "query_embedding": query_embedding,
        "api_hybrid_without_embedding": without_embedding,
        "api_hybrid_plain_without_embedding": plain,
        "plain_ping": plain_ping,
        "after_idle": await _after_idle(floors, query_embedding["p50"], n),
    }


async def _plain(h: Harness, ws_id: str, queries: list[list[str]], n: int,
                 floors: Floors) -> tuple[Summary, Summary]:
    """The hybrid search (less its embedding) and the ping through the plain client."""
    plain = PlainHttp(h.base_url)
    qs = itertools.cycle(queries)
    model: list[float] = []

    async def hybrid_search() -> None:
        # Timed by sample(), like the httpx loop: the request and the decoding of its answer.
        body = json.loads(plain.get(f"/api/workspaces/{ws_id}/claims",
                                    {"q": " ".join(next(qs)), "limit": LIMIT}))
        model.append(float(body["search"].get("embedding_ms") or 0.0))

    async def ping() -> None:
        plain.get("/api/ping")

    try:
        walls = await sample(hybrid_search, n, warmup=5, before=floors.tick)
        pings = await sample(ping, n, warmup=20)
    finally:
        plain.close()
    return (summary([w - m for w, m in zip(walls, model[-n:], strict=True)]),
            summary(pings))


async def _after_idle(floors: Floors, gap_ms: float, n: int) -> AfterIdle:
    """Each floor back to back, and after ``gap_ms`` of doing nothing."""
    async def idle() -> None:
        await asyncio.sleep(gap_ms / 1000)

    tight = await floors.tight(n)
    ping = summary(await sample(floors.ping_app, n, warmup=5, before=idle))
    return_one = summary(await sample(floors.return_one, n, warmup=5, before=idle))
    return {"gap_ms": gap_ms, "ping": tight["http"], "return_one": tight["falkordb"],
            "ping_after_gap": ping, "return_one_after_gap": return_one}
