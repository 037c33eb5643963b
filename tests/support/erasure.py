"""Looking for erased words the way a user would: every string the graph holds, and every
answer the API gives (now, as of an earlier time, exports included)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from afterhack.store.client import Graph
from tests.support.api import Http
from tests.support.graphs import with_graph


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def graph_strings(url: str, ws: str) -> list[str]:
    """Every string property (and every string in a list property) of every node and edge
    of a workspace graph, read straight from FalkorDB."""
    async def read(g: Graph) -> list[str]:
        rows = await g.read("MATCH (n) RETURN properties(n) AS p UNION ALL "
                            "MATCH ()-[e]->() RETURN properties(e) AS p")
        return [s for r in rows for s in _strings(r["p"])]

    return with_graph(url, ws, read)


def holders(url: str, ws: str, needle: str) -> list[str]:
    """The graph's strings that hold ``needle`` (empty when it is gone)."""
    return [s for s in graph_strings(url, ws) if needle in s]


def _get(http: Http, path: str, **params: Any) -> Any:
    r = http.get(path, params=params)
    assert r.status_code == 200, (path, params, r.text)
    return r.json()


def answers(http: Http, ws: str, as_of: int | None = None) -> str:
    """Every read of the workspace the API answers (each list whole, each item read on its
    own, the graph in both views, exports), as one text; ``as_of``: the reads as the memory
    held them then."""
    base = f"/api/workspaces/{ws}"
    at: dict[str, Any] = {} if as_of is None else {"as_of": as_of}
    out: list[Any] = []

    def add(path: str, **params: Any) -> Any:
        body = _get(http, base + path, **params)
        out.append(body)
        return body

    add("")
    claims = add("/claims", status="all", limit=1000, **at)
    for c in claims["items"]:
        add(f"/claims/{c['id']}", **at)
    for view in ("product", "internal"):
        add("/graph", view=view, **at)
    add("/conflicts", status="all", limit=1000, **at)
    for k in _get(http, base + "/conflicts", status="all", limit=1000, **at)["items"]:
        add(f"/conflicts/{k['id']}", **at)
    for d in add("/decisions", limit=1000)["items"]:
        add(f"/decisions/{d['id']}", **at)
    add("/actions", limit=1000)
    for run in add("/agent-runs", limit=1000)["items"]:
        add(f"/agent-runs/{run['id']}")
    for s in add("/sources", limit=1000)["items"]:
        add(f"/sources/{s['id']}")
    add("/audit", limit=1000)
    add("/timeline")
    add("/erasures", limit=1000)
    if as_of is None:
        add("/export")
        add("/export", format="prov")
    return json.dumps(out, ensure_ascii=False)
