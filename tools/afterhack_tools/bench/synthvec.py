"""Stand-in claim vectors for large synthetic workspaces.

Embedding 100,000 statements with the offline model would take the better part of an hour
on two cores, and a latency or memory figure does not depend on what the vectors mean: it
depends on their number, their dimension and the index. Each word gets a fixed random
direction and a statement is the normalised sum of its words', so statements that share
words are near each other, as real ones are. The workspace is marked as embedded by the
app's own model, so its searches run the vector path as they would on real vectors (the
query itself is embedded by the real model: its time is reported separately).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

import numpy as np

from afterhack.llm.embeddings import OFFLINE_DIM, OFFLINE_NAME

_WORD = re.compile(r"[^\W_]+")


def word_vectors(dim: int = OFFLINE_DIM) -> Callable[[str], list[float]]:
    cache: dict[str, np.ndarray] = {}

    def direction(word: str) -> np.ndarray:
        v = cache.get(word)
        if v is None:
            seed = int.from_bytes(hashlib.sha256(word.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
            cache[word] = v
        return v

    def embed(statement: str) -> list[float]:
        words = _WORD.findall(statement.lower()) or ["_"]
        v = np.sum([direction(w) for w in words], axis=0)
        v /= np.linalg.norm(v)
        return [float(f"{x:.7g}") for x in v]

    return embed


def offline_stand_in() -> tuple[str, int, Callable[[str], list[float]]]:
    """(model name, dimension, statement -> vector) for tools/afterhack_tools/bulk.py."""
    return OFFLINE_NAME, OFFLINE_DIM, word_vectors()
