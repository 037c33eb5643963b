"""The current claims nearest a statement: the one seam conflict checks search through.

A new claim is compared only with its top neighbours by search, never with the whole
graph. Neighbours share the words of its subject (the detector's frame words: no values,
no scheduling verbs), as search reduces words to terms (search.py), so they are found in the
same index a search reads. All of a subject's terms first, in one read for a whole batch,
each query entering through its rarest term; a short subject that finds nothing is searched
again term by term ("the product launch" finds "the launch"). Every query reads a bounded
number of claims however common its terms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from afterhack.model.claims import NeighbourRow
from afterhack.retrieval import search
from afterhack.store import claims as store_claims
from afterhack.store.client import Graph

# How many neighbours each claim is compared with.
TOP_K = 5
# A subject this short is searched again term by term when all its terms find nothing.
_SHORT = 3
# Claims holding a query's rarest term read before ranking.
_SCAN = 200
# Terms are counted up to this many holders (an index entry read each): enough to tell a
# term no claim holds, and the rare ones apart; past it the longest term goes first.
_RARE = 8


def _rarest_first(terms: list[str], counts: Mapping[str, int]) -> tuple[str, list[str]]:
    via = terms[0]
    for t in terms[1:]:
        if (counts[t], -len(t)) < (counts[via], -len(via)):
            via = t
    return via, [t for t in terms if t != via]


async def nearest(g: Graph, subjects: Sequence[Sequence[str]],
                  k: int = TOP_K) -> list[list[NeighbourRow]]:
    """For each subject (its words), the current claims nearest it, best first."""
    terms = [search.claim_terms(" ".join(words)) for words in subjects]
    wanted = sorted({t for ts in terms for t in ts})
    counts = await store_claims.term_counts(g, wanted, _RARE) if wanted else {}
    out: list[list[NeighbourRow]] = [[] for _ in subjects]
    # A term no claim holds leaves nothing to find with all of them: no read.
    several = [i for i, t in enumerate(terms)
               if len(t) >= 2 and all(counts.get(w, 0) for w in t)]
    found = await store_claims.holding_all(
        g, [_rarest_first(terms[i], counts) for i in several], k, _SCAN)
    for i, hits in zip(several, found, strict=True):
        out[i] = hits
    # One term, or a short subject that found nothing with all its terms: term by term.
    retry = [(i, w) for i, t in enumerate(terms)
             if t and not out[i] and len(t) <= _SHORT for w in t if counts.get(w, 0)]
    if retry:
        results = await store_claims.holding_all(g, [(w, []) for _, w in retry], k, _SCAN)
        for (i, _), hits in zip(retry, results, strict=True):
            seen = {h["id"] for h in out[i]}
            out[i] += [h for h in hits if h["id"] not in seen]
        for i in {i for i, _ in retry}:
            out[i] = out[i][: k * 2]
    return out
