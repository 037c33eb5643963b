"""A workspace's claim vectors: how far they are (pending, model, dimension), and moving
them to the configured model (docs/rules.md, rule 16: changing the model re-embeds, never
mixes spaces)."""

from __future__ import annotations

from fastapi import APIRouter

from afterhack.api.deps import ServicesDep, WorkspaceDep
from afterhack.api.security import allow
from afterhack.errors import InvalidRequest
from afterhack.model.embeddings import EmbeddingProgress
from afterhack.retrieval.vectors import Vectors
from afterhack.store import vectors as store_vectors
from afterhack.wire.inputs import Reembed

router = APIRouter(tags=["embeddings"])


@router.get("/workspaces/{ws}/embeddings",
            dependencies=[allow("read")])
async def embedding_progress(ws: WorkspaceDep, services: ServicesDep) -> EmbeddingProgress:
    vectors: Vectors = services.vectors
    return await vectors.progress(ws.graph)


@router.post("/workspaces/{ws}/embeddings/reembed",
             dependencies=[allow("manage")])
async def reembed(_body: Reembed, ws: WorkspaceDep, services: ServicesDep) -> EmbeddingProgress:
    """Drop the workspace's vectors and index, and embed every claim again with the
    configured model (in the background; follow ``GET .../embeddings``)."""
    vectors: Vectors = services.vectors
    if not vectors.enabled:
        raise InvalidRequest("Embeddings are off in this server (AFTERHACK_EMBEDDINGS).")
    await store_vectors.reset_space(ws.graph)
    vectors.notify(ws.graph)
    return await vectors.progress(ws.graph)
