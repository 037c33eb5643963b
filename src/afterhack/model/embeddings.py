"""A workspace's claim vectors, as the API reports them."""

from __future__ import annotations

from typing_extensions import TypedDict

from afterhack.model.vocab import SpaceState


class EmbeddingProgress(TypedDict):
    state: SpaceState
    model: str | None  # the model the workspace's vectors came from (None before the first)
    dim: int | None
    configured_model: str | None  # the server's model (None with embeddings off)
    claims: int
    pending: int  # claims still waiting for their vector
