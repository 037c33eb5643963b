"""Build one synthetic workspace: created through the API, filled through the bulk loader."""

from __future__ import annotations

import time

from afterhack.llm.embeddings import OFFLINE_DIM, OFFLINE_NAME
from afterhack.store import admin
from afterhack.store.names import graph_name
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import LoadFigures
from afterhack_tools.bench.synth import Workspace
from afterhack_tools.bench.synthvec import named_vectors
from afterhack_tools.bulk import bulk_load


async def create_workspace(h: Harness, name: str) -> str:
    assert h.http is not None
    r = await h.http.post("/api/workspaces", json={"name": name})
    r.raise_for_status()
    return str(r.json()["id"])


async def load_workspace(h: Harness, ws: Workspace, name: str) -> tuple[str, LoadFigures]:
    """Returns the workspace id and the load's figures (time, throughput, memory)."""
    assert h.store is not None
    ws_id = await create_workspace(h, name)
    g = h.store.graph(graph_name(ws_id))
    # Every claim with its vector (a stand-in, see synthvec.py, made before the clock
    # starts): the memory figures below are per claim with its vector, and searches run
    # the vector path.
    made = await named_vectors(ws.claims, ws.words)
    used_before = await h.used_memory()
    t0 = time.perf_counter()
    await bulk_load(g, sources=ws.sources, claims=ws.claims, decisions=ws.decisions,
                    actions=ws.actions,
                    vectors=(OFFLINE_NAME, OFFLINE_DIM, made.__getitem__))
    seconds = time.perf_counter() - t0
    used_after = await h.used_memory()
    graph_bytes = await admin.memory_usage(h.store, graph_name(ws_id))
    n = len(ws.claims)
    text_bytes = sum(len(c["statement"].encode()) for c in ws.claims) / n
    return ws_id, {
        "seconds": round(seconds, 2),
        "claims_per_s": round(n / seconds),
        "memory": {
            # FalkorDB reports GRAPH.MEMORY USAGE in whole megabytes.
            "graph_memory_usage_bytes": graph_bytes,
            "bytes_per_claim": round(graph_bytes / n),
            "used_memory_delta_bytes": used_after - used_before,
            "used_memory_delta_per_claim": round((used_after - used_before) / n),
            "statement_bytes_per_claim": round(text_bytes, 1),
        },
    }
