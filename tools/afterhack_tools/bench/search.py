"""Claim search: the full-text path against an unindexed ``CONTAINS`` scan, side by side.

Over the same queries (two words of a random claim: a project and a person, which few
claims share):

* ``api_fulltext``: ``GET /api/workspaces/{ws}/claims?q=`` through the app (back-off search);
* ``api_fulltext_broad``: the same with the project word alone, which one claim in 400
  carries (250 matches at 100k claims, ranked, the top 20 returned);
* ``store_fulltext``: the store's full-text query directly, with the phrase the API tries
  first (every word must match);
* ``store_contains``: the store's ``contains_scan`` directly (any word, as a substring;
  it reads every claim whatever it finds).

The store rows compare the two query plans without HTTP; the API row is what clients get.
"""

from __future__ import annotations

import itertools
from typing import Any

from afterhack import search as search_plan
from afterhack.model.vocab import CURRENT_CLAIM
from afterhack.store import claims as store_claims
from afterhack.store.names import graph_name
from afterhack_tools.bench.floors import Floors
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.stats import sample, summary

LIMIT = 20


async def measure_search(h: Harness, ws_id: str, queries: list[list[str]], n: int,
                         floors: Floors) -> dict[str, Any]:
    assert h.store is not None and h.http is not None
    http = h.http
    g = h.store.graph(graph_name(ws_id))
    statuses = list(CURRENT_CLAIM)
    hits: dict[str, list[int]] = {"api_fulltext": [], "api_fulltext_broad": [],
                                  "store_fulltext": [], "store_contains": []}

    def cycle() -> itertools.cycle[list[str]]:
        return itertools.cycle(queries)

    api_q, broad_q, ft_q, ct_q = cycle(), cycle(), cycle(), cycle()

    async def api() -> None:
        r = await http.get(f"/api/workspaces/{ws_id}/claims",
                           params={"q": " ".join(next(api_q)), "limit": LIMIT})
        r.raise_for_status()
        hits["api_fulltext"].append(len(r.json()["items"]))

    async def api_broad() -> None:
        r = await http.get(f"/api/workspaces/{ws_id}/claims",
                           params={"q": next(broad_q)[0], "limit": LIMIT})
        r.raise_for_status()
        hits["api_fulltext_broad"].append(len(r.json()["items"]))

    async def fulltext() -> None:
        strict = search_plan.plan(" ".join(next(ft_q))).strict
        assert strict is not None
        rows = await store_claims.fulltext(g, strict, statuses, LIMIT, 0)
        hits["store_fulltext"].append(len(rows))

    async def contains() -> None:
        rows = await store_claims.contains_scan(g, next(ct_q), statuses, LIMIT)
        hits["store_contains"].append(len(rows))

    out: dict[str, Any] = {}
    for name, fn in (("api_fulltext", api), ("api_fulltext_broad", api_broad),
                     ("store_fulltext", fulltext), ("store_contains", contains)):
        out[name] = summary(await sample(fn, n, warmup=5, before=floors.tick))
        found = hits[name][-n:]  # without the warm-up calls
        out[name]["mean_hits"] = round(sum(found) / len(found), 1)
        out[name]["empty_results"] = sum(1 for x in found if x == 0)
    return out
