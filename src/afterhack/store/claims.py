"""Claims: search, and the list and one claim with its evidence, corrections and
replacements, now or as of a time (store/moment.py)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple, TypedDict

from afterhack.errors import ClaimNotFound, WorkspaceNotFound
from afterhack.model.claims import (
    ClaimDetailRow,
    ClaimLinks,
    ClaimRef,
    ClaimRow,
    FoundClaim,
    FragmentRow,
    NeighbourRow,
    QuotedClaim,
)
from afterhack.model.pages import After
from afterhack.model.vocab import ClaimStatus
from afterhack.store.client import Graph, GraphMissing, Rows
from afterhack.store.conflicts import open_conflict_ids
from afterhack.store.cypher import CURRENT
from afterhack.store.keyset import after_params
from afterhack.store.moment import NOW, At, Moment, both, where
from afterhack.store.rows import of
from afterhack.store.workspaces import IN_READY_WORKSPACE


def claim_fields(at: At) -> str:
    """The columns of a ClaimRow of the claim ``c``, with its status at the moment."""
    return (f"c.id AS id, c.statement AS statement, {at.status('c')} AS status, "
            "c.confidence AS confidence, c.confidence_kind AS confidence_kind, "
            "c.source_id AS source_id, c.revision AS revision, c.created_at AS created_at")


CLAIM_FIELDS = claim_fields(NOW)

# A search's rows carry their statement key, which matches them to the workspace's open
# conflicts (``open_by_key``): that one read runs beside the rankings, where a conflict
# lookup inside each read cost a search most of a millisecond after its kNN.
SEARCH_FIELDS = (CLAIM_FIELDS + ", c.statement_key AS statement_key, c.said_at AS said_at")


class KeyedClaim(ClaimRow):
    """A claim as a search reads it: with its statement key and when it was said (not part
    of the answer)."""

    statement_key: str | None
    said_at: int | None


_CLAIM_ROW = of(ClaimRow)
_LISTED = of(FoundClaim)
_KEYED = of(KeyedClaim)
_QUOTED = of(QuotedClaim)
_DETAIL = of(ClaimDetailRow)
_LINKS = of(ClaimLinks)
_FRAGMENT = of(FragmentRow)


# How many claims of one term are counted before the term is called common: a common term
# still scores the claims found through rarer ones, but does not bring in claims of its own
# (reading every claim that says "project" would make a search scale with the workspace).
TERM_COUNT_CAP = 1000


async def term_counts(g: Graph, terms: list[str], cap: int | None = None) -> dict[str, int]:
    """For each term, how many claims hold it (at most ``cap``, TERM_COUNT_CAP by default:
    an index entry is read per claim counted)."""
    rows = await g.read(
        "UNWIND $terms AS t "
        "CALL { WITH t MATCH (c:Node) WHERE c:Claim AND t IN c.terms WITH c LIMIT $cap "
        "  RETURN count(c) AS df } "
        "RETURN t, df",
        {"terms": terms, "cap": TERM_COUNT_CAP if cap is None else cap},
    )
    return {str(r["t"]): int(r["df"]) for r in rows}


async def count_claims(g: Graph) -> int:
    """Claims in the workspace. A read of its own: FalkorDB answers a bare count of a label
    from the label's size, but counts node by node once the count is part of a larger query
    (a scan of every claim: at 100k claims most of a search's time)."""
    rows = await g.read("MATCH (c:Claim) RETURN count(c) AS n")
    return int(rows.scalar() or 0)


async def bm25(g: Graph, via: list[tuple[str, float]], rest: list[tuple[str, float]],
               statuses: Sequence[ClaimStatus], limit: int, *, k1: float, b: float,
               budget: int) -> list[KeyedClaim]:
    """Claims holding any term of ``via``, scored by BM25 over every weighted term.

    ``via`` and ``rest`` pair each of the query's terms with its idf (rarest first): the
    ``via`` terms bring claims in and their weights are summed per claim as they are found;
    a ``rest`` term only adds its weight to a claim found that holds it. A claim is a
    sentence, so each term counts once (its frequency is 1); its length is its number of
    distinct terms, against the mean length of the claims found. At most ``budget`` claims
    are read: when only a common term is held, that many of its claims stand for all of
    them. Rows come without their open conflicts (a search matches its page's to
    ``open_by_key``)."""
    rows = await g.read(
        "UNWIND $via AS w MATCH (c:Node) WHERE c:Claim AND w[0] IN c.terms "
        "AND c.status IN $statuses "
        "WITH c, w[1] AS weight LIMIT $budget "
        "WITH c, sum(weight) AS held "
        "WITH c, reduce(s = held, w IN $rest | s + CASE WHEN w[0] IN c.terms THEN w[1] "
        "  ELSE 0.0 END) AS held, size(c.terms) AS len "
        "WITH collect([c, held, len]) AS found, avg(len) AS mean "
        "UNWIND found AS f "
        "WITH f[0] AS c, f[1] * ($k1 + 1) / (1 + $k1 * (1 - $b + $b * f[2] / mean)) AS score "
        "ORDER BY score DESC, c.created_at, c.id LIMIT $limit "
        f"RETURN {SEARCH_FIELDS}, score ORDER BY score DESC, c.created_at, c.id",
        {"via": [[t, w] for t, w in via], "rest": [[t, w] for t, w in rest],
         "statuses": statuses, "limit": limit, "k1": k1, "b": b, "budget": budget},
    )
    return _KEYED.all(rows)


# A search reads at most this many (statement key, conflict) pairs beside its rankings; in a
# workspace with more open conflicts, the page's are looked up by key once it is known.
OPEN_PAIRS_CAP = 500


class OpenConflicts(NamedTuple):
    """Open conflicts by the statement key of each claim they hold (every claim with that
    key is in them: a conflict of a twin counts, as in ``open_conflict_ids``), and the side
    each key is on in each; ``complete`` is False when there were more than
    ``OPEN_PAIRS_CAP`` pairs to read."""

    by_key: dict[str, list[str]]
    sides: dict[tuple[str, str], str]  # (statement key, conflict) -> side
    complete: bool


def _read_open(rows: Rows, complete: bool) -> OpenConflicts:
    by_key: dict[str, list[str]] = {}
    sides: dict[tuple[str, str], str] = {}
    for r in rows:
        if r["key"] is not None and r["id"] is not None:
            if r["id"] not in by_key.get(r["key"], ()):
                by_key.setdefault(r["key"], []).append(r["id"])
            sides.setdefault((r["key"], r["id"]), r["side"])
    return OpenConflicts(by_key, sides, complete)


async def open_by_key(g: Graph, workspace_id: str | None = None) -> OpenConflicts:
    """The workspace's open conflicts by statement key, up to the cap. A traversal from
    each claim would cost a matrix operation per claim even with none open.

    With ``workspace_id`` (the workspace whose graph ``g`` is), the same read checks that
    the workspace is ready, and raises WorkspaceNotFound if it is not."""
    conflicts = ("OPTIONAL MATCH (k:Node {status: 'open'})-[e:BETWEEN]->(t) WHERE k:Conflict "
                 "RETURN t.statement_key AS key, k.id AS id, coalesce(e.side, t.id) AS side "
                 "LIMIT $cap")
    params = {"cap": OPEN_PAIRS_CAP + 1}
    if workspace_id is None:
        rows = await g.read(conflicts, params)
    else:
        try:
            rows = await g.read(IN_READY_WORKSPACE + conflicts,
                                {**params, "ws": workspace_id})
        except GraphMissing:
            raise WorkspaceNotFound(workspace_id) from None
        if not rows:
            raise WorkspaceNotFound(workspace_id)
    return _read_open(rows, complete=len(rows) <= OPEN_PAIRS_CAP)


async def open_conflicts_of_keys(g: Graph, keys: list[str]) -> OpenConflicts:
    """The open conflicts of the claims with these statement keys, by key."""
    # The claims first (the WITH): in one pattern FalkorDB starts from every open node (the
    # status index) and walks to the keys asked for, a hundred times slower at 100k claims.
    rows = await g.read(
        "UNWIND $keys AS key MATCH (t:Node {statement_key: key}) WITH key, t "
        "MATCH (t)<-[e:BETWEEN]-(k:Node) WHERE k:Conflict AND k.status = 'open' "
        "RETURN DISTINCT key, k.id AS id, coalesce(e.side, t.id) AS side",
        {"keys": keys})
    return _read_open(rows, complete=True)


async def neighbours(g: Graph, hits: list[str], statuses: Sequence[ClaimStatus]
                     ) -> dict[str, list[KeyedClaim]]:
    """For each of ``hits``, the claims quoted just before and just after it in its
    fragment (an empty list for a hit without any)."""
    # The claims are found first, then their fragments: in one pattern FalkorDB starts from
    # every claim of a wanted status (the status index) and walks to the few asked for.
    rows = await g.read(
        "UNWIND $hits AS id MATCH (c:Node {id: id}) WHERE c:Claim "
        "WITH c "
        "MATCH (c)-[:SUPPORTED_BY]->(:SourceFragment)<-[:SUPPORTED_BY]-(n:Claim) "
        "WHERE n <> c AND n.status IN $statuses "
        "WITH c, n ORDER BY n.quote_start "
        "WITH c, collect(n) AS ns "
        "WITH c, [x IN ns WHERE x.quote_start < c.quote_start] AS before, "
        "  [x IN ns WHERE x.quote_start > c.quote_start] AS after "
        "WITH c.id AS of, before[-1..] + after[..1] AS near "
        "UNWIND near AS c "
        f"RETURN of, {SEARCH_FIELDS}",
        {"hits": hits, "statuses": statuses},
    )
    near: dict[str, list[KeyedClaim]] = {h: [] for h in hits}
    for r in rows:
        row = dict(r)
        near[row.pop("of")].append(_KEYED.one(row))
    return near


async def holding_all(g: Graph, queries: list[tuple[str, list[str]]], k: int,
                      scan: int) -> list[list[NeighbourRow]]:
    """For each query (a term that brings claims in, and terms they must also hold), the
    best ``k`` current claims holding all its terms, fewest terms first (a claim that is
    little more than the query), all in one read. At most ``scan`` claims holding the first
    term are read per query, so put its rarest term first."""
    if not queries:
        return []
    # The check on the other terms is projected, then filtered: FalkorDB 4.16 finds nothing
    # when a list bound before a MATCH is quantified in that MATCH's WHERE
    # (tests/test_store_quirks.py).
    rows = await g.read(
        "UNWIND range(0, size($qs) - 1) AS i "
        "WITH i, $qs[i][0] AS via, $qs[i][1] AS rest "
        "CALL { WITH via, rest "
        "  MATCH (c:Node) WHERE c:Claim AND via IN c.terms "
        f"  AND c.status IN {CURRENT} "
        "  WITH c, rest LIMIT $scan "
        "  WITH c, all(t IN rest WHERE t IN c.terms) AS held WHERE held "
        "  RETURN c } "
        "WITH i, c ORDER BY size(c.terms), c.id "
        # Lists, not maps: thousands of hits come back, and a map costs more to decode.
        "WITH i, collect([c.id, c.statement, c.statement_key, c.source_id])[..$k] AS hits "
        "RETURN i, hits",
        {"qs": [[via, rest] for via, rest in queries], "k": k, "scan": scan})
    out: list[list[NeighbourRow]] = [[] for _ in queries]
    for r in rows:
        out[r["i"]] = [{"id": h[0], "statement": h[1], "statement_key": h[2],
                        "source_id": h[3]} for h in r["hits"]]
    return out


async def statement_keys(g: Graph, ids: list[str]) -> dict[str, tuple[str, str]]:
    """Each claim's statement key and statement."""
    if not ids:
        return {}
    rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
                        "RETURN c.id AS id, c.statement_key AS k, c.statement AS s",
                        {"ids": ids})
    return {r["id"]: (r["k"], r["s"]) for r in rows}


class CurrentStatement(TypedDict):
    id: str
    statement: str
    statement_key: str


_CURRENT_STATEMENT = of(CurrentStatement)


async def current_statements(g: Graph, ids: list[str]) -> list[CurrentStatement]:
    """The claims of ``ids`` that are current, each with its statement and key."""
    if not ids:
        return []
    rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
                        f"AND c.status IN {CURRENT} RETURN c.id AS id, "
                        "c.statement AS statement, c.statement_key AS statement_key "
                        "ORDER BY c.id", {"ids": ids})
    return _CURRENT_STATEMENT.all(rows)


async def contains_scan(g: Graph, words: list[str], statuses: Sequence[ClaimStatus],
                        limit: int) -> list[ClaimRow]:
    """The unindexed baseline the benchmark compares full-text search against."""
    rows = await g.read(
        "MATCH (c:Claim) WHERE c.status IN $statuses "
        "AND any(w IN $words WHERE toLower(c.statement) CONTAINS w) "
        f"RETURN {CLAIM_FIELDS} ORDER BY c.created_at, c.id LIMIT $limit",
        {"words": words, "statuses": statuses, "limit": limit},
    )
    return _CLAIM_ROW.all(rows)


# The claims after a cursor's position in order of creation (keyset: paging.py); null
# $at_after is the first page. Served by the status index, like the first page.
AFTER_CLAIM = ("($at_after IS NULL OR c.created_at > $at_after "
               "OR (c.created_at = $at_after AND c.id > $id_after))")


@cache
def _list(at: At) -> str:
    return (f"{at.match_status('c', 'Claim', '$statuses')} AND {AFTER_CLAIM} "
            "WITH c ORDER BY c.created_at, c.id SKIP $offset LIMIT $limit "
            f"RETURN {claim_fields(at)}, {open_conflict_ids(at)} AS open_conflict_ids "
            "ORDER BY c.created_at, c.id")


async def list_claims(g: Graph, statuses: Sequence[ClaimStatus], limit: int,
                      offset: int, after: After | None = None,
                      as_of: int | None = None) -> list[FoundClaim]:
    """The claims with a status of ``statuses`` in order of creation, as a list answers
    them; as of a time, those that existed then with a status of ``statuses`` then."""
    m = Moment(as_of)
    rows = await g.read(_list(m.at), m.params(statuses=statuses, limit=limit, offset=offset,
                                              **after_params(after)))
    return _LISTED.all(rows)


async def count_claims_in(g: Graph, statuses: Sequence[ClaimStatus]) -> int:
    rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.status IN $statuses "
                        "RETURN count(c) AS n", {"statuses": statuses})
    return int(rows.scalar() or 0)


async def find_claims(g: Graph, ids: list[str]) -> dict[str, QuotedClaim]:
    rows = await g.read(
        f"MATCH (c:Node) WHERE c:Claim AND c.id IN $ids RETURN {CLAIM_FIELDS}, "
        "c.evidence_quote AS evidence_quote",
        {"ids": ids},
    )
    return {r["id"]: _QUOTED.one(r) for r in rows}


async def claim_fragments(g: Graph, ids: list[str]) -> list[FragmentRow]:
    """The fragments supporting each claim, with the claim's quote offsets and origin."""
    rows = await g.read(
        "MATCH (c:Node)-[s:SUPPORTED_BY]->(f:SourceFragment) WHERE c:Claim AND c.id IN $ids "
        "OPTIONAL MATCH (f)<-[:HAS_FRAGMENT]-(v:SourceVersion)<-[:HAS_VERSION]-(src:Source) "
        "OPTIONAL MATCH (f)<-[:HAS_FRAGMENT]-(k:Correction) "
        "RETURN c.id AS claim_id, c.status AS claim_status, c.quote_start AS quote_start, "
        "c.quote_end AS quote_end, s.role AS role, f.id AS fragment_id, f.text AS text, "
        "f.start AS start, f.end AS end, f.origin_type AS origin_type, "
        "f.origin_name AS origin_name, src.id AS source_id, src.title AS source_title, "
        "v.version AS version, k.id AS correction_id, f.speaker AS speaker, "
        "f.said_at AS said_at, f.message_index AS message_index, f.page AS page, "
        "f.page_end AS page_end, f.section AS section, v.media_type AS media_type "
        "ORDER BY c.id, f.start",
        {"ids": ids},
    )
    return _FRAGMENT.all(rows)


@cache
def _row(at: At) -> str:
    return (f"MATCH (c:Node {{id:$id}}) WHERE c:Claim{both(at.exists('c'))} "
            f"RETURN {claim_fields(at)}, c.evidence_quote AS evidence_quote, "
            "c.quote_start AS quote_start, c.quote_end AS quote_end, "
            "c.valid_from AS valid_from, c.valid_until AS valid_until, "
            "c.said_by AS said_by, c.said_at AS said_at, "
            # What took its words, or withholds it (docs/rules.md, rule 22).
            "CASE WHEN c.erasure_id IS NULL THEN null ELSE {id: c.erasure_id, "
            "status: CASE WHEN c.status = 'erased' THEN 'applied' ELSE 'requested' END, "
            "at: c.erasure_at, by: c.erasure_by} END AS erasure")


def _not_found(claim_id: str, m: Moment) -> ClaimNotFound:
    return ClaimNotFound(claim_id, None if m.now else "No claim with that id at that time.")


async def get_claim_row(g: Graph, claim_id: str, as_of: int | None = None) -> ClaimDetailRow:
    m = Moment(as_of)
    row = _DETAIL.first(await g.read(_row(m.at), m.params(id=claim_id)))
    if row is None:
        raise _not_found(claim_id, m)
    return row


def _ref(var: str, at: At) -> str:
    return f"{{id: {var}.id, statement: {var}.statement, status: {at.status(var)}}}"


@cache
def _links(at: At) -> str:
    # A claim was superseded by another only once it was retired; it superseded another
    # only once that one was (store/moment.py).
    return (
        "MATCH (c:Node {id:$id}) WHERE c:Claim "
        f"WITH c, {at.status('c')} AS st "
        "RETURN "
        f"[(c)<-[:CORRECTS]-(k:Correction){where(at.exists('k'))} | k {{.id, .kind, "
        "  .statement, .reason, .reviewer, .created_at, .replacement_id}] AS corrections, "
        f"[(c)<-[:SUPERSEDES]-(r:Claim){where(at.retired('st'), at.exists('r'))} | "
        f"  {_ref('r', at)}] AS superseded_by, "
        f"[(c)-[:SUPERSEDES]->(o:Claim){where(at.retired(at.status('o')))} | "
        f"  {_ref('o', at)}] AS supersedes, "
        f"[(c)<-[u:USED_CLAIM]-(d:Decision){where(at.exists('d'))} | "
        f"  {{decision_id: d.id, title: d.title, status: {at.status('d')}, "
        "    premise: u.premise}] AS used_by")


async def claim_links(g: Graph, claim_id: str, as_of: int | None = None) -> ClaimLinks:
    """Corrections of the claim, what it supersedes and what supersedes it, who uses it."""
    m = Moment(as_of)
    row = _LINKS.first(await g.read(_links(m.at), m.params(id=claim_id)))
    if row is None:
        raise ClaimNotFound(claim_id)
    return row


@cache
def _chain(at: At) -> str:
    # The time is tested on the rows, not in the MATCH: a condition on the far end makes
    # FalkorDB start from every claim instead of from this one. A step counts once the
    # claim it replaced was retired: every claim of the path before the last. (Not ``x``:
    # the status pieces use it inside.)
    retired = at.retired(at.status("step"))
    counts = f"all(step IN nodes(p)[..-1] WHERE {retired})" if retired else "true"
    return (
        "MATCH p = (c:Node {id:$id})<-[:SUPERSEDES*0..64]-(r:Claim) WHERE c:Claim "
        f"RETURN r.id AS id, r.statement AS statement, {at.status('r')} AS status, "
        f"{counts} AS counts, length(p) AS depth ORDER BY depth")


async def replacement_chain(g: Graph, claim_id: str, as_of: int | None = None
                            ) -> list[ClaimRef]:
    """The claim and each claim that replaced it, in order, up to the current one (as of a
    time, up to the one current then)."""
    m = Moment(as_of)
    chain: list[ClaimRef] = []
    seen: set[str] = set()
    for r in await g.read(_chain(m.at), m.params(id=claim_id)):
        # A claim created after the time has no status then.
        if r["status"] is not None and r["counts"] and r["id"] not in seen:
            seen.add(r["id"])
            chain.append({"id": r["id"], "statement": r["statement"], "status": r["status"]})
    return chain


async def valid_times(g: Graph, ids: list[str]) -> dict[str, tuple[int | None, int | None]]:
    """Each claim's valid time (valid_from, valid_until), now."""
    if not ids:
        return {}
    rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
                        "RETURN c.id AS id, c.valid_from AS f, c.valid_until AS u", {"ids": ids})
    return {r["id"]: (r["f"], r["u"]) for r in rows}
