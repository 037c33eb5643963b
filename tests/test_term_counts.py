"""The word ranking's reads (store/claims.py term_counts, count_claims, bm25) on the real
FalkorDB: term counts equal counting the claims (up to the cap), and the ranking equals the
BM25 formula written out over the same claims, whether or not some terms are common."""

from __future__ import annotations

import math
from typing import Any

import pytest
from fastapi.testclient import TestClient

from afterhack.model.vocab import CURRENT_CLAIM
from afterhack.retrieval import hybrid, ranking, search
from afterhack.store import claims as store_claims
from afterhack.store.client import Graph
from tests.support.api import add_source, correct_claim
from tests.support.graphs import with_graph

TEXT = ("The launch is in Berlin. The launch of the rocket is soon. The rocket is big. "
        "Zeppelins fly over the launch site in Berlin. Anna leads the launch team. "
        "The venue in Berlin holds 200 guests.")


async def _claims(g: Graph) -> list[dict[str, Any]]:
    rows = await g.read("MATCH (c:Claim) RETURN c.id AS id, c.terms AS terms, "
                        "c.status AS status, c.created_at AS created_at")
    return [dict(r) for r in rows]


@pytest.mark.parametrize("cap", [store_claims.TERM_COUNT_CAP, 3])
def test_counts_are_the_claims_holding_each_term(client: TestClient, ws: str, falkordb: str,
                                                 cap: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_claims, "TERM_COUNT_CAP", cap)
    made = add_source(client, ws, TEXT)["claims"]
    # Claims of every status count: a superseded claim and its replacement.
    correct_claim(client, ws, next(c["id"] for c in made if "rocket is big" in c["statement"]),
                  "The rocket is huge.")

    async def check(g: Graph) -> None:
        claims = await _claims(g)
        assert any(c["status"] == "superseded" for c in claims)
        assert await store_claims.count_claims(g) == len(claims)
        words = ["launch", "berlin", "huge", "rocket", "nowhere"]
        held = {w: sum(w in c["terms"] for c in claims) for w in words}
        assert held["launch"] > 3 and held["huge"] == 1 and held["nowhere"] == 0
        assert await store_claims.term_counts(g, words) == {w: min(n, cap)
                                                            for w, n in held.items()}

    with_graph(falkordb, ws, check)


def _plain_bm25(claims: list[dict[str, Any]], query: list[str], limit: int,
                cap: int) -> list[str]:
    """The formula written out over every claim (no index, no budget): each query term held
    by any claim weighs its idf, a common term (held by ``cap`` claims or more) as if held
    by ``cap``; a claim scores the weights of the terms it holds, scaled by its length
    against the mean length of the current claims found. Found: those holding a term that
    brings claims in (ranking.via_terms)."""
    n = len(claims)
    df = {t: min(cap, sum(t in c["terms"] for c in claims)) for t in query}
    idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items() if d}
    via = ranking.via_terms(df, cap)
    found = [c for c in claims
             if c["status"] in CURRENT_CLAIM and any(t in c["terms"] for t in via)]
    if not found:
        return []
    mean = sum(len(c["terms"]) for c in found) / len(found)
    order = sorted(idf, key=lambda t: (df[t], t))

    def score(c: dict[str, Any]) -> float:
        held = 0.0
        for t in order:
            if t in c["terms"]:
                held += idf[t]
        return held * (ranking.K1 + 1) / (
            1 + ranking.K1 * (1 - ranking.B + ranking.B * len(c["terms"]) / mean))

    found.sort(key=lambda c: (-score(c), c["created_at"], c["id"]))
    return [c["id"] for c in found[:limit]]


@pytest.mark.parametrize("cap", [store_claims.TERM_COUNT_CAP, 3])
def test_ranking_equals_the_plain_formula(client: TestClient, ws: str, falkordb: str,
                                          cap: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # With a cap of 3, "berlin" and "launch" are common: they score, but bring nothing in.
    monkeypatch.setattr(store_claims, "TERM_COUNT_CAP", cap)
    add_source(client, ws, TEXT)
    add_source(client, ws, "Berlin rocket guests fly soon. The team in Berlin is big.",
               title="More")
    queries = ["launch Berlin", "rocket team", "zeppelins launch Berlin site",
               "guests venue 200", "big", "nothing matches this"]

    async def check(g: Graph) -> None:
        claims = await _claims(g)
        for q in queries:
            words = list(search.plan(q).terms)
            got = await hybrid.text_ranking(g, words, list(CURRENT_CLAIM), 50)
            assert [r["id"] for r in got] == _plain_bm25(claims, words, 50, cap), q

    with_graph(falkordb, ws, check)
