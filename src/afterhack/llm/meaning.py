"""What words mean, for the offline detector: an embedding model asked ahead of a judgement.

The detector is pure (facts/meaning.py): it is handed the vectors of the words it may
compare. This module embeds them first, each text once per process (a bounded cache: the
words of statements repeat, so a workspace soon asks for few new ones), and only with a
model whose bar is known (``Embedder.meaning_bar``: how near two words of one model must be
to mean the same). A model that fails answers no meaning for that batch: the detector then
decides by words alone, as it does with embeddings off.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence

from afterhack.errors import GatewayError
from afterhack.facts.meaning import Bar, Known
from afterhack.llm.embeddings import Embedder, EmbeddingsUnavailable
from afterhack.model.calls import ModelCall

# What an embedding call made for the detector says it was for.
PURPOSE = "meaning"
# Texts kept embedded, by text: words and short phrases, a few KiB each.
_CACHE_MAX = 20_000


class WordMeaning:
    """An embedder's vectors of short texts, kept by text, for the detector to compare."""

    def __init__(self, embedder: Embedder, bar: Bar) -> None:
        self.embedder = embedder
        self.bar = bar
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()

    async def known(self, texts: Sequence[str]) -> tuple[Known, list[ModelCall]]:
        """The vectors of these texts (embedding those not kept yet), and the model call that
        took, if any."""
        wanted = list(dict.fromkeys(texts))
        missing = [t for t in wanted if t not in self._vectors]
        calls: list[ModelCall] = []
        if missing:
            t0 = time.perf_counter()
            try:
                vecs, call = await self.embedder.embed(missing, "query")
            except GatewayError as exc:
                calls.append(_failed(t0, exc.code, len(missing)))
                vecs = []
            except EmbeddingsUnavailable:
                calls.append(_failed(t0, "embeddings_unavailable", len(missing)))
                vecs = []
            else:
                call.detail["purpose"] = PURPOSE
                calls.append(call)
            for t, v in zip(missing, vecs, strict=False):
                self._vectors[t] = v
            while len(self._vectors) > _CACHE_MAX:
                self._vectors.popitem(last=False)
        found = {t: self._vectors[t] for t in wanted if t in self._vectors}
        for t in found:
            self._vectors.move_to_end(t)
        return Known(found, self.bar), calls


def _failed(t0: float, code: str, n: int) -> ModelCall:
    return ModelCall("embedder", (time.perf_counter() - t0) * 1000, False, error=code,
                     detail={"texts": n, "purpose": PURPOSE})


def word_meaning(embedder: Embedder | None) -> WordMeaning | None:
    """Meaning from this embedder, when its bar is known; None otherwise."""
    if embedder is None or embedder.meaning_bar is None:
        return None
    return WordMeaning(embedder, embedder.meaning_bar)
