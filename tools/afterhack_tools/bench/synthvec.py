"""Stand-in claim vectors for large synthetic workspaces.

Embedding 100,000 statements with the offline model would take the better part of an hour
on two cores, and a latency or memory figure does not depend on what the vectors mean: it
depends on their number, their dimension, the index, and how many of the nearest claims a
search keeps. The workspace is marked as embedded by the app's own model, so its searches
run the vector path as they would on real vectors (the query itself is embedded by the real
model: its time is reported separately).

``named_vectors``: a synthetic claim's vector is the sum of the offline model's own vectors
of the names it holds (its project, component and person; a thousand short phrases, embedded
once), plus a small part from its other words so that no two claims are the same. A query
naming a claim's project and person, embedded by the real model, then finds that claim
first and the claims sharing its names next, within the model's cut-off, as on real claims.
``word_vectors`` (each word a fixed random direction) is in no model's space: a real query
is far from all of them, and the cut-off keeps none.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from afterhack.llm.embeddings import OFFLINE_DIM, OfflineEmbedder

# The weight of a claim's other words beside its names (each name's vector has length one).
_REST = 0.25
# A bench run loads several workspaces of the same names: each phrase is embedded once.
_PHRASES: dict[str, np.ndarray] = {}

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


async def named_vectors(claims: list[dict[str, Any]], words: dict[str, dict[str, str]]
                        ) -> dict[str, list[float]]:
    """Statement -> stand-in vector near the offline model's vectors of its names (see the
    module); a claim without names gets its ``word_vectors`` one."""
    phrases = sorted({p for w in words.values() for p in _phrases(w)} - _PHRASES.keys())
    if phrases:
        made, _ = await OfflineEmbedder().embed(phrases, "passage")
        _PHRASES.update((p, np.asarray(v, dtype=np.float32))
                        for p, v in zip(phrases, made, strict=True))
    rest = word_vectors()
    out: dict[str, list[float]] = {}
    for c in claims:
        w = words.get(c["id"])
        if w is None:
            out[c["statement"]] = rest(c["statement"])
            continue
        v = np.sum([_PHRASES[p] for p in _phrases(w)], axis=0)
        v += _REST * np.asarray(rest(c["statement"]), dtype=np.float32)
        v /= np.linalg.norm(v)
        out[c["statement"]] = [float(f"{x:.7g}") for x in v]
    return out


def _phrases(names: dict[str, str]) -> tuple[str, str, str]:
    return (f"Project {names['project']}", f"the {names['component']} module",
            f"with {names['person']}")
