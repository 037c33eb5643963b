"""The section on ingest with embeddings: one big document with the vector worker and
without it."""

from __future__ import annotations

from afterhack_tools.bench.records import EmbeddingIngest


def embedding_ingest_section(res: EmbeddingIngest) -> list[str]:
    w, n = res["with_worker"], res["without_worker"]
    return [
        "## Ingest with embeddings",
        "",
        f"One document of {res['sentences']:,} sentences ({res['chars']:,} characters) "
        "through `POST /sources`, offline model.",
        "",
        "| | request wall | model in it | claims/s without model time | all vectors in |",
        "|---|---|---|---|---|",
        f"| with the vector worker (default) | {w['wall_s']} s | {w['model_s']} s | "
        f"{w['claims_per_s_without_model']:,} | {w['vectors_filled_after_s']} s later "
        f"({w['worker_claims_per_s']}/s) |",
        f"| without (embedded during ingest) | {n['wall_s']} s | {n['model_s']} s "
        f"(embedding {n['embedding_s']} s) | {n['claims_per_s_without_model']:,} | "
        "with the write |",
        "",
    ]
