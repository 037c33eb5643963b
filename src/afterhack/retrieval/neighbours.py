"""The current claims nearest a statement: the one seam conflict checks search through.

A statement is compared only with its top neighbours by search, never with the whole graph,
and they are found the way a search finds claims (rule 3): by words and by meaning, the two
rankings fused by reciprocal rank.

- By words: the words of its subject (the detector's frame words: no values, no scheduling
  verbs), reduced to terms as search reduces them (search.py), so they are found in the index
  a search reads. All of a subject's terms first, in one read for a whole batch, each query
  entering through its rarest term; a short subject that finds nothing is searched again
  term by term ("the product launch" finds "the launch"). Every query reads a bounded number
  of claims however common its terms. This is also how claims whose vectors are still
  pending are found.
- By meaning: the nearest claim vectors to the statement's own (the vector index's
  approximate search visits a bounded part of the graph), within the model's distance for
  "near". A new statement brings its vector; an existing claim's is read where it is stored.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from afterhack.model.claims import NeighbourRow
from afterhack.retrieval import ranking, search
from afterhack.store import claims as store_claims
from afterhack.store import vectors as store_vectors
from afterhack.store.client import Graph, concurrently
from afterhack.store.vectors import NearRow

# How many neighbours each ranking offers a statement.
TOP_K = 5
# A subject this short is searched again term by term when all its terms find nothing.
_SHORT = 3
# Claims holding a query's rarest term read before ranking.
_SCAN = 200
# Terms are counted up to this many holders (an index entry read each): enough to tell a
# term no claim holds, and the rare ones apart; past it the longest term goes first.
_RARE = 8
# The vector index is asked for this many more than TOP_K: claims that are not current, the
# statement's own copies and the claim itself come back too and are left out.
_MEANING_EXTRA = 5


@dataclass(frozen=True)
class Probe:
    """A statement to find the neighbours of: the words of its subject, and its vector (a new
    statement's) or the claim whose stored vector to use (an existing claim's). Without
    either, it is found by words alone. Claims with its statement key (its own copies) are
    not its neighbours."""

    subject: Sequence[str]
    key: str | None = None
    vector: Sequence[float] | None = None
    claim_id: str | None = None


@dataclass(frozen=True)
class Neighbour:
    id: str
    statement: str
    statement_key: str
    source_id: str | None
    by_words: bool
    distance: float | None  # the cosine distance, when it was found by meaning


def _rarest_first(terms: list[str], counts: Mapping[str, int]) -> tuple[str, list[str]]:
    via = terms[0]
    for t in terms[1:]:
        if (counts[t], -len(t)) < (counts[via], -len(via)):
            via = t
    return via, [t for t in terms if t != via]


async def by_words(g: Graph, subjects: Sequence[Sequence[str]],
                   k: int = TOP_K) -> list[list[NeighbourRow]]:
    """For each subject (its words), the current claims holding its terms, best first."""
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


async def by_meaning(g: Graph, probes: Sequence[Probe], k: int = TOP_K,
                     max_distance: float | None = None) -> list[list[NearRow]]:
    """For each probe with a vector (its own or its claim's), the current claims nearest it,
    within ``max_distance``; one read for the new vectors, one for the stored ones."""
    given = [i for i, p in enumerate(probes) if p.vector is not None]
    stored = [i for i, p in enumerate(probes) if p.vector is None and p.claim_id is not None]
    ask = k + _MEANING_EXTRA

    async def of_given() -> list[list[NearRow]]:
        return await store_vectors.nearest_each(
            g, [v for i in given if (v := probes[i].vector) is not None], ask)

    async def of_stored() -> dict[str, list[NearRow]]:
        return await store_vectors.nearest_to_claims(
            g, [c for i in stored if (c := probes[i].claim_id) is not None], ask)

    new, kept = await concurrently(of_given(), of_stored())
    out: list[list[NearRow]] = [[] for _ in probes]
    for i, hits in zip(given, new, strict=True):
        out[i] = hits
    for i in stored:
        out[i] = kept.get(probes[i].claim_id or "", [])
    if max_distance is not None:
        out = [[h for h in hits if h["distance"] <= max_distance] for hits in out]
    return out


async def nearest(g: Graph, probes: Sequence[Probe], k: int = TOP_K, *,
                  max_distance: float | None = None,
                  exclude: Collection[str] = ()) -> list[list[Neighbour]]:
    """For each probe, its neighbours by words and by meaning, fused by reciprocal rank
    (search's fusion), up to ``k`` by meaning beside those found by words; claims in
    ``exclude`` are nobody's neighbours."""
    if not probes:
        return []
    words, meaning = await concurrently(
        by_words(g, [p.subject for p in probes], k),
        by_meaning(g, probes, k, max_distance))
    out: list[list[Neighbour]] = []
    for p, w, m in zip(probes, words, meaning, strict=True):

        def other(h: NeighbourRow | NearRow, p: Probe = p) -> bool:
            return (h["id"] not in exclude and h["id"] != p.claim_id
                    and (p.key is None or h["statement_key"] != p.key))

        w = [h for h in w if other(h)]
        m = [h for h in m if other(h)][:k]
        rows: dict[str, NeighbourRow] = {h["id"]: h for h in w}
        distance = {h["id"]: h["distance"] for h in m}
        for h in m:
            rows.setdefault(h["id"], {"id": h["id"], "statement": h["statement"],
                                      "statement_key": h["statement_key"],
                                      "source_id": h["source_id"]})
        worded = {h["id"] for h in w}
        fused = ranking.fuse([[h["id"] for h in w], [h["id"] for h in m]])
        out.append([Neighbour(id=i, statement=rows[i]["statement"],
                              statement_key=rows[i]["statement_key"],
                              source_id=rows[i]["source_id"], by_words=i in worded,
                              distance=distance.get(i)) for i in fused])
    return out
