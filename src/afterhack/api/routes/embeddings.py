"""A workspace's claim vectors: how far they are (pending, model, dimension), and moving
them to the configured model (docs/rules.md, rule 16: changing the model re-embeds, never
mixes spaces)."""

from __future__ import annotations

from fastapi import APIRouter

from afterhack.api.deps import WorkspaceDep
from afterhack.api.security import allow
from afterhack.model.embeddings import EmbeddingProgress
from afterhack.wire.inputs import Reembed

router = APIRouter(tags=["embeddings"])


@router.get("/workspaces/{ws}/embeddings",
            dependencies=[allow("read")])
async def embedding_progress(ws: WorkspaceDep) -> EmbeddingProgress:
    return await ws.embeddings()


@router.post("/workspaces/{ws}/embeddings/reembed",
             dependencies=[allow("manage")])
async def reembed(_body: Reembed, ws: WorkspaceDep) -> EmbeddingProgress:
    """Drop the workspace's vectors and index, and embed every claim again with the
    configured model (in the background; follow ``GET .../embeddings``)."""
    return await ws.reembed()
