"""The current claims nearest a statement: the one seam conflict checks search through.

A new claim is compared only with its top neighbours by search, never with the whole
graph. Neighbours share the words of its subject (the detector's frame words: no values,
no scheduling verbs): all of them first, in one read for a whole batch; a short subject
that finds nothing is searched again word by word ("the product launch" finds "the
launch"), each such query bounded to a fixed number of hits however common the word.
"""

from __future__ import annotations

from collections.abc import Sequence

from afterhack import search
from afterhack.model.claims import NeighbourRow
from afterhack.store import claims as store_claims
from afterhack.store.client import Graph, concurrently

# How many neighbours each claim is compared with.
TOP_K = 5
# A subject this short is searched again word by word when all its words find nothing.
_SHORT = 3
# Hits a one-word query looks at before ranking them.
_CAP = 200


def _terms(words: Sequence[str]) -> list[str]:
    return [w for w in dict.fromkeys(x.lower() for x in words) if w not in search.STOPWORDS]


async def nearest(g: Graph, subjects: Sequence[Sequence[str]],
                  k: int = TOP_K) -> list[list[NeighbourRow]]:
    """For each subject (its words), the current claims nearest it, best first."""
    terms = [_terms(words) for words in subjects]
    out: list[list[NeighbourRow]] = [[] for _ in subjects]
    several = [i for i, t in enumerate(terms) if len(t) >= 2]
    found = await store_claims.fulltext_top(g, [" ".join(terms[i]) for i in several], k)
    for i, hits in zip(several, found, strict=True):
        out[i] = hits
    # One word, or a short subject that found nothing with all its words: word by word.
    retry = [(i, w) for i, t in enumerate(terms)
             if t and not out[i] and (len(t) == 1 or len(t) <= _SHORT) for w in t]
    if retry:
        results = await concurrently(*(store_claims.fulltext_capped(g, w, k, _CAP)
                                       for _, w in retry))
        for (i, _), hits in zip(retry, results, strict=True):
            seen = {h["id"] for h in out[i]}
            out[i] += [h for h in hits if h["id"] not in seen]
        for i in {i for i, _ in retry}:
            out[i] = out[i][: k * 2]
    return out
