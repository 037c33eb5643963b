"""Search (docs/rules.md, rule 3): claims ranked by their words (BM25 over their terms), by their
meaning (the nearest vectors), or both fused by reciprocal rank, the first hits followed by
the claims quoted next to them. ``claims.search_claims`` is this module's ``search_claims``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from afterhack.memory import paging
from afterhack.model.calls import ModelCall
from afterhack.model.claims import (
    ClaimSearch,
    FoundBy,
    FoundClaim,
    SearchInfo,
    VectorInfo,
)
from afterhack.model.vocab import CURRENT_CLAIM, ClaimStatus, FoundMatch, SearchMode
from afterhack.retrieval import ranking, search
from afterhack.retrieval.newest import InDispute, asks_for_now, newest_first
from afterhack.retrieval.vectors import Vectors
from afterhack.store import claims as store_claims
from afterhack.store import vectors as store_vectors
from afterhack.store import workspaces
from afterhack.store.claims import KeyedClaim, OpenConflicts
from afterhack.store.client import Graph, concurrently
from afterhack.store.vectors import NearClaim
from afterhack.temporal.timefilter import at_moment, ranked_statuses

# Each ranking offers at least this many claims to the fusion, whatever the page size; a
# search ranks at most MAX_DEPTH claims (pages past that are empty, as for any ranked list).
_FUSION_DEPTH = 50
MAX_DEPTH = 2000
# The first hits each bring the claims quoted just before and after them in their source
# (a sentence's neighbours are its context: the answer to "who founded the company that
# owns X" is often the sentence after the one that names X).
_EXPAND_HITS = 3
# In a hybrid search, the neighbours of the word ranking's hits (up to this many) are read as
# soon as it is known, while the query is still being embedded: the fused first hits are
# nearly always among them, and then no read follows the kNN. Vectors reorder the words'
# ranking, so its first few are not enough (docs/decisions/0010-hybrid-search-path.md).
_EARLY_NEIGHBOURS = _FUSION_DEPTH


class WordRanking(NamedTuple):
    """The claims ranked by their words, and the counts their weights came from."""

    rows: list[KeyedClaim]
    claims: int  # the workspace's claims
    counts: dict[str, int]  # the claims holding each of the query's terms (up to the cap)

    def distinctive(self) -> list[str]:
        """The query's terms that are not common in the workspace (ranking.is_common)."""
        return ranking.distinctive(list(self.counts), self.claims, self.counts,
                                   store_claims.TERM_COUNT_CAP)


_NO_WORDS = WordRanking([], 0, {})
# A candidate of either ranking (the search's moment keeps those it admits).
C = TypeVar("C", KeyedClaim, NearClaim)


async def word_ranking(g: Graph, terms: list[str], statuses: Sequence[ClaimStatus],
                       depth: int) -> WordRanking:
    """BM25 over the claims' terms: the rarest terms bring claims in, every term scores."""
    if not terms:
        return _NO_WORDS
    n, counts = await concurrently(store_claims.count_claims(g),
                                   store_claims.term_counts(g, terms))
    via = ranking.via_terms(counts, store_claims.TERM_COUNT_CAP)
    if not via:
        return WordRanking([], n, counts)
    chosen = set(via)
    weights = ranking.weights(n, counts)
    rows = await store_claims.bm25(g, [w for w in weights if w[0] in chosen],
                                   [w for w in weights if w[0] not in chosen], statuses, depth,
                                   k1=ranking.K1, b=ranking.B,
                                   budget=ranking.CANDIDATE_BUDGET)
    return WordRanking(rows, n, counts)


async def text_ranking(g: Graph, terms: list[str], statuses: Sequence[ClaimStatus],
                       depth: int) -> list[KeyedClaim]:
    """The claims of word_ranking alone."""
    return (await word_ranking(g, terms, statuses, depth)).rows


Near = dict[str, list[KeyedClaim]]


async def _text_ranked(g: Graph, terms: list[str], statuses: Sequence[ClaimStatus],
                       depth: int, early: int) -> tuple[WordRanking, Near]:
    """The word ranking, and the neighbours of its first ``early`` hits, by hit."""
    words = await word_ranking(g, terms, statuses, depth)
    asked = [r["id"] for r in words.rows[:early]]
    return words, await store_claims.neighbours(g, asked, statuses) if asked else {}


def _holding(rows: Sequence[KeyedClaim], wanted: list[str]) -> set[str]:
    """The claims among ``rows`` whose terms include every one of ``wanted`` (none when
    nothing is wanted)."""
    if not wanted:
        return set()
    need = set(wanted)
    return {r["id"] for r in rows if need <= set(search.claim_terms(r["statement"]))}


def _match(text: bool, meaning: bool) -> FoundMatch:
    if text:
        return "both" if meaning else "words"
    return "meaning" if meaning else "neighbour"


Embedded = tuple[tuple[list[list[float]], ModelCall] | None, float]


async def _embedded(vectors: Vectors, q: str) -> Embedded:
    """The query's vector (None if the model failed) and the time it took."""
    t0 = time.perf_counter()
    got = await vectors.embed([q], "query")
    return got, round((time.perf_counter() - t0) * 1000, 3)


def _embedding_first(g: Graph, q: str, mode: SearchMode,
                     vectors: Vectors | None) -> asyncio.Task[Embedded] | None:
    """The query's embedding, started before anything else of the search where the space
    was ready at this process's last search of the graph: it takes longest, and the rest
    runs while it does. Elsewhere the space's state is read first (_vector_ranking), so a
    workspace without vectors (whose claims may be queued for the same model) never has its
    queries embedded for nothing."""
    if mode == "text" or vectors is None or not vectors.enabled or not vectors.was_ready(g):
        return None
    return asyncio.ensure_future(_embedded(vectors, q))


async def _vector_ranking(g: Graph, q: str, statuses: Sequence[ClaimStatus], depth: int,
                          vectors: Vectors | None, early: asyncio.Task[Embedded] | None
                          ) -> tuple[list[NearClaim], VectorInfo, float | None]:
    """The claims near the query in meaning, what the search says about its vectors, and
    the query's embedding time (None when nothing was embedded)."""
    # An embedding already started is always awaited (the model may have been turned off
    # by a failure meanwhile: its state read then says so).
    if vectors is None or (early is None and not vectors.enabled):
        return [], {"state": "off", "pending": 0}, None
    got: tuple[list[list[float]], ModelCall] | None = None
    ms: float | None = None
    if early is not None:
        (got, ms), (state, pending) = await concurrently(early, vectors.search_state(g))
    else:
        state, pending = await vectors.search_state(g)
        if state == "ready":
            got, ms = await _embedded(vectors, q)
    vectors.saw(g, state)
    about: VectorInfo = {"state": state, "pending": pending}
    if state != "ready":
        return [], about, ms
    if got is None:
        about["state"] = "off"
        return [], about, ms
    found = await store_vectors.nearest(g, got[0][0], depth, statuses)
    limit = vectors.max_distance
    if limit is not None:
        found = [r for r in found if r["distance"] <= limit]
    return found, about, ms


def _holds_every_word(statement: str, words: list[str]) -> bool:
    have = set(search.tokens(statement))
    return all(w in have for w in words)


def _public(row: KeyedClaim, open_by_key: dict[str, list[str]], how: FoundBy) -> FoundClaim:
    """The row as a search answers it (without its score, distance and statement key), with
    how it was found and its open conflicts: those it came with (a claim as of a time), else
    those of its statement key."""
    ids = row.get("open_conflict_ids")
    if ids is None:
        key = row["statement_key"]
        ids = list(open_by_key.get(key, ())) if key is not None else []
    return {"id": row["id"], "statement": row["statement"], "status": row["status"],
            "confidence": row["confidence"], "confidence_kind": row["confidence_kind"],
            "source_id": row["source_id"], "revision": row["revision"],
            "created_at": row["created_at"], "open_conflict_ids": ids, "found_by": how}


def _with_neighbours(order: list[str], found: dict[str, list[KeyedClaim]],
                     rows: dict[str, KeyedClaim]) -> tuple[list[str], dict[str, str]]:
    """The ranking with each of the first hits followed by its neighbours (moved up if
    they rank lower); returns it and, for each claim brought up, the hit it follows."""
    out: list[str] = []
    seen: set[str] = set()
    near_of: dict[str, str] = {}
    for i, cid in enumerate(order):
        if cid not in seen:
            out.append(cid)
            seen.add(cid)
        if i >= _EXPAND_HITS:
            continue
        for n in found.get(cid, []):
            if n["id"] not in seen:
                rows.setdefault(n["id"], n)
                out.append(n["id"])
                seen.add(n["id"])
                near_of[n["id"]] = cid
    return out, near_of


@dataclass(frozen=True)
class ClaimQuery:
    """A search of a workspace's claims (``q``), or without one the list of them: which
    statuses, which page (``limit`` from ``offset``, or after ``cursor``), ranked how
    (``mode``), the first hits followed by their neighbours or not, as of a time, and at a
    time (``valid_at``, by default ``as_of``)."""

    q: str | None
    statuses: Sequence[ClaimStatus]
    limit: int = 20
    offset: int = 0
    mode: SearchMode = "hybrid"
    neighbours: bool = True
    as_of: int | None = None
    valid_at: int | None = None
    cursor: str | None = None


@dataclass
class _Search:
    """One search as it runs: the query, the moment it is at, what it ranks and how deep."""

    ask: ClaimQuery
    q: str
    valid_at: int | None
    offset: int
    terms: list[str]
    depth: int
    ranks: Sequence[ClaimStatus]
    info: SearchInfo

    @property
    def key(self) -> str:
        """What a page's cursor is bound to: the same query, nothing else."""
        a = self.ask
        return paging.query_key(self.q, a.mode, a.statuses, a.as_of, self.valid_at,
                                a.neighbours)


@dataclass
class _Ranked:
    """The two rankings (words, meaning) and what came with them: the neighbours of the
    word ranking's first hits, and the workspace's open conflicts by statement key."""

    words: WordRanking
    by_text: list[KeyedClaim]
    by_meaning: list[NearClaim]
    near: Near
    open_conflicts: OpenConflicts


async def search_claims(g: Graph, query: ClaimQuery, vectors: Vectors | None = None,
                        workspace_id: str | None = None) -> ClaimSearch:
    """Without a query, the claims in order of creation; with one, ranked (see module).

    With ``workspace_id`` (the workspace whose graph ``g`` is), one of the search's reads
    also checks that the workspace is ready (WorkspaceNotFound if not): a route needs no
    lookup before it.

    With ``as_of``, as the memory held them then; a search (with ``q``) at a time finds only
    the claims valid then (``valid_at``, by default the ``as_of``): the rankings offer
    candidates and timefilter.at_moment keeps those of that moment.

    A list pages by position in order of creation; a search by rank in its ranking, which
    each page ranks again (a claim added between pages can shift it), down to the
    ``MAX_DEPTH``th claim: a search is a top, its ``total`` is None."""
    q = query.q
    if q is None or not q.strip():
        return await _listed(g, query, workspace_id)
    valid_at = query.valid_at if query.valid_at is not None else query.as_of
    info: SearchInfo = {"q": q, "terms": [], "backed_off": False, "mode": query.mode}
    s = _Search(ask=query, q=q, valid_at=valid_at, offset=0, terms=list(search.plan(q).terms),
                depth=0, ranks=ranked_statuses(query.statuses, query.as_of), info=info)
    s.offset = paging.parse_rank(query.cursor, s.key, query.offset, MAX_DEPTH)
    # One rank past the page says whether another page follows.
    s.depth = min(max(_FUSION_DEPTH, s.offset + query.limit + 1), MAX_DEPTH)
    if valid_at is not None:
        # Candidates the moment will not admit are dropped after ranking: rank deeper.
        s.depth = min(max(_FUSION_DEPTH * 2, 3 * (s.offset + query.limit + 1)), MAX_DEPTH)
    info["terms"] = s.terms
    if query.as_of is not None:
        info["as_of"] = query.as_of
    if valid_at is not None:
        info["valid_at"] = valid_at
    ranked = await _rankings(g, s, vectors, workspace_id)
    return await _page(g, s, ranked, *await _ordered(g, s, ranked))


async def _rankings(g: Graph, s: _Search, vectors: Vectors | None,
                    workspace_id: str | None) -> _Ranked:
    """Both rankings, read at once, each at the search's moment."""
    mode, q, ranks, depth = s.ask.mode, s.q, s.ranks, s.depth
    words_found = _NO_WORDS
    near: Near = {}
    # A word search's first hits are its ranking's: exactly those are read early.
    early_hits = (0 if not s.ask.neighbours else _EXPAND_HITS if mode == "text"
                  else _EARLY_NEIGHBOURS)
    by_meaning: list[NearClaim] = []
    # The workspace's open conflicts are read beside the rankings (with the workspace's
    # check), and matched to the page by statement key (looked up for the page's keys when
    # there are too many to read). The word ranking's reads run while the query is being
    # embedded.
    early = _embedding_first(g, q, mode, vectors)
    conflicts_read = store_claims.open_by_key(g, workspace_id)
    if mode == "text":
        (words_found, near), open_conflicts = await concurrently(
            _text_ranked(g, s.terms, ranks, depth, early_hits), conflicts_read)
    elif mode == "hybrid":
        meaning, open_conflicts, (words_found, near) = await concurrently(
            _vector_ranking(g, q, ranks, depth, vectors, early), conflicts_read,
            _text_ranked(g, s.terms, ranks, depth, early_hits))
    else:
        meaning, open_conflicts = await concurrently(
            _vector_ranking(g, q, ranks, depth, vectors, early), conflicts_read)
    by_text = words_found.rows
    if mode != "text":
        by_meaning, s.info["vectors"], s.info["embedding_ms"] = meaning
    if s.valid_at is not None:
        by_text = await _at(g, s, by_text)
        by_meaning = await _at(g, s, by_meaning)
    return _Ranked(words_found, by_text, by_meaning, near, open_conflicts)


async def _at(g: Graph, s: _Search, rows: list[C]) -> list[C]:
    """The candidates the search's moment admits."""
    return await at_moment(g, rows, s.ask.statuses, as_of=s.ask.as_of, valid_at=s.valid_at)


async def _ordered(g: Graph, s: _Search, ranked: _Ranked
                   ) -> tuple[list[str], dict[str, str], dict[str, KeyedClaim]]:
    """The fused order, each of the first hits followed by its neighbours; the hit each
    neighbour follows; every row by id."""
    by_text, by_meaning = ranked.by_text, ranked.by_meaning
    # Claims holding every word of the query that is not common in the workspace are what
    # it names: they come first, a claim found by meaning alone follows only if it is
    # nearer in meaning than the nearest of them, and no neighbour is brought in
    # (docs/decisions/0027-words-before-meaning.md).
    holding = _holding(by_text, ranked.words.distinctive())
    text_ids = {r["id"] for r in by_text}
    if holding:
        bar = min((r["distance"] for r in by_meaning if r["id"] in holding), default=None)
        by_meaning = [r for r in by_meaning if r["id"] in text_ids
                      or (bar is not None and r["distance"] <= bar)]
        ranked.by_meaning = by_meaning
    rows: dict[str, KeyedClaim] = {r["id"]: r for r in (*by_meaning, *by_text)}
    order = ranking.words_first(
        ranking.fuse([[r["id"] for r in by_text], [r["id"] for r in by_meaning]]), holding)
    near_of: dict[str, str] = {}
    hits = order[:_EXPAND_HITS] if s.ask.neighbours and not holding else []
    if hits:
        near = ranked.near
        late = [h for h in hits if h not in near]
        found = {h: near[h] for h in hits if h in near}
        if late:
            found.update(await store_claims.neighbours(g, late, s.ranks))
        if s.valid_at is not None:
            admitted = {n["id"]: n for n in await _at(
                g, s, [n for ns in found.values() for n in ns])}
            found = {k: [admitted[n["id"]] for n in ns if n["id"] in admitted]
                     for k, ns in found.items()}
        order, near_of = _with_neighbours(order, found, rows)
    return order, near_of, rows


async def _newest_first(g: Graph, s: _Search, ranked: _Ranked, order: list[str],
                        rows: dict[str, KeyedClaim]) -> tuple[list[str], OpenConflicts]:
    """The order with each fact's newest value first (newest.py; a question about now keeps
    only it), and the open conflicts of the claims ranked. As of a time, the order as it
    is: each claim carries the conflicts it had then."""
    found = ranked.open_conflicts
    if s.ask.as_of is not None:
        return order, found
    if not found.complete:
        keys = sorted({k for i in order if (k := rows[i].get("statement_key")) is not None})
        found = await store_claims.open_conflicts_of_keys(g, keys) if keys else found
    disputed: dict[str, InDispute] = {}
    for i in order:
        key = rows[i].get("statement_key")
        ids = found.by_key.get(key, []) if key is not None else []
        if ids and key is not None:
            said = rows[i].get("said_at")
            disputed[i] = InDispute(ids[0], found.sides[(key, ids[0])],
                                    said if said is not None else rows[i]["created_at"])
    now_only = (asks_for_now(s.q)
                and set(s.ask.statuses) <= CURRENT_CLAIM)
    return newest_first(order, disputed, now_only=now_only), found


async def _page(g: Graph, s: _Search, ranked: _Ranked, order: list[str],
                near_of: dict[str, str], rows: dict[str, KeyedClaim]) -> ClaimSearch:
    """The page of the order the query asked for (each fact's newest value first), each
    claim with how it was found and its open conflicts, and the cursor of the next page."""
    offset, limit = s.offset, s.ask.limit
    order, found = await _newest_first(g, s, ranked, order, rows)
    page = order[offset : offset + limit]
    by_key = found.by_key
    if not found.complete:
        keys = sorted({k for i in page if "open_conflict_ids" not in rows[i]
                       and (k := rows[i].get("statement_key")) is not None})
        by_key = (await store_claims.open_conflicts_of_keys(g, keys)).by_key if keys else {}
    text_ids = {r["id"] for r in ranked.by_text}
    distance = {r["id"]: r["distance"] for r in ranked.by_meaning}
    items: list[FoundClaim] = []
    for i in page:
        d = distance.get(i)
        how: FoundBy = {"match": _match(i in text_ids, d is not None), "text": i in text_ids,
                        "vector_distance": None if d is None else round(float(d), 4),
                        "neighbour_of": near_of.get(i)}
        items.append(_public(rows[i], by_key, how))
    words = search.tokens(s.q)
    s.info["backed_off"] = bool(items) and not any(
        _holds_every_word(c["statement"], words) for c in items)
    end = offset + limit
    more = len(order) > end and end < MAX_DEPTH
    return {"items": items, "search": s.info, "total": None,
            "next_cursor": paging.rank_cursor(s.key, end) if more else None}


async def _checked(g: Graph, workspace_id: str | None) -> None:
    if workspace_id is not None:
        await workspaces.check_ready(g, workspace_id)


async def _listed(g: Graph, query: ClaimQuery, workspace_id: str | None) -> ClaimSearch:
    """The claims in order of creation, a page after the cursor's position; with ``as_of``,
    what the memory held then, valid then or not."""
    statuses, limit, offset, as_of = query.statuses, query.limit, query.offset, query.as_of
    after = paging.parse_after("claims", query.cursor, offset)
    info: SearchInfo = {"q": query.q, "terms": [], "backed_off": False, "mode": query.mode}
    total: int | None = None
    if as_of is not None:
        info["as_of"] = as_of
        listed, _ = await concurrently(
            store_claims.list_claims(g, statuses, limit + 1, offset, after, as_of),
            _checked(g, workspace_id))
    else:
        listed, total, _ = await concurrently(
            store_claims.list_claims(g, statuses, limit + 1, offset, after),
            store_claims.count_claims_in(g, statuses), _checked(g, workspace_id))
    return {"items": listed[:limit], "search": info, "total": total,
            "next_cursor": paging.next_after("claims", listed, limit)}
