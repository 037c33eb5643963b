"""Source ingest: claims stored per second, without the model's time.

Big sources go through ``POST /sources`` with the offline model. The model's share is what
the response records (``model_calls[].duration_ms``); the offline extractor is CPU work in
the app's one event loop, so its calls run one after another and their sum is the model's
part of the wall time. Claims per second = kept claims / (wall time - model time): chunking,
the quote checks, the one write query (version, fragments, claims, audit) and the response.
"""

from __future__ import annotations

from functools import partial

from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import IngestFigures
from afterhack_tools.bench.stats import timed
from afterhack_tools.bench.synth import Vocabulary, source_text


async def measure_ingest(h: Harness, ws_id: str, vocab: Vocabulary, *, sources: int,
                         claims_per_source: int, serial_base: int) -> IngestFigures:
    assert h.http is not None
    kept = 0
    wall_ms = 0.0
    model_ms = 0.0
    fragments = 0
    dropped: dict[str, int] = {}
    per_source: list[float] = []
    for i in range(sources):
        text = source_text(claims_per_source, seed=1000 + i, vocab=vocab,
                           serial_base=serial_base + i * claims_per_source)
        ms, r = await timed(partial(h.http.post, f"/api/workspaces/{ws_id}/sources",
                                    json={"title": f"Bench source {i}", "text": text}))
        if r.status_code != 201:
            raise RuntimeError(f"ingest answered {r.status_code}: {r.text[:500]}")
        body = r.json()
        n = len(body["claims"])
        m = sum(c["duration_ms"] for c in body["model_calls"])
        kept += n
        wall_ms += ms
        model_ms += m
        fragments += len(body["source"]["versions"][-1]["fragments"])
        for k, v in body["dropped"].items():
            dropped[k] = dropped.get(k, 0) + v
        per_source.append(n / ((ms - m) / 1000))
    store_ms = wall_ms - model_ms
    return {
        "sources": sources,
        "claims": kept,
        "fragments": fragments,
        "chars_per_source": len(text),
        "dropped": dropped,
        "wall_s": round(wall_ms / 1000, 3),
        "model_s": round(model_ms / 1000, 3),
        "claims_per_s": round(kept / (store_ms / 1000)),
        "claims_per_s_with_model": round(kept / (wall_ms / 1000)),
        # The ingest's own time over the offline model's in the same requests: both are CPU
        # work on this host, so the ratio moves far less than claims/s with the host's speed.
        "own_vs_model": round(store_ms / model_ms, 2) if model_ms else None,
        "claims_per_s_by_source": [round(x) for x in per_source],
    }
